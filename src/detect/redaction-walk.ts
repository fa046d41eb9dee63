import { isPlaceholderValue } from "./context-secret-detectors.js";
import { count, type KnownSecrets, marker, redactTextInto, remember, replaceKnown } from "./redaction-engine.js";
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

export function redactWalk(value: unknown, state: WalkState): unknown {
  let redacted = walk(value, 0, state, undefined);
  for (let round = 0; round < MAX_ROUNDS && state.known.size > 0; round += 1) {
    const knownBefore = state.known.size;
    redacted = replaceKnownInValue(redacted, state);
    if (state.known.size === knownBefore) break;
  }
  return redacted;
}

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
