import type { Subcommand } from "./analyze-shell-command.js";

/**
 * Recognised file readers and writers: which arguments of a subcommand are paths it reads or writes. Read deny
 * rules apply to the read paths (`cat secret.env` with `Read(./secret.env)` denied), Edit deny rules to the write
 * paths, and the defaults preset checks both against the working directories. Interpreters (`python3 -c ...`) are
 * not readers: what they open cannot be known from the command line.
 */
interface FileCommandSpec {
  operation: "read" | "write";
  /** leading positional words that are not paths (grep's pattern, sed's script) */
  skipPositional: number;
  /** options that take the next word as a value */
  valueOptions?: readonly string[];
  /** options that replace the leading positional (`grep -e PATTERN`) */
  patternOptions?: readonly string[];
}

const READER = (skipPositional = 0, valueOptions: readonly string[] = []): FileCommandSpec => ({
  operation: "read",
  skipPositional,
  valueOptions,
});

const FILE_COMMANDS: Record<string, FileCommandSpec> = {
  cat: READER(),
  tac: READER(),
  nl: READER(),
  head: READER(0, ["-n", "-c", "--lines", "--bytes"]),
  tail: READER(0, ["-n", "-c", "--lines", "--bytes", "-s"]),
  less: READER(),
  more: READER(),
  ls: READER(),
  tree: READER(0, ["-L", "-P", "-I"]),
  stat: READER(0, ["-c", "--format", "--printf"]),
  file: READER(),
  wc: READER(),
  du: READER(0, ["-d", "--max-depth"]),
  diff: READER(),
  cmp: READER(),
  sort: READER(0, ["-k", "-t", "-S", "-T"]),
  uniq: READER(),
  cut: READER(0, ["-d", "-f", "-c", "-b"]),
  od: READER(0, ["-t", "-N", "-j", "-A"]),
  hexdump: READER(0, ["-n", "-s", "-e"]),
  xxd: READER(0, ["-l", "-s", "-c"]),
  strings: READER(0, ["-n"]),
  md5sum: READER(),
  sha1sum: READER(),
  sha256sum: READER(),
  sha512sum: READER(),
  cksum: READER(),
  base64: READER(),
  cd: READER(),
  find: { operation: "read", skipPositional: 0, valueOptions: [] },
  grep: {
    ...READER(1, ["-m", "-A", "-B", "-C", "--include", "--exclude", "--max-count"]),
    patternOptions: ["-e", "-f", "--regexp", "--file"],
  },
  egrep: { ...READER(1, ["-m", "-A", "-B", "-C"]), patternOptions: ["-e", "-f"] },
  fgrep: { ...READER(1, ["-m", "-A", "-B", "-C"]), patternOptions: ["-e", "-f"] },
  rg: {
    ...READER(1, ["-m", "-A", "-B", "-C", "-g", "--glob", "-t", "--type", "-T", "--max-count"]),
    patternOptions: ["-e", "-f", "--regexp", "--file"],
  },
  sed: { ...READER(1, []), patternOptions: ["-e", "-f", "--expression", "--file"] },
  awk: { ...READER(1, ["-F", "-v"]), patternOptions: ["-f"] },
  jq: READER(1, ["--arg", "--argjson", "--slurpfile", "--rawfile"]),
  touch: { operation: "write", skipPositional: 0, valueOptions: ["-d", "-t", "-r"] },
  mkdir: { operation: "write", skipPositional: 0, valueOptions: ["-m", "--mode"] },
  rm: { operation: "write", skipPositional: 0 },
  rmdir: { operation: "write", skipPositional: 0 },
  mv: { operation: "write", skipPositional: 0, valueOptions: ["-t", "--target-directory", "-S"] },
  cp: { operation: "write", skipPositional: 0, valueOptions: ["-t", "--target-directory", "-S"] },
  tee: { operation: "write", skipPositional: 0 },
  chmod: { operation: "write", skipPositional: 1 },
  chown: { operation: "write", skipPositional: 1 },
  ln: { operation: "write", skipPositional: 0 },
  truncate: { operation: "write", skipPositional: 0, valueOptions: ["-s", "--size", "-r"] },
};

/**
 * `FILE_COMMANDS` as a map, looked up by a word of the command: a `Map` finds only its own entries (a program named
 * `constructor` is no file command) and hashes the word once, where `Object.hasOwn` on the table first looks the word
 * up in the string table (the slowest lookup of a first-seen call's profile).
 */
const FILE_COMMAND_SPECS: ReadonlyMap<string, FileCommandSpec> = new Map(Object.entries(FILE_COMMANDS));

export interface FileArguments {
  /** the program is a recognised file reader or writer */
  recognised: boolean;
  reads: string[];
  writes: string[];
}

const OUTPUT_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** What callers get: shared between the calls for one subcommand, so never to be changed. */
export type SharedFileArguments = {
  readonly recognised: boolean;
  readonly reads: readonly string[];
  readonly writes: readonly string[];
};

let lastSubcommand: Subcommand | undefined;
let lastArguments: SharedFileArguments | undefined;

/**
 * The paths a subcommand reads and writes, as written (relative paths are resolved by the caller). One decision
 * asks several times for the same subcommand: the answer for the last one is kept.
 */
export function fileArguments(subcommand: Subcommand): SharedFileArguments {
  if (subcommand !== lastSubcommand || lastArguments === undefined) {
    lastArguments = readFileArguments(subcommand);
    lastSubcommand = subcommand;
  }
  return lastArguments;
}

/** the answer for a subcommand with no redirection whose program reads and writes no file it names (shared) */
const NONE: SharedFileArguments = Object.freeze({
  recognised: false,
  reads: Object.freeze([]),
  writes: Object.freeze([]),
});

function readFileArguments(subcommand: Subcommand): SharedFileArguments {
  const first = subcommand.words[0];
  const spec = first === undefined ? undefined : FILE_COMMAND_SPECS.get(first);
  if (spec === undefined && subcommand.redirects.length === 0) return NONE;
  const reads: string[] = [];
  const writes: string[] = [];
  for (const redirect of subcommand.redirects) {
    if (redirect.target.startsWith("&") || HARMLESS_TARGETS.has(redirect.target)) continue;
    if (OUTPUT_REDIRECTS.has(redirect.operator)) writes.push(redirect.target);
    else if (redirect.operator === "<") reads.push(redirect.target);
  }
  if (spec === undefined) return { recognised: false, reads, writes };
  const program = first;
  const args = subcommand.words.slice(1);
  const target = spec.operation === "read" ? reads : writes;
  let skip = spec.skipPositional;
  let optionsDone = false;
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    if (!optionsDone && word === "--") {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && word.startsWith("-") && word !== "-") {
      const option = word.includes("=") ? word.slice(0, word.indexOf("=")) : word;
      if (spec.patternOptions?.includes(option)) skip = 0;
      if (!word.includes("=") && (spec.valueOptions?.includes(option) || spec.patternOptions?.includes(option)))
        index++;
      if (program === "find") break;
      continue;
    }
    if (skip > 0) {
      skip--;
      continue;
    }
    if (word === "-") continue;
    target.push(word);
    // copying or moving a file reads it too, so Read deny rules cover `cp secret.env x`
    if (program === "cp" || program === "mv" || program === "ln") reads.push(word);
  }
  // `sed -i` edits its files in place
  if (program === "sed" && args.some((arg) => arg === "--in-place" || /^-[a-zA-Z]*i/.test(arg))) writes.push(...reads);
  return { recognised: true, reads, writes };
}
