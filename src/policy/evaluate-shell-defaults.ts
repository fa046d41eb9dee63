import type { CompiledRule } from "./compile-rule.js";
import { isReadOnlyCommand } from "./defaults/is-read-only-command.js";
import type { DefaultsPreset } from "./defaults/read-only-defaults.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { compileGlob } from "./match/path-specifier.js";
import { makeOutcome, type Outcome, shareOutcome } from "./outcome.js";
import { isInsideAny } from "./paths.js";
import { isPlainSubcommand, type Subcommand } from "./shell/analyze-shell-command.js";
import { fileArguments } from "./shell/file-arguments.js";
import { toolFamily } from "./tool-families.js";

/**
 * What the defaults preset and the mode say about a shell subcommand no rule or grant decided, and the guard for
 * file arguments that cannot be checked before the command runs (wildcards, `$VAR`, substitutions).
 */
export function defaultForSubcommand(options: {
  sub: Subcommand;
  context: EvaluationContext;
  hasCd: boolean;
}): Outcome {
  const { sub, context } = options;
  const { defaults, mode } = context;
  const program = sub.words[0] ?? "";
  const files = context.fileTargets(sub);
  if (mode === "bypassPermissions") {
    const home = context.pathContext.homeDir;
    if (program === "rm" && files.writes.some((path) => path === "/" || path === home)) {
      return makeOutcome({
        behavior: "ask",
        source: "mode",
        reason: `${sub.text} would remove / or the home directory.`,
      });
    }
    return makeOutcome({ behavior: "allow", source: "mode", reason: "Allowed by bypassPermissions mode." });
  }
  // most commands name no file: then no path can be unknown or outside (no call into Array.prototype.find)
  const namesFiles = files.reads.length > 0 || files.writes.length > 0;
  const unknown = namesFiles ? (files.reads.find(isUnknownPath) ?? files.writes.find(isUnknownPath)) : undefined;
  // a plain line's subcommand holds no `$`, backtick, `<` or `>`: no substitution to look for
  if (unknown !== undefined || (!isPlainSubcommand(sub) && hasSubstitution(sub.text))) {
    return makeOutcome({
      behavior: undefined,
      source: "default",
      reason: `${sub.text} uses an expansion or substitution whose result cannot be checked before it runs, so it needs approval.`,
    });
  }
  const outside = namesFiles
    ? (files.reads.find((path) => !isInsideAny(path, context.workingDirectories)) ??
      files.writes.find((path) => !isInsideAny(path, context.workingDirectories)))
    : undefined;
  if (outside !== undefined) {
    return makeOutcome({
      behavior: undefined,
      source: "default",
      reason: `${program} in '${outside}' needs approval. The path is outside the working directories for this session.`,
    });
  }
  const gitAfterCd = program === "git" && options.hasCd;
  if (!gitAfterCd && isReadOnlyCommand(sub, defaults)) return readOnlyOutcome(program, defaults);
  const edits =
    defaults.acceptEditsCommands.has(program) ||
    (files.writes.length > 0 && isReadOnlyCommand(sub, defaults, { ignoreOutputRedirects: true }));
  if (mode === "acceptEdits" && edits) {
    return makeOutcome({
      behavior: "allow",
      source: "mode",
      reason: `${program} inside the working directories is allowed in acceptEdits mode.`,
    });
  }
  return REQUIRES_APPROVAL;
}

/** The undecided outcome of a command nothing decided (shared) */
export const REQUIRES_APPROVAL: Outcome = shareOutcome({
  behavior: undefined,
  source: "default",
  reason: "This command requires approval.",
});

/** the outcome that a preset's read-only program is allowed, per preset and program (shared; bounded) */
const readOnlyOutcomes = new WeakMap<DefaultsPreset, Map<string, Outcome>>();
const READ_ONLY_OUTCOMES_KEPT = 1024;

/** the last preset asked about and its outcomes: calls mostly name the same preset (no `WeakMap` lookup then) */
let lastDefaults: DefaultsPreset | undefined;
let lastOutcomes: Map<string, Outcome> | undefined;

function readOnlyOutcome(program: string, defaults: DefaultsPreset): Outcome {
  let byProgram = defaults === lastDefaults ? lastOutcomes : readOnlyOutcomes.get(defaults);
  if (byProgram === undefined) {
    byProgram = new Map();
    readOnlyOutcomes.set(defaults, byProgram);
  }
  lastDefaults = defaults;
  lastOutcomes = byProgram;
  let outcome = byProgram.get(program);
  if (outcome === undefined) {
    outcome = shareOutcome({
      behavior: "allow",
      source: "default",
      reason: `${program} is a read-only command (${defaults.name} defaults).`,
    });
    if (byProgram.size >= READ_ONLY_OUTCOMES_KEPT) byProgram.clear();
    byProgram.set(program, outcome);
  }
  return outcome;
}

/** An ask when a file argument has `..` after a directory (`sub/../x`): it may follow a symlink out of the tree. */
export function traversalIn(sub: Subcommand): Outcome | undefined {
  const files = fileArguments(sub);
  if (files.reads.length === 0 && files.writes.length === 0) return undefined;
  const traversal =
    files.reads.find((path) => TRAVERSAL.test(path)) ?? files.writes.find((path) => TRAVERSAL.test(path));
  if (traversal === undefined) return undefined;
  return makeOutcome({
    behavior: "ask",
    source: "default",
    reason: `Path ${traversal} contains '..' after a directory segment, which may follow a symlink outside the working directory.`,
  });
}

/** `sub/../x`: `..` after a directory segment (a leading `../` is an ordinary path outside the directory) */
const TRAVERSAL = /[^/.][^/]*\/\.\.(?:\/|$)|\/[^/]*[^/.]\/\.\.(?:\/|$)/;
/** `$(`, a backtick, `<(` or `>(`: a command or process substitution */
export const SUBSTITUTION = /\$\(|`|<\(|>\(/;
const DOLLAR = 36;
const LESS = 60;
const GREATER = 62;
const BACKTICK = 96;
const OPEN = 40;

/** Whether `text` holds what `SUBSTITUTION` matches: one pass over the char codes (property-tested against it). */
export function hasSubstitution(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === BACKTICK) return true;
    if ((code === DOLLAR || code === LESS || code === GREATER) && text.charCodeAt(index + 1) === OPEN) return true;
  }
  return false;
}
const UNKNOWN_PATH = /[$`]/;
const VARIABLE_PATH = /[$`*?[]/;

/** A path argument that names a variable or substitution: what it reads or writes is unknown until it runs. */
function isUnknownPath(path: string): boolean {
  return UNKNOWN_PATH.test(path);
}

/**
 * A deny path rule that a file argument with a wildcard or expansion (`cat sec*`, `cat $DIR/x`) might reach: such
 * arguments are not expanded before matching, so the command asks instead. A wildcard argument is checked against
 * the rule's literal file name (`*.txt` cannot name `secret.env`) or, for rules ending in a wildcard, its directory.
 */
export function globMayReachDeniedPath(sub: Subcommand, context: EvaluationContext): CompiledRule | undefined {
  if (context.shellPathRules.length === 0) return undefined;
  const files = context.fileTargets(sub);
  if (files.reads.length === 0 && files.writes.length === 0) return undefined;
  const reads = files.reads.filter((path) => VARIABLE_PATH.test(path));
  const writes = files.writes.filter((path) => VARIABLE_PATH.test(path));
  if (reads.length === 0 && writes.length === 0) return undefined;
  return context.shellPathRules.find((rule) => {
    if (rule.behavior !== "deny") return false;
    const paths = toolFamily(rule.tool) === "read" ? reads : writes;
    return paths.some((path) => mayReach(path, rule));
  });
}

const MAX_GLOB_NAME = 1024;

function mayReach(path: string, rule: CompiledRule): boolean {
  if (UNKNOWN_PATH.test(path)) return true;
  const slash = path.lastIndexOf("/");
  const directory = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  if (VARIABLE_PATH.test(directory)) return true;
  // the command's own file name may be a glob (`cat .e*`): does it name the rule's file? A name longer than any
  // real one (255 bytes) is not compiled at all: it may reach the file, so the deny rule applies.
  if (rule.pathName !== undefined) return name.length > MAX_GLOB_NAME || compileGlob(name)(rule.pathName);
  const prefix = rule.pathPrefix ?? "/";
  return prefix.startsWith(directory) || directory.startsWith(prefix);
}
