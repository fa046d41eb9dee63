import picomatch from "picomatch/posix.js";
import { isInside, type PathContext } from "../paths.js";
import { compileGlobAutomaton, type GlobTest } from "./glob-automaton.js";

/**
 * Compiles a Read/Edit/Write specifier (gitignore style, as Claude Code reads it) into a test on absolute,
 * normalised paths:
 * - `//path` is absolute from the filesystem root; `~/path` is under the home directory;
 * - `/path` is relative to the project root (not absolute);
 * - `path` and `./path` are relative to the working directory; a name without an inner slash matches at any depth
 *   below it (`.env` is `**\/.env`);
 * - `*` stays inside one segment, `**` crosses segments; a pattern also covers everything below a matching
 *   directory (`docs` covers `docs/a.md`).
 */
export interface PathSpecifierContext extends PathContext {
  /** the project root for `/path` patterns (normally the working directory) */
  projectRoot: string;
}

export function compilePathSpecifier(specifier: string, context: PathSpecifierContext): (path: string) => boolean {
  const glob = anchorPattern(specifier.trim(), context);
  const directory = literalDirectory(glob);
  // what most rules are: a path, or a directory and everything below it (one comparison, not three)
  if (directory !== undefined) return (path) => isInside(path, directory);
  const exact = compileGlob(glob);
  const below = compileGlob(`${glob}/**`);
  const prefix = literalPrefix(glob);
  return (path) => path.startsWith(prefix) && (exact(path) || below(path));
}

/**
 * The path a glob names when it is a literal path (`/repo/.env`) or a literal path and one `/**` after it
 * (`/repo/src/**`): the glob and everything below it then match exactly that path and the paths below it (what
 * `isInside` tests), and the literal prefix the general test checks first is that path or its parent. Undefined for
 * any other glob, for the root, and for a glob with an empty segment (`//`), which the general test reads.
 */
function literalDirectory(glob: string): string | undefined {
  const base = glob.endsWith("/**") ? glob.slice(0, -3) : glob;
  if (base.length < 2 || base.charCodeAt(0) !== 47 || base.endsWith("/") || base.includes("//")) return undefined;
  return GLOB_CHARACTERS.test(base) ? undefined : base;
}

/**
 * A glob as a test on paths: the linear-time automaton for the syntax it models (everything toolgate's own
 * anchoring produces and every glob in the docs), picomatch's regex only for extglobs and POSIX classes.
 */
export function compileGlob(glob: string): GlobTest {
  const literal = compileLiteralGlob(glob);
  if (literal !== undefined) return literal;
  const automaton = compileGlobAutomaton(glob);
  if (automaton !== undefined) return automaton;
  const regex = picomatch.makeRe(glob, { dot: true });
  return (path) => regex.test(path);
}

/**
 * The fast form of the globs most rules compile to: a literal path (`/repo/.env`), or a literal directory and
 * everything below it (`/repo/src/**`, and the same with a second trailing globstar, the "below" form of it): a string
 * comparison instead of a run of the automaton, deciding exactly as the automaton does (property-tested against it).
 * Undefined for any other glob.
 */
export function compileLiteralGlob(glob: string): GlobTest | undefined {
  let base = glob.replace(/\/{2,}/g, "/");
  let globstars = 0;
  while (base.endsWith("/**") && globstars < 3) {
    base = base.slice(0, -3);
    globstars++;
  }
  if (globstars > 2 || GLOB_CHARACTERS.test(base)) return undefined;
  if (globstars === 0) return (path) => path === base;
  const directory = `${base}/`;
  // one trailing globstar also matches the directory itself; two need something below it
  if (globstars === 2) return (path) => path.startsWith(directory);
  return (path) => path === base || path.startsWith(directory);
}

/** Characters that make a path pattern a glob. */
export const GLOB_CHARACTERS = /[*?[\]{}()!+@\\]/;

/** The literal directory part of a glob before its first special character: every match starts with it. */
export function literalPrefix(glob: string): string {
  const special = glob.search(GLOB_CHARACTERS);
  const literal = special < 0 ? glob : glob.slice(0, special);
  // without the trailing slash, so the directory itself (`/repo/src` for `/repo/src/**`) passes the prefilter
  return literal.slice(0, Math.max(literal.lastIndexOf("/"), 0));
}

/** Turns a specifier into an absolute glob. Exported for tests and for `toolgate check` explanations. */
export function anchorPattern(specifier: string, context: PathSpecifierContext): string {
  let pattern = specifier;
  if (pattern === "" || pattern === "*" || pattern === "**") return "/**";
  if (pattern.startsWith("//")) return joinGlob("/", pattern.slice(2));
  if (pattern === "~" || pattern.startsWith("~/")) return joinGlob(escapeGlob(context.homeDir), pattern.slice(2));
  if (pattern.startsWith("/")) return joinGlob(escapeGlob(context.projectRoot), pattern.slice(1));
  while (pattern.startsWith("./")) pattern = pattern.slice(2);
  const trimmed = pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
  const anchored = trimmed.includes("/");
  return joinGlob(escapeGlob(context.cwd), anchored ? trimmed : `**/${trimmed}`);
}

function joinGlob(base: string, rest: string): string {
  const cleaned = rest.replace(/\/+$/, "");
  if (cleaned === "") return base === "/" ? "/**" : base;
  return base.endsWith("/") ? `${base}${cleaned}` : `${base}/${cleaned}`;
}

function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@\\]/g, "\\$&");
}
