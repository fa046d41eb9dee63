import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TranscriptCursor, TranscriptCursors } from "../hosts/common/transcript-cursor.js";
import { sessionFileName } from "../store/file/session-file-name.js";

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
