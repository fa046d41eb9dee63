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
