import { StringDecoder } from "node:string_decoder";

/** a stream line longer than this (characters) is skipped, not parsed: the watcher's memory stays bounded */
export const MAX_LINE_LENGTH = 16 * 1024 * 1024;

/**
 * Splits a byte stream into lines in linear time: each chunk is decoded once (multi-byte characters split across
 * chunks stay whole), searched once for newlines, and a partial line is kept as a list of pieces joined only when
 * its newline arrives (re-splitting the whole pending text on every chunk was quadratic: a 48 MB line took 13 s).
 * A line longer than `maxLineLength` is dropped and counted in `skipped`.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder("utf8");
  private pieces: string[] = [];
  private pendingLength = 0;
  private overlong = false;
  skipped = 0;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineLength: number = MAX_LINE_LENGTH,
  ) {}

  push(chunk: Buffer): void {
    this.take(this.decoder.write(chunk));
  }

  /** Flushes the last line when the stream ends without a newline. */
  end(): void {
    this.take(this.decoder.end());
    if (this.pendingLength > 0 || this.overlong) this.finishLine();
  }

  private take(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      this.append(text.slice(start, newline));
      this.finishLine();
      start = newline + 1;
    }
    if (start < text.length) this.append(text.slice(start));
  }

  private append(piece: string): void {
    if (this.overlong || piece === "") return;
    this.pendingLength += piece.length;
    if (this.pendingLength > this.maxLineLength) {
      this.overlong = true;
      this.pieces = [];
      return;
    }
    this.pieces.push(piece);
  }

  private finishLine(): void {
    if (this.overlong) this.skipped += 1;
    else this.onLine(this.pieces.join(""));
    this.pieces = [];
    this.pendingLength = 0;
    this.overlong = false;
  }
}
