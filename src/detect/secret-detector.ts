/**
 * The shape of one secret detector. Every detector's pattern must run in linear time on any input: each starts with
 * a literal or a boundary that a previous scan cannot re-enter, and every quantifier is bounded or cannot overlap
 * with what follows it. `redact.test.ts` proves it on adversarial 1 MB inputs.
 */

/** A part of the text to replace with `[REDACTED:<kind>]` (offsets into the scanned text). */
export interface SecretSelection {
  start: number;
  end: number;
  kind: string;
  /** where scanning continues (default: the end of the match) */
  resumeAt?: number;
  /** other spellings of the same secret (a percent-encoded password decoded) whose copies go too */
  aliases?: string[];
}

/** Not a secret: continue scanning at this offset (must be greater than the match start). */
export interface SecretSkip {
  resumeAt: number;
}

export interface SecretDetector {
  /** the default kind (`github-token`); `select` may pick another one per match */
  kind: string;
  /** flags must include `g` and `d` (match indices) */
  pattern: RegExp;
  /** a cheap test on the whole text; when false the pattern is not run at all */
  appliesTo?: (text: string) => boolean;
  /** what to redact in a match; default: the named group `secret` when present, else the whole match */
  select?: (match: RegExpExecArray) => SecretSelection | SecretSkip;
}

/** The default selection: the `secret` group when it matched, else the whole match. */
export function defaultSelection(match: RegExpExecArray, kind: string): SecretSelection {
  const group = match.indices?.groups?.["secret"];
  if (group !== undefined) return { start: group[0], end: group[1], kind };
  return { start: match.index, end: match.index + match[0].length, kind };
}

/** The marker that replaces a secret. `hash` is the optional keyed stable suffix. */
export function redactionMarker(kind: string, hash?: string): string {
  return hash === undefined || hash.length === 0 ? `[REDACTED:${kind}]` : `[REDACTED:${kind}#${hash}]`;
}

/** Text that already holds a redaction marker is never redacted again (this keeps redaction idempotent). */
export const MARKER_PREFIX = "[REDACTED:";
