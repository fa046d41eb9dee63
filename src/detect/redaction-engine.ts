import { CONTEXT_SECRET_DETECTORS } from "./context-secret-detectors.js";
import { KNOWN_SECRET_DETECTORS } from "./known-secret-detectors.js";
import type { ExtraSecretPattern, KeyedHash, RedactionFindings, RedactOptions } from "./redaction-types.js";
import { replaceOccurrences } from "./replace-occurrences.js";
import { defaultSelection, MARKER_PREFIX, redactionMarker, type SecretDetector } from "./secret-detector.js";

/**
 * The text redaction engine: runs every detector over a text (built-in ones first, then the config's extension
 * patterns), replaces what they select with markers, chases other copies of the secrets it found, and repeats until
 * nothing changes (a replacement can give a neighbour the boundary it lacked). Used through `redact.ts`.
 */

const BUILT_IN: readonly SecretDetector[] = [...KNOWN_SECRET_DETECTORS, ...CONTEXT_SECRET_DETECTORS];
/** Passes over a text at most (in practice one extra pass when anything was found). */
export const MAX_ROUNDS = 4;
const HASH_SAFE = /[^A-Za-z0-9_-]/g;

function withFlags(pattern: RegExp): RegExp {
  const flags = new Set(pattern.flags);
  flags.add("g");
  flags.add("d");
  flags.delete("y");
  return flags.size === pattern.flags.length ? pattern : new RegExp(pattern.source, [...flags].join(""));
}

function extraDetector(extra: ExtraSecretPattern): SecretDetector {
  const pattern = withFlags(extra.pattern);
  const prefix = extra.prefix;
  if (prefix === undefined || prefix.length === 0) return { kind: extra.kind, pattern };
  const insensitive = pattern.flags.includes("i");
  const prefixPattern = new RegExp(prefix.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"), insensitive ? "i" : "");
  return {
    kind: extra.kind,
    pattern,
    appliesTo: insensitive ? (text) => prefixPattern.test(text) : (text) => text.includes(prefix),
  };
}

const extraCache = new WeakMap<readonly ExtraSecretPattern[], SecretDetector[]>();

function detectorsFor(options: RedactOptions | undefined): readonly SecretDetector[] {
  const patterns = options?.patterns;
  if (patterns === undefined || patterns.length === 0) return BUILT_IN;
  let cached = extraCache.get(patterns);
  if (cached === undefined) {
    cached = [...BUILT_IN, ...patterns.map(extraDetector)];
    extraCache.set(patterns, cached);
  }
  return cached;
}

/** The marker for one found secret. */
export function marker(found: { kind: string; secret: string; hash: KeyedHash | undefined }): string {
  const { kind, secret, hash } = found;
  if (hash === undefined) return redactionMarker(kind);
  return redactionMarker(kind, hash(kind, secret).replace(HASH_SAFE, "").slice(0, 16));
}

export function count(findings: RedactionFindings | undefined, kind: string): void {
  if (findings !== undefined) findings[kind] = (findings[kind] ?? 0) + 1;
}

/** Secrets found so far in one call, so that other copies of them (glued to other text) go too. */
export type KnownSecrets = Map<string, string>;
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

export function remember(known: KnownSecrets | undefined, found: { kind: string; secret: string }): void {
  const { kind, secret } = found;
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

export function replaceKnown(options: {
  text: string;
  known: KnownSecrets;
  hash: KeyedHash | undefined;
  findings: RedactionFindings | undefined;
}): string {
  let text = options.text;
  if (text.length > MAX_CHASE_TEXT) return text;
  for (const [secret, kind] of options.known) {
    const result = replaceOccurrences({
      text,
      needle: secret,
      replacement: marker({ kind, secret, hash: options.hash }),
    });
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
    output += text.slice(copiedUpTo, choice.start) + marker({ kind: choice.kind, secret, hash: options.hash });
    copiedUpTo = choice.end;
    count(options.findings, choice.kind);
    remember(options.known, { kind: choice.kind, secret });
    for (const alias of choice.aliases ?? []) remember(options.known, { kind: choice.kind, secret: alias });
  }
  pattern.lastIndex = 0;
  return copiedUpTo === 0 ? text : output + text.slice(copiedUpTo);
}

export function redactTextInto(options: {
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
