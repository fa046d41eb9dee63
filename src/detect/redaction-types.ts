/** Types shared by the redaction engine, the value walk and their callers. */

/** A keyed hash port: `(kind, secret) -> short stable id`. Implemented at the edge with an HMAC; never a plain hash. */
export type KeyedHash = (kind: string, secret: string) => string;

/** An extension detector compiled from config (see `compileRedactionPatterns`). */
export interface ExtraSecretPattern {
  kind: string;
  /** a pattern accepted by `checkPatternSafety`; the `secret` named group, when present, is what gets redacted */
  pattern: RegExp;
  /** the fixed text every match starts with; the pattern only runs on texts that contain it */
  prefix?: string;
}

export interface RedactOptions {
  /** extra detectors from config, run after the built-in ones */
  patterns?: readonly ExtraSecretPattern[];
  /** keyed stable suffix for markers */
  hash?: KeyedHash;
  /** how deep `redactValue` descends; deeper values become `[REDACTED:too-deep]` (32) */
  maxDepth?: number;
  /** characters `redactValue` scans in total; strings past it become `[REDACTED:too-large]` (4 MiB) */
  maxTotalChars?: number;
  /** values (object entries, array items) `redactValue` visits; the rest become `[REDACTED:too-large]` (100000) */
  maxNodes?: number;
}

/** Number of redactions per kind. */
export type RedactionFindings = Record<string, number>;
