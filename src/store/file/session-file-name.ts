/**
 * The file name (without extension) for a session's state and lock files. Session ids come from the host and are
 * untrusted: path separators, `..`, NUL, odd bytes, 10 MB strings, names that differ only in case (one file on
 * macOS and Windows). A short, lowercase, plain id is used as it is (`s-<id>`, readable when debugging); anything
 * else becomes `h-` plus the first 40 hex digits of its SHA-256. The prefixes keep the two forms apart, so no plain
 * id can name a hashed one's file. `node:crypto` is loaded only for ids that need hashing (the hook's hot path
 * with Claude Code's lowercase UUIDs never loads it).
 */
const PLAIN = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export function sessionFileName(sessionId: string): string {
  if (PLAIN.test(sessionId)) return `s-${sessionId}`;
  const { createHash } = process.getBuiltinModule("node:crypto");
  return `h-${createHash("sha256").update(sessionId, "utf8").digest("hex").slice(0, 40)}`;
}
