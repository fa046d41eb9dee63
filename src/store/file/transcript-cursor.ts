import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionFileName } from "./session-file-name.js";

/**
 * How far a session's Stop already read one transcript: the byte offset of the first line it has not read (always
 * just after a newline), and the line just before it (base64, its last `CURSOR_CHECK_BYTES` bytes at most), which
 * must still be there for the offset to be trusted: a transcript rewritten, truncated or replaced under the same
 * path is read whole again.
 */
export interface TranscriptCursor {
  offset: number;
  check: string;
}

/** how many bytes of the line before a cursor's offset are compared before it is used */
export const CURSOR_CHECK_BYTES = 1024;

/** One session's transcript cursors: `read` and `write` for a transcript path. Never throws. */
export interface TranscriptCursors {
  read(path: string): TranscriptCursor | undefined;
  write(path: string, cursor: TranscriptCursor): void;
}

/**
 * The cursors of one session, one small file per transcript beside the session's state file
 * (`<state name>.<hash of the path>.cursor`, 0600), written with write-temp-and-rename. Only in a state directory
 * that exists already (the local-first store made it; nothing is created where no session state is kept). A
 * cursor is only a shortcut: one that is missing, unreadable or of another path means the whole transcript is read.
 */
export function transcriptCursorFiles(options: { directory: string; sessionId: string }): TranscriptCursors {
  let base: string | undefined;
  const fileFor = (path: string) => {
    base ??= join(options.directory, sessionFileName(options.sessionId));
    return `${base}.${pathHash(path)}.cursor`;
  };
  return {
    read(path) {
      try {
        const value = JSON.parse(readFileSync(fileFor(path), "utf8")) as Partial<TranscriptCursor> & { path?: unknown };
        if (value.path !== path || !Number.isSafeInteger(value.offset) || typeof value.check !== "string")
          return undefined;
        return { offset: value.offset as number, check: value.check };
      } catch {
        return undefined;
      }
    },
    write(path, cursor) {
      const file = fileFor(path);
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, JSON.stringify({ path, offset: cursor.offset, check: cursor.check }), {
          mode: 0o600,
          flag: "wx",
        });
        renameSync(temporary, file);
      } catch {
        // no cursor: the next Stop reads the whole transcript, as it would without one
        try {
          unlinkSync(temporary);
        } catch {
          // never written
        }
      }
    },
  };
}

/** FNV-1a (32 bits) of the path's UTF-16 code units, as hex: a file name part, not a security boundary. */
function pathHash(path: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index += 1) {
    hash ^= path.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
