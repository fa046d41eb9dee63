import type { CallFacts, CorePorts } from "../core/config.js";
import { callSignature } from "../core/signature.js";
import type { RedactOptions } from "../detect/redact.js";
import { createRedactor } from "../detect/redact.js";
import { redactWalk, walkState } from "../detect/redaction-walk.js";
import { summarizeInput } from "../detect/summarize-input.js";
import { commandPattern } from "../policy/command-pattern.js";
import { minimumGrantScope } from "../policy/grants/minimum-grant-scope.js";
import { suggestRule } from "../policy/grants/suggest-rule.js";
import { analyzeShellCommand, type ShellAnalysis } from "../policy/shell/analyze-shell-command.js";
import { canonicalToolName, commandOf, toolFamily } from "../policy/tool-families.js";

/** The core's ports plus the one shell analysis per call they share. */
export interface CallPorts extends CorePorts {
  /**
   * The analysis of a shell call's command, computed once per input object and shared by the pattern, the policy's
   * evaluation and the suggested rule (undefined for other tools). Kept in a WeakMap owned by this guard, so it
   * lives exactly as long as the call's input.
   */
  shellOf(tool: string, input: unknown): ShellAnalysis | undefined;
}

/** calls described are kept by tool and input JSON up to this many, each input up to this JSON length */
const MAX_DESCRIBED = 256;
const MAX_DESCRIBED_JSON = 16_000;

/**
 * Where the walk of `redactValue([input, ...])` stands after the input, for an input in which it found no secret:
 * the redacted input and the budgets it left. A value of that input and texts is then redacted by walking only the
 * texts from there (what the core does with a denied call's input and its reason), which gives exactly the full
 * walk's result: with no secret known after the input, nothing found in it is chased into the texts, and they start
 * with the budgets the input left (a text that finds a secret takes the full walk).
 */
interface AfterInput {
  redactedInput: unknown;
  charsLeft: number;
  nodesLeft: number;
  /** the texts redacted after it (found no secret), by their JSON (the same denial text again), bounded */
  texts?: Map<string, string[]>;
}
/** texts kept per input, each set up to this length */
const MAX_TEXTS = 16;
const MAX_TEXTS_LENGTH = 4000;

/**
 * The real pure functions behind the core's ports: redaction and summaries from detect/, escalation patterns,
 * grant scopes and suggested rules from policy/. The signature is computed from the *redacted* input, so no
 * signature is a plain hash of a secret.
 *
 * Pure results are reused, never recomputed differently: a call's facts by its tool and input JSON (a session's
 * first Stop records every denial its transcript shows, mostly the same call again: equal JSON means an equal value
 * to every pure function of it, as in analyze's memoize-ports), and the input's redaction when the core redacts it
 * again with the denial's reason (`AfterInput`).
 */
export function defaultPorts(options: { redaction?: RedactOptions } = {}): CallPorts {
  const redactor = createRedactor(options.redaction);
  const described = new Map<string, { facts: CallFacts; after?: AfterInput }>();
  const afterInputs = new WeakMap<object, AfterInput>();
  const analyses = new WeakMap<object, ShellAnalysis>();
  const shellOf = (tool: string, input: unknown): ShellAnalysis | undefined => {
    if (toolFamily(canonicalToolName(tool)) !== "shell") return undefined;
    if (typeof input !== "object" || input === null) return analyzeShellCommand(commandOf(input) ?? "");
    let analysis = analyses.get(input);
    if (analysis === undefined) {
      analysis = analyzeShellCommand(commandOf(input) ?? "");
      analyses.set(input, analysis);
    }
    return analysis;
  };
  /** `redactValue([input, ...texts])`; where the walk stood after the input is kept when it found no secret there */
  const redactWithInput = (input: unknown, texts: readonly string[]): unknown[] => {
    const state = walkState(options.redaction, undefined);
    const [redactedInput] = redactWalk([input], state) as [unknown];
    if (state.known.size > 0) return redactor.redactValue([input, ...texts]) as unknown[];
    const after = { redactedInput, charsLeft: state.charsLeft, nodesLeft: state.nodesLeft };
    if (typeof input === "object" && input !== null) afterInputs.set(input, after);
    return afterInput(input, after, texts);
  };
  /** `redactValue([input, ...texts])` from where the input's walk stood (the texts' redactions kept, bounded) */
  const afterInput = (input: unknown, after: AfterInput, texts: readonly string[]): unknown[] => {
    const key = JSON.stringify(texts);
    let redacted = after.texts?.get(key);
    if (redacted === undefined) {
      const state = walkState(options.redaction, undefined);
      state.charsLeft = after.charsLeft;
      state.nodesLeft = after.nodesLeft;
      redacted = redactWalk(texts, state) as string[];
      // a secret found in a text is chased into the input too, which may find more there: the full walk decides
      if (state.known.size > 0) return redactor.redactValue([input, ...texts]) as unknown[];
      if (key.length <= MAX_TEXTS_LENGTH) {
        after.texts ??= new Map();
        if (after.texts.size >= MAX_TEXTS) after.texts.clear();
        after.texts.set(key, redacted);
      }
    }
    return [after.redactedInput, ...redacted];
  };
  return {
    describeCall(tool, input) {
      const key = describedKey(tool, input);
      const known = key === undefined ? undefined : described.get(key);
      if (known !== undefined) {
        if (known.after !== undefined && typeof input === "object" && input !== null) {
          afterInputs.set(input, known.after);
        }
        return known.facts;
      }
      // one walk over the input and the pattern derived from it, so a secret found in the input also goes from the
      // pattern when the pattern quotes it in a form no detector recognises (a normalised path)
      const [redactedInput, pattern] = redactWithInput(input, [
        commandPattern(tool, input, { shell: shellOf(tool, input) }),
      ]) as [unknown, string];
      const facts = {
        signature: callSignature(tool, redactedInput),
        pattern,
        summary: summarizeInput(tool, redactedInput, options.redaction),
        redactedInput,
      };
      if (key !== undefined) {
        if (described.size >= MAX_DESCRIBED) described.clear();
        const after = typeof input === "object" && input !== null ? afterInputs.get(input) : undefined;
        described.set(key, after === undefined ? { facts } : { facts, after });
      }
      return facts;
    },
    redactValue(value) {
      // the core redacts a described call's input again with its reason, rule and path: only those are walked
      const input: unknown = Array.isArray(value) ? value[0] : undefined;
      const after = input !== null && typeof input === "object" ? afterInputs.get(input) : undefined;
      if (after === undefined) return redactor.redactValue(value);
      const texts = (value as unknown[]).slice(1);
      if (!texts.every((text) => typeof text === "string")) return redactor.redactValue(value);
      return afterInput(input, after, texts as string[]);
    },
    redactText: redactor.redactText,
    grantScope: (request) => minimumGrantScope(request),
    suggestRule: (tool, input) =>
      (
        redactor.redactValue([input, suggestRule(tool, input, { shell: shellOf(tool, input) })]) as [unknown, string]
      )[1],
    shellOf,
  };
}

/** A described call's key: its tool and input JSON; undefined for an input without one (circular, a BigInt) or a long one. */
function describedKey(tool: string, input: unknown): string | undefined {
  // a long input (a Write's content) is not serialised only to find it too long
  if (charsWithin(input, MAX_DESCRIBED_JSON, 0) < 0) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return undefined;
  }
  return json === undefined || json.length > MAX_DESCRIBED_JSON ? undefined : `${tool}\u0000${json}`;
}

/** `budget` less the characters of the strings and keys in `value`; below 0 once they exceed it (or it nests too deep). */
function charsWithin(value: unknown, budget: number, depth: number): number {
  if (typeof value === "string") return budget - value.length;
  if (value === null || typeof value !== "object") return budget;
  if (depth > 32) return -1;
  let left = budget;
  if (Array.isArray(value)) {
    for (const item of value) {
      left = charsWithin(item, left, depth + 1);
      if (left < 0) return left;
    }
    return left;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    left = charsWithin((value as Record<string, unknown>)[key], left - key.length, depth + 1);
    if (left < 0) return left;
  }
  return left;
}
