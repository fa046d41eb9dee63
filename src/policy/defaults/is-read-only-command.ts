import type { Subcommand } from "../shell/analyze-shell-command.js";
import type { FlagAllowlist } from "./flag-allowlists.js";
import { allowlistedOperands, followsFlagAllowlist } from "./follows-flag-allowlist.js";
import type { DefaultsPreset } from "./read-only-defaults.js";

const NO_REDIRECTS: readonly Subcommand["redirects"][number][] = [];
const GIT_NEEDS_NO_POSITIONAL = new Set(["branch", "tag"]);
const GIT_CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch"];
const GIT_STASH_READS = new Set(["list", "show"]);

/**
 * Whether a subcommand only reads, per the preset: a read-only program without a flag that makes it write or run
 * something, and no output redirection to a file. (Paths are checked separately against the working directories.)
 */
export function isReadOnlyCommand(
  subcommand: Subcommand,
  preset: DefaultsPreset,
  options?: { ignoreOutputRedirects?: boolean },
): boolean {
  const program = subcommand.words[0];
  if (program === undefined) return false;
  const wrappers = preset.readOnlyWrappers;
  if (wrappers !== undefined) for (const wrapper of subcommand.wrappers) if (!wrappers.has(wrapper)) return false;
  for (const redirect of options?.ignoreOutputRedirects === true ? NO_REDIRECTS : subcommand.redirects) {
    if (redirect.operator === "<" || redirect.operator === "<<<" || redirect.operator.startsWith("<<")) continue;
    if (redirect.target.startsWith("&") || redirect.target === "/dev/null") continue;
    return false;
  }
  // the words joined by one space (a subcommand's plain form)
  return programReadsOnly({
    program,
    args: subcommand.words.slice(1),
    preset,
    line: subcommand.plain,
    lineHead: subcommand.plainHead,
  });
}

/** The first word (up to the first space) of a command line. */
function headOf(line: string): string {
  const space = line.indexOf(" ");
  return space < 0 ? line : line.slice(0, space);
}

/** What a preset says about one program, from its tables (one map lookup instead of one per table). */
interface ProgramDefaults {
  /** in `noArgumentCommands` */
  readonly noArgument: boolean;
  /** its own entry of `flagAllowlists` */
  readonly allowlist: FlagAllowlist | undefined;
  /** in `readOnlyCommands` */
  readonly readOnly: boolean;
  /** its own entry of `unsafeFlags` */
  readonly unsafeFlags: readonly string[] | undefined;
}

/** A preset's tables read for lookups, built once per preset (presets are not changed after they are made). */
interface PresetIndex {
  /**
   * the first words of `exactCommands` and of `readOnlyPrefixes`: a line whose first word is in neither is in
   * neither table, so the whole line is not hashed and no prefix is compared to find that out
   */
  readonly exactHeads: ReadonlySet<string>;
  readonly prefixHeads: ReadonlySet<string>;
  /**
   * every program `noArgumentCommands`, `flagAllowlists`, `readOnlyCommands` or `unsafeFlags` names, with what each
   * table says about it; a program named nowhere is absent. Own entries only (a `Map`: a program named
   * `hasOwnProperty` finds nothing).
   */
  readonly programs: ReadonlyMap<string, ProgramDefaults>;
  /** the unsafe flags of `git <subcommand>` by the subcommand alone (the entries `git ...` of `unsafeFlags`) */
  readonly gitFlags: ReadonlyMap<string, readonly string[]>;
}

const presetIndexes = new WeakMap<DefaultsPreset, PresetIndex>();
/** the last preset asked about and its index: calls mostly name the same preset (no `WeakMap` lookup then) */
let lastPreset: DefaultsPreset | undefined;
let lastIndex: PresetIndex | undefined;

function presetIndex(preset: DefaultsPreset): PresetIndex {
  if (preset === lastPreset && lastIndex !== undefined) return lastIndex;
  let index = presetIndexes.get(preset);
  if (index === undefined) {
    const allowlists = preset.flagAllowlists ?? {};
    const names = new Set([
      ...(preset.noArgumentCommands ?? []),
      ...Object.keys(allowlists),
      ...preset.readOnlyCommands,
      ...Object.keys(preset.unsafeFlags),
    ]);
    index = {
      exactHeads: new Set([...(preset.exactCommands ?? [])].map(headOf)),
      prefixHeads: new Set([...(preset.readOnlyPrefixes ?? [])].map(headOf)),
      programs: new Map(
        [...names].map((name) => [
          name,
          {
            noArgument: preset.noArgumentCommands?.has(name) === true,
            allowlist: Object.hasOwn(allowlists, name) ? allowlists[name] : undefined,
            readOnly: preset.readOnlyCommands.has(name),
            unsafeFlags: Object.hasOwn(preset.unsafeFlags, name) ? preset.unsafeFlags[name] : undefined,
          },
        ]),
      ),
      gitFlags: new Map(
        Object.keys(preset.unsafeFlags)
          .filter((key) => key.startsWith("git "))
          .map((key) => [key.slice("git ".length), preset.unsafeFlags[key] as readonly string[]]),
      ),
    };
    presetIndexes.set(preset, index);
  }
  lastPreset = preset;
  lastIndex = index;
  return index;
}

function programReadsOnly(options: {
  program: string;
  args: string[];
  preset: DefaultsPreset;
  line: string;
  /** `line` up to its first space */
  lineHead: string;
}): boolean {
  const { program, args, preset, line, lineHead } = options;
  const index = presetIndex(preset);
  const exact = preset.exactCommands;
  if (exact !== undefined && index.exactHeads.has(lineHead) && exact.has(line)) return true;
  if (args.length > 0 && preset.readOnlyPrefixes !== undefined && index.prefixHeads.has(lineHead)) {
    for (const prefix of preset.readOnlyPrefixes) {
      if (line.startsWith(prefix) && (line.length === prefix.length || line.charCodeAt(prefix.length) === 32))
        return true;
    }
  }
  const named = index.programs.get(program);
  // a program no table names is not read-only
  if (named === undefined) return false;
  if (named.noArgument) return args.length === 0;
  const { allowlist } = named;
  if (allowlist !== undefined) {
    if (!followsFlagAllowlist(args, allowlist)) return false;
    if (program === "ps") return !psShowsEnvironment(args);
    if (program === "sed") return sedOnlyPrints(args, allowlist);
    return true;
  }
  if (!named.readOnly) return false;
  if (hasUnsafeFlag(named.unsafeFlags, args)) return false;
  if (program !== "git") return true;
  return isReadOnlyGit(args, preset);
}

/**
 * `ps e`/`ps eww` (BSD) and `ps -e` combined with selection or format flags can show other processes' environments,
 * where secrets live: only `-e` among plain listing flags (`ps -ef`, `ps -eLf`) stays read-only.
 */
function psShowsEnvironment(args: readonly string[]): boolean {
  if (args.some((arg) => !arg.startsWith("-") && /[eE]/.test(arg))) return true;
  if (!args.some((arg) => /^-[a-zA-Z]*e/.test(arg))) return false;
  const plain = args.every((arg) => arg === "--forest" || /^-[AacdeFfjlwHLTm]+$/.test(arg));
  const threadFlags = args.flatMap((arg) => (arg === "--forest" ? [arg] : (arg.match(/[HLTm]/g) ?? [])));
  return !(plain && threadFlags.length <= 1);
}

/** sed scripts that only print lines (`1,5p`, `/re/p`, `$p`, `10q`): no `s`, `w`, `e`, `r` or other commands. */
const PRINT_ONLY = /^(?:(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/)(?:,(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/|[+~]\d+))?)?[p=]$|^\d+q$/;

function sedOnlyPrints(args: readonly string[], allowlist: FlagAllowlist): boolean {
  const scripts: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "-e" || arg === "--expression") scripts.push(args[++index] ?? "");
    else if (arg.startsWith("--expression=")) scripts.push(arg.slice("--expression=".length));
    else if (/^-[a-zA-Z]*e/.test(arg)) {
      // a cluster ending in e takes the next word (`-ne 1p`); otherwise the rest is the script (`-ne1p`)
      const rest = arg.slice(arg.indexOf("e") + 1);
      scripts.push(rest === "" ? (args[++index] ?? "") : rest);
    }
  }
  if (scripts.length === 0) {
    const operands = allowlistedOperands(args, allowlist) ?? [];
    if (operands[0] === undefined) return false;
    scripts.push(operands[0]);
  }
  return scripts.every((script) =>
    script
      .split(/[;\n]/)
      .map((command) => command.trim())
      .every((command) => PRINT_ONLY.test(command)),
  );
}

function isReadOnlyGit(args: string[], preset: DefaultsPreset): boolean {
  let index = 0;
  // global options before the subcommand: `git -C dir status`, `git --no-pager log`
  while (index < args.length && (args[index] as string).startsWith("-")) {
    const option = args[index] as string;
    index += option === "-C" || option === "-c" || option === "--git-dir" || option === "--work-tree" ? 2 : 1;
    if (option === "-c") return false;
  }
  const subcommand = args[index];
  if (subcommand === undefined || !preset.readOnlyGitSubcommands.has(subcommand)) return false;
  const rest = args.slice(index + 1);
  if (hasUnsafeFlag(presetIndex(preset).gitFlags.get(subcommand), rest)) return false;
  if (GIT_NEEDS_NO_POSITIONAL.has(subcommand)) {
    const listing = rest.some((word) => word === "-l" || word === "--list" || word === "-a" || word === "-r");
    if (!listing && rest.some((word) => !word.startsWith("-"))) return false;
  }
  if (subcommand === "config") return rest.some((word) => GIT_CONFIG_READS.includes(word));
  if (subcommand === "stash") return GIT_STASH_READS.has(rest[0] ?? "");
  if (subcommand === "remote")
    return rest.every((word) => word.startsWith("-")) || rest[0] === "show" || rest[0] === "get-url";
  return true;
}

function hasUnsafeFlag(flags: readonly string[] | undefined, args: readonly string[]): boolean {
  if (flags === undefined) return false;
  if (flags.includes("*")) return args.length > 0;
  for (const arg of args) {
    for (const flag of flags) {
      if (arg === flag || arg.startsWith(`${flag}=`)) return true;
      // a short flag inside a cluster or with an attached value: `sed -i.bak`, `sed -ni`, `git branch -vD`
      if (/^-[a-zA-Z]$/.test(flag) && /^-[a-zA-Z]/.test(arg) && arg.includes(flag[1] as string)) return true;
    }
  }
  return false;
}
