/**
 * A linear-time wildcard matcher: `*` matches any run of characters (including none), `?` one UTF-16 unit when
 * `question` is on, everything else literally. No RegExp, no backtracking: the pattern is split at its stars, the
 * first piece must be a prefix, the last a suffix, and each middle piece is taken at its leftmost place after the
 * previous one (leftmost is always safe because a star can absorb whatever lies between). Each piece's search
 * scans the text at most once from where the previous piece ended, so a match costs O(text × longest piece),
 * linear in the text for a given pattern, whatever the number of stars (a regex with several `.*` is cubic).
 */
export interface WildcardOptions {
  /** `?` matches exactly one character (otherwise `?` is literal) */
  question: boolean;
}

export function compileWildcardMatcher(pattern: string, options: WildcardOptions): (text: string) => boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) {
    const only = pieces[0] as string;
    if (!options.question || !only.includes("?")) return (text) => text === only;
    return (text) => text.length === only.length && pieceAt(text, 0, only, true);
  }
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== "");
  const question = options.question;
  const minLength = first.length + last.length + middle.reduce((sum, piece) => sum + piece.length, 0);
  return (text) => {
    if (text.length < minLength) return false;
    if (!pieceAt(text, 0, first, question)) return false;
    const end = text.length - last.length;
    if (!pieceAt(text, end, last, question)) return false;
    let position = first.length;
    for (const piece of middle) {
      const found = findPiece(text, piece, position, end, question);
      if (found < 0) return false;
      position = found + piece.length;
    }
    return position <= end;
  };
}

/** Whether `piece` matches `text` at `start` (`?` matches any one unit when `question` is on). */
function pieceAt(text: string, start: number, piece: string, question: boolean): boolean {
  if (start < 0 || start + piece.length > text.length) return false;
  for (let index = 0; index < piece.length; index++) {
    const want = piece.charCodeAt(index);
    if (question && want === 63) continue;
    if (text.charCodeAt(start + index) !== want) return false;
  }
  return true;
}

/** The leftmost index ≥ `from` where `piece` matches and ends by `limit`, or -1. */
function findPiece(text: string, piece: string, from: number, limit: number, question: boolean): number {
  if (!question || !piece.includes("?")) {
    const found = text.indexOf(piece, from);
    return found >= 0 && found + piece.length <= limit ? found : -1;
  }
  for (let start = from; start + piece.length <= limit; start++) {
    if (pieceAt(text, start, piece, true)) return start;
  }
  return -1;
}
