import { CONTEXT_SECRET_DETECTORS, isPlaceholderValue } from "./context-secret-detectors.js";
import { KNOWN_SECRET_DETECTORS } from "./known-secret-detectors.js";
import { replaceOccurrences } from "./replace-occurrences.js";
import { defaultSelection, MARKER_PREFIX, redactionMarker, type SecretDetector } from "./secret-detector.js";
import { secretKindForName } from "./secret-key-names.js";

/**
 * Secret redaction: the one funnel every record, log line, hook payload and summary goes through. Secrets become
 * `[REDACTED:<kind>]` (or `[REDACTED:<kind>#<keyed hash>]` when a keyed hash port is given, so repeated denials of
 * the same secret-bearing call still group). Pure, linear-time, idempotent: `redactText(redactText(x))` equals
 * `redactText(x)`.
 */

/** A keyed hash port: `(kind, secret) -> short stable id`. Implemented at the edge with an HMAC; never a plain hash. */
export type KeyedHash = (kind: string, secret: string) => string;

/** An extension detector compiled from config (see `compileRedactionPatterns`). */
export interface ExtraSecretPattern {
  kind: string;
  /** a pattern accepted by `checkPatternSafety`; the `secret` named group, when present, is what gets redacted */
  pattern: RegExp;
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

const BUILT_IN: readonly SecretDetector[] = [...KNOWN_SECRET_DETECTORS, ...CONTEXT_SECRET_DETECTORS];
const MAX_ROUNDS = 4;
const HASH_SAFE = /[^A-Za-z0-9_-]/g;

function withFlags(pattern: RegExp): RegExp {
  const flags = new Set(pattern.flags);
  flags.add("g");
  flags.add("d");
  flags.delete("y");
  return flags.size === pattern.flags.length ? pattern : new RegExp(pattern.source, [...flags].join(""));
}

const extraCache = new WeakMap<readonly ExtraSecretPattern[], SecretDetector[]>();

function detectorsFor(options: RedactOptions | undefined): readonly SecretDetector[] {
  const patterns = options?.patterns;
  if (patterns === undefined || patterns.length === 0) return BUILT_IN;
  let cached = extraCache.get(patterns);
  if (cached === undefined) {
    cached = [...BUILT_IN, ...patterns.map((extra) => ({ kind: extra.kind, pattern: withFlags(extra.pattern) }))];
    extraCache.set(patterns, cached);
  }
  return cached;
}

function marker(kind: string, secret: string, hash: KeyedHash | undefined): string {
  if (hash === undefined) return redactionMarker(kind);
  return redactionMarker(kind, hash(kind, secret).replace(HASH_SAFE, "").slice(0, 16));
}

function count(findings: RedactionFindings | undefined, kind: string): void {
  if (findings !== undefined) findings[kind] = (findings[kind] ?? 0) + 1;
}

/** Secrets found so far in one call, so that other copies of them (glued to other text) go too. */
type KnownSecrets = Map<string, string>;
/** Copies shorter than this are not chased (a short password may be an ordinary word elsewhere). */
const MIN_KNOWN_LENGTH = 6;
const MAX_KNOWN = 64;
/** Long secrets (PEM blocks) are distinctive where they occur; only shorter ones are chased. */
const MAX_KNOWN_LENGTH = 1024;
/**
 * Copies are chased in texts up to this size (tool inputs, reasons, one transcript line). Chasing costs one linear
 * scan per known secret, so in one multi-megabyte text it would dominate; there only the detectors run.
 */
const MAX_CHASE_TEXT = 1024 * 1024;

function remember(known: KnownSecrets | undefined, kind: string, secret: string): void {
  if (
    known !== undefined &&
    secret.length >= MIN_KNOWN_LENGTH &&
    secret.length <= MAX_KNOWN_LENGTH &&
    known.size < MAX_KNOWN &&
    !known.has(secret)
  ) {
    known.set(secret, kind);
  }
}

function replaceKnown(options: {
  text: string;
  known: KnownSecrets;
  hash: KeyedHash | undefined;
  findings: RedactionFindings | undefined;
}): string {
  let text = options.text;
  if (text.length > MAX_CHASE_TEXT) return text;
  for (const [secret, kind] of options.known) {
    const result = replaceOccurrences(text, secret, marker(kind, secret, options.hash));
    for (let i = 0; i < result.count; i += 1) count(options.findings, kind);
    text = result.text;
  }
  return text;
}

function runDetector(options: {
  text: string;
  detector: SecretDetector;
  hash: KeyedHash | undefined;
  findings: RedactionFindings | undefined;
  known: KnownSecrets | undefined;
}): string {
  const { text, detector } = options;
  if (detector.appliesTo !== undefined && !detector.appliesTo(text)) return text;
  const pattern = detector.pattern;
  pattern.lastIndex = 0;
  let output = "";
  let copiedUpTo = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const matchEnd = match.index + match[0].length;
    const choice = detector.select === undefined ? defaultSelection(match, detector.kind) : detector.select(match);
    if (!("start" in choice)) {
      pattern.lastIndex = Math.max(choice.resumeAt, match.index + 1);
      continue;
    }
    pattern.lastIndex = Math.max(choice.resumeAt ?? matchEnd, match.index + 1);
    const secret = text.slice(choice.start, choice.end);
    if (secret.length === 0 || secret.includes(MARKER_PREFIX) || choice.start < copiedUpTo) continue;
    output += text.slice(copiedUpTo, choice.start) + marker(choice.kind, secret, options.hash);
    copiedUpTo = choice.end;
    count(options.findings, choice.kind);
    remember(options.known, choice.kind, secret);
  }
  pattern.lastIndex = 0;
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}

function redactTextInto(options: {
  text: string;
  options: RedactOptions | undefined;
  findings?: RedactionFindings | undefined;
  known?: KnownSecrets | undefined;
}): string {
  const detectors = detectorsFor(options.options);
  const hash = options.options?.hash;
  const known: KnownSecrets = options.known ?? new Map();
  let current = options.text;
  // Replacing a secret can give its neighbours a boundary they lacked, so run to a fixed point (in practice one
  // extra round when anything was found).
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const before = current;
    for (const detector of detectors) {
      current = runDetector({ text: current, detector, hash, findings: options.findings, known });
    }
    // the secrets found so far may also sit, glued to other text, where no detector saw them
    if (known.size > 0) current = replaceKnown({ text: current, known, hash, findings: options.findings });
    if (current === before) break;
  }
  return current;
}

/** Redact every secret in a text. */
export function redactText(text: string, options?: RedactOptions): string {
  return redactTextInto({ text, options });
}

interface WalkState {
  options: RedactOptions | undefined;
  findings: RedactionFindings | undefined;
  seen: WeakSet<object>;
  known: KnownSecrets;
  charsLeft: number;
  nodesLeft: number;
  maxDepth: number;
}

function tooLarge(state: WalkState): string {
  count(state.findings, "too-large");
  return redactionMarker("too-large");
}

function redactString(text: string, state: WalkState, keyKind: string | undefined): string {
  state.charsLeft -= text.length;
  if (state.charsLeft < 0) return tooLarge(state);
  if (keyKind !== undefined && !text.includes(MARKER_PREFIX) && !isPlaceholderValue(text.trim())) {
    // the whole value sits under a key that names a secret (`password`, `GITHUB_TOKEN`): it is the secret
    count(state.findings, keyKind);
    remember(state.known, keyKind, text);
    return marker(keyKind, text, state.options?.hash);
  }
  return redactTextInto({ text, options: state.options, findings: state.findings, known: state.known });
}

function walk(value: unknown, depth: number, state: WalkState, keyKind: string | undefined): unknown {
  if (typeof value === "string") return redactString(value, state, keyKind);
  if (value === null || typeof value !== "object") return value;
  if (depth >= state.maxDepth) {
    count(state.findings, "too-deep");
    return redactionMarker("too-deep");
  }
  if (state.seen.has(value)) return "[Circular]";
  const jsonable = value as { toJSON?: () => unknown };
  if (typeof jsonable.toJSON === "function") return walk(jsonable.toJSON(), depth, state, keyKind);
  state.seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => {
        state.nodesLeft -= 1;
        return state.nodesLeft < 0 ? tooLarge(state) : walk(item, depth + 1, state, keyKind);
      });
    }
    const output: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      state.nodesLeft -= 1;
      let newKey = redactString(key, state, undefined);
      for (let suffix = 2; Object.hasOwn(output, newKey); suffix += 1) newKey = `${newKey}#${suffix}`;
      const keyKind = key.includes(MARKER_PREFIX) ? undefined : secretKindForName(key);
      output[newKey] = state.nodesLeft < 0 ? tooLarge(state) : walk(item, depth + 1, state, keyKind);
    }
    return output;
  } finally {
    state.seen.delete(value);
  }
}

/** Replace copies of secrets found anywhere in a value in every string of the (already redacted) value. */
function replaceKnownInValue(value: unknown, state: WalkState): unknown {
  const replace = (text: string): string => {
    const replaced = replaceKnown({ text, known: state.known, hash: state.options?.hash, findings: state.findings });
    return replaced === text
      ? text
      : redactTextInto({ text: replaced, options: state.options, findings: state.findings, known: state.known });
  };
  if (typeof value === "string") return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceKnownInValue(item, state));
  if (value === null || typeof value !== "object") return value;
  const output: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    let newKey = replace(key);
    for (let suffix = 2; newKey !== key && Object.hasOwn(output, newKey); suffix += 1)
      newKey = `${replace(key)}#${suffix}`;
    output[newKey] = replaceKnownInValue(item, state);
  }
  return output;
}

function redactWalk(value: unknown, state: WalkState): unknown {
  let redacted = walk(value, 0, state, undefined);
  for (let round = 0; round < MAX_ROUNDS && state.known.size > 0; round += 1) {
    const knownBefore = state.known.size;
    redacted = replaceKnownInValue(redacted, state);
    if (state.known.size === knownBefore) break;
  }
  return redacted;
}

function walkState(options: RedactOptions | undefined, findings: RedactionFindings | undefined): WalkState {
  return {
    options,
    findings,
    seen: new WeakSet(),
    known: new Map(),
    charsLeft: options?.maxTotalChars ?? 4 * 1024 * 1024,
    nodesLeft: options?.maxNodes ?? 100_000,
    maxDepth: options?.maxDepth ?? 32,
  };
}

/**
 * Redact every string inside a value (object keys included). Values under a key that names a secret (`password`,
 * `GITHUB_TOKEN`, `Authorization`) are redacted whole. Keeps the JSON shape: objects stay objects, arrays stay arrays,
 * numbers and booleans are kept. Past the depth, size or node bound, values are replaced by a marker, never let through.
 */
export function redactValue(value: unknown, options?: RedactOptions): unknown {
  return redactWalk(value, walkState(options, undefined));
}

/** Redact a text or a value and report how many secrets of each kind were replaced. */
export function redactWithFindings<T>(
  value: T,
  options?: RedactOptions,
): { redacted: T extends string ? string : unknown; findings: RedactionFindings; total: number } {
  const findings: RedactionFindings = {};
  const redacted =
    typeof value === "string"
      ? redactTextInto({ text: value, options, findings })
      : redactWalk(value, walkState(options, findings));
  const total = Object.values(findings).reduce((sum, amount) => sum + amount, 0);
  return { redacted: redacted as T extends string ? string : unknown, findings, total };
}

/** A redactor bound to one set of options (what the guard passes to the core as ports). */
export function createRedactor(options?: RedactOptions): {
  redactText: (text: string) => string;
  redactValue: (value: unknown) => unknown;
} {
  return {
    redactText: (text) => redactTextInto({ text, options }),
    redactValue: (value) => redactWalk(value, walkState(options, undefined)),
  };
}
