import type { Subcommand } from "../shell/analyze-shell-command.js";
import type { DefaultsPreset } from "./claude-code-defaults.js";

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
  options: { ignoreOutputRedirects?: boolean } = {},
): boolean {
  const [program, ...args] = subcommand.words;
  if (program === undefined || !preset.readOnlyCommands.has(program)) return false;
  for (const redirect of options.ignoreOutputRedirects ? [] : subcommand.redirects) {
    if (redirect.operator === "<" || redirect.operator === "<<<" || redirect.operator.startsWith("<<")) continue;
    if (redirect.target.startsWith("&") || redirect.target === "/dev/null") continue;
    return false;
  }
  if (hasUnsafeFlag(preset.unsafeFlags[program], args)) return false;
  if (program !== "git") return true;
  return isReadOnlyGit(args, preset);
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
  if (hasUnsafeFlag(preset.unsafeFlags[`git ${subcommand}`], rest)) return false;
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
