import type { CallTokens } from "./events.js";
import type { PatternCounters } from "./state.js";
import type { StepContext } from "./step-context.js";

/**
 * Wasted tokens from a live hook (core/figures.ts: the tokens of the model requests that produced the wasted calls).
 * A wasted call, as a store counts it from denials, is every denial of a pattern (agent, tool, pattern) after its
 * first: its call id waits here until the host names the tokens of the request that produced it (a turn's end or
 * the session's end, read from the host's transcript), then its tokens are added. `session.summary` carries the sum
 * once a host has named any tokens; a host that never does leaves the figure unknown (null), never 0.
 */

/** call ids of wasted calls waiting for their tokens (older ones are dropped: their tokens stay uncounted) */
export const MAX_PENDING_TOKEN_CALLS = 256;

/** after a denial was counted: a denial of a pattern denied before is a wasted call whose tokens are wanted */
export function noteWastedCall(context: StepContext, options: { pattern: PatternCounters; toolUseId: string }): void {
  if (options.pattern.total < 2) return;
  const limit = context.config.pendingTokenCalls ?? MAX_PENDING_TOKEN_CALLS;
  if (limit <= 0) return;
  const { state } = context;
  const tokens = state.tokens ?? { wasted: 0, named: false, pending: [] };
  const pending = tokens.pending.length >= limit ? tokens.pending.slice(1) : tokens.pending.slice();
  pending.push(options.toolUseId);
  state.tokens = { ...tokens, pending };
}

/**
 * The host read the tokens of the calls its transcript shows (the whole transcript, at a turn's or the session's
 * end): the waiting wasted calls among them are counted; one it does not show never will be, so none waits any
 * longer, also when the transcript names no tokens at all (an id no transcript holds, such as one a host's hook
 * made up, would otherwise send every later turn's end searching for it). The figure becomes known (`named`) only
 * once a transcript names some tokens: one without usage leaves it unknown, never 0. `part`: the file shows only
 * some of the session's calls (a subagent's own transcript, at its stop), so only the waiting calls it names stop
 * waiting; the others wait for the session's transcript. Undefined: the transcript could not be read; all wait.
 */
export function addCallTokens(
  context: StepContext,
  callTokens: CallTokens | undefined,
  options: { part?: boolean } = {},
): void {
  if (callTokens === undefined) return;
  const { state } = context;
  const tokens = state.tokens ?? { wasted: 0, named: false, pending: [] };
  let wasted = tokens.wasted;
  const pending: string[] = [];
  for (const id of tokens.pending) {
    const value = Object.hasOwn(callTokens, id) ? callTokens[id] : undefined;
    if (value === undefined && options.part === true) pending.push(id);
    if (isTokenCount(value)) wasted += value;
  }
  const named = tokens.named || Object.values(callTokens).some(isTokenCount);
  state.tokens = { wasted, named, pending };
}

function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** the session's wasted tokens for its summary; undefined while no host named any tokens */
export function wastedTokensOf(context: StepContext): number | undefined {
  const tokens = context.state.tokens;
  return tokens?.named === true ? tokens.wasted : undefined;
}
