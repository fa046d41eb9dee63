/**
 * The narrowest opencode.json permission entry that would allow a call, in opencode's own syntax (the core's
 * default suggestion is Claude Code syntax, which opencode does not read). `write`, `edit`, `patch` and
 * `multiedit` share the `edit` permission.
 */
const EDIT_TOOLS = new Set(["write", "edit", "patch", "multiedit"]);
const SUBJECT_KEYS = ["command", "filePath", "path", "url", "pattern"];

export function suggestOpencodeRule(tool: string, input: unknown): string {
  const permission = EDIT_TOOLS.has(tool) ? "edit" : tool;
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const subject = SUBJECT_KEYS.map((key) => fields[key]).find((value): value is string => typeof value === "string");
  const entry = subject === undefined ? `"allow"` : `{ ${JSON.stringify(subject)}: "allow" }`;
  return `opencode.json "permission": { ${JSON.stringify(permission)}: ${entry} }`;
}
