/**
 * The files or directories a call acts on, for spotting the same intent routed through another tool after a
 * denial (a denied Write of `notes.txt`, then `cat > notes.txt <<EOF` in a shell). Heuristic and pure: paths from
 * the input's path fields, shell redirection and `tee` targets, and the operands of file-changing commands.
 */
const PATH_KEYS = ["file_path", "filePath", "path", "notebook_path", "absolute_path", "target_file"];
const FILE_COMMANDS = new Set([
  "rm",
  "rmdir",
  "mv",
  "cp",
  "touch",
  "chmod",
  "chown",
  "truncate",
  "unlink",
  "mkdir",
  "ln",
  "sed",
  "dd",
]);
const MAX_TARGETS = 8;

function normalize(path: string): string {
  let cleaned = path.trim().replace(/^['"]|['"]$/g, "");
  while (cleaned.startsWith("./")) cleaned = cleaned.slice(2);
  return cleaned.replace(/\/+$/, "");
}

function commandText(input: Record<string, unknown>): string | undefined {
  for (const key of ["command", "cmd"]) {
    const value = input[key];
    if (typeof value === "string") return value;
    if (Array.isArray(value)) return value.map(String).join(" ");
  }
  return undefined;
}

/** `apply_patch` input (the patch format): `*** Add File: path`, `*** Update File: path`, `*** Delete File: path` */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

export function callTargets(input: unknown): string[] {
  if (typeof input === "string") {
    return [...input.slice(0, 20_000).matchAll(PATCH_FILE)]
      .map((match) => normalize(match[1] as string))
      .slice(0, MAX_TARGETS);
  }
  if (input === null || typeof input !== "object") return [];
  const record = input as Record<string, unknown>;
  const targets = new Set<string>();
  for (const key of PATH_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value !== "") targets.add(normalize(value));
  }
  const command = commandText(record);
  if (command !== undefined) {
    let text = command.slice(0, 4000);
    // `apply_patch <<'PATCH' ... *** Update File: path` through a shell (Codex's `bash -lc`): the files it names; its
    // body is code (`=>`, `>`), not redirections, so only the line that starts it is read as a command
    const size = targets.size;
    for (const match of command.slice(0, 20_000).matchAll(PATCH_FILE)) targets.add(normalize(match[1] as string));
    if (targets.size > size) text = text.split("\n", 1)[0] as string;
    for (const match of text.matchAll(/(?:>>?|\btee(?:\s+-a)?)\s*([^\s;&|<>()]+)/g))
      targets.add(normalize(match[1] as string));
    for (const segment of text.split(/&&|\|\||;|\||\n/)) {
      const words = segment.trim().split(/\s+/);
      const name = (words[0] ?? "").replace(/^.*\//, "");
      if (!FILE_COMMANDS.has(name)) continue;
      for (const word of words.slice(1)) {
        if (word.startsWith("-") || word === "" || /[<>]/.test(word)) continue;
        targets.add(normalize(word));
      }
    }
  }
  targets.delete("");
  targets.delete("/dev/null");
  return [...targets].slice(0, MAX_TARGETS);
}

/** Same target: equal, or one is the other with a directory prefix (`/repo/notes.txt` and `notes.txt`). */
export function sameTarget(a: string, b: string): boolean {
  if (a === b) return true;
  return a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}
