import { isPlaceholderValue } from "./context-secret-detectors.js";
import {
  count,
  type KnownSecrets,
  MAX_ROUNDS,
  marker,
  redactTextInto,
  remember,
  replaceKnown,
} from "./redaction-engine.js";
import type { RedactionFindings, RedactOptions } from "./redaction-types.js";
import { MARKER_PREFIX, redactionMarker } from "./secret-detector.js";
import { secretKindForName } from "./secret-key-names.js";

/**
 * The value walk behind `redactValue`: every string, object keys included, goes through the text engine; a value
 * under a key that names a secret is replaced whole; bounds on depth, size and node count replace the rest with a
 * marker instead of letting it through; copies of secrets found anywhere in the value are chased everywhere in it.
 */

export interface WalkState {
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

/** Where the walk is: how deep, and the secret kind of the key the value sits under (if that key names one). */
interface Position {
  depth: number;
  keyKind: string | undefined;
}

function redactString(text: string, state: WalkState, keyKind?: string): string {
  state.charsLeft -= text.length;
  if (state.charsLeft < 0) return tooLarge(state);
  if (keyKind !== undefined && !text.includes(MARKER_PREFIX) && !isPlaceholderValue(text.trim())) {
    // the whole value sits under a key that names a secret (`password`, `GITHUB_TOKEN`): it is the secret
    count(state.findings, keyKind);
    remember(state.known, { kind: keyKind, secret: text });
    return marker({ kind: keyKind, secret: text, hash: state.options?.hash });
  }
  return redactTextInto({ text, options: state.options, findings: state.findings, known: state.known });
}

/** Sets an own property, even one named `__proto__` (JSON.parse creates those; plain assignment would not). */
function setEntry(output: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(output, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `key`, or `key#2`, `key#3`, ... when redaction made two keys equal */
function uniqueKey(output: Record<string, unknown>, key: string): string {
  let unique = key;
  for (let suffix = 2; Object.hasOwn(output, unique); suffix += 1) unique = `${key}#${suffix}`;
  return unique;
}

function walk(value: unknown, state: WalkState, at: Position): unknown {
  if (typeof value === "string") return redactString(value, state, at.keyKind);
  if (value === null || typeof value !== "object") return value;
  if (at.depth >= state.maxDepth) {
    count(state.findings, "too-deep");
    return redactionMarker("too-deep");
  }
  if (state.seen.has(value)) return "[Circular]";
  const jsonable = value as { toJSON?: () => unknown };
  if (typeof jsonable.toJSON === "function") return walk(jsonable.toJSON(), state, at);
  state.seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => {
        state.nodesLeft -= 1;
        return state.nodesLeft < 0 ? tooLarge(state) : walk(item, state, { depth: at.depth + 1, keyKind: at.keyKind });
      });
    }
    const output: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      state.nodesLeft -= 1;
      const newKey = uniqueKey(output, redactString(key, state));
      const keyKind = key.includes(MARKER_PREFIX) ? undefined : secretKindForName(key);
      setEntry(
        output,
        newKey,
        state.nodesLeft < 0 ? tooLarge(state) : walk(item, state, { depth: at.depth + 1, keyKind }),
      );
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
    const replaced = replace(key);
    setEntry(output, replaced === key ? key : uniqueKey(output, replaced), replaceKnownInValue(item, state));
  }
  return output;
}

/** Redact a value with a fresh `walkState`; chases copies of found secrets until no new secret turns up. */
export function redactWalk(value: unknown, state: WalkState): unknown {
  let redacted = walk(value, state, { depth: 0, keyKind: undefined });
  for (let round = 0; round < MAX_ROUNDS && state.known.size > 0; round += 1) {
    const knownBefore = state.known.size;
    redacted = replaceKnownInValue(redacted, state);
    if (state.known.size === knownBefore) break;
  }
  return redacted;
}

/** The bounds and bookkeeping of one `redactValue` call. */
export function walkState(options: RedactOptions | undefined, findings: RedactionFindings | undefined): WalkState {
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
