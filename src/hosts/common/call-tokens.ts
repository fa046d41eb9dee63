import type { CallTokens } from "../../core/events.js";
import type { GuardSession } from "../../guard/types.js";
import type { ReaderSource, TranscriptFormat } from "./reader-event.js";

/**
 * Wasted tokens from a live hook (core/call-tokens.ts): at a turn's or the session's end, while a wasted call of the
 * session waits for its tokens, the host's transcript is read with the host's own `toolgate analyze` reader and the
 * tokens of each call (its model request's usage, counted once per request as `analyze` counts them) go with the
 * event. A transcript without usage names nothing (the figure stays unknown).
 */

/**
 * Tokens per call id in a transcript's text, read with the host's transcript reader; undefined when no request has
 * usage. `only`: the ids wanted, for a format whose call lines carry their request's usage (Claude Code, Gemini CLI,
 * Qwen Code): only the lines naming one are read (a request's tokens then go to the first wanted call it made).
 */
export async function callTokensIn(
  format: TranscriptFormat,
  text: string,
  options: { only?: readonly string[] } = {},
): Promise<CallTokens | undefined> {
  const tokens: Record<string, number> = {};
  let named = false;
  const { only } = options;
  const source: ReaderSource = {
    async *lines(keep, keepBytes) {
      for (const line of text.split("\n")) {
        if (line === "" || (only !== undefined && !only.some((id) => line.includes(id)))) continue;
        if (keepBytes !== undefined && !keepBytes(Buffer.from(line))) continue;
        if (keep !== undefined && !keep(line)) continue;
        yield line;
      }
    },
    file: "",
    skip() {},
    fallbackAt: 0,
    fallbackSessionId: "",
  };
  for await (const fact of format.read(source)) {
    if (fact.type !== "call" || fact.tokens === undefined) continue;
    // a reader gives 0 to a call whose request has no usage, and to the further calls of a request
    if (fact.tokens > 0) named = true;
    tokens[fact.id] = (tokens[fact.id] ?? 0) + fact.tokens;
  }
  return named ? tokens : undefined;
}

/**
 * `{ callTokens }` for `turnEnded` or `end`: read (`read`, given the waiting call ids) only while a wasted call of the
 * session waits for its tokens, so a session without one never reads its transcript for them.
 */
export async function wantedCallTokens(
  session: GuardSession,
  read: ((pending: readonly string[]) => Promise<CallTokens | undefined>) | undefined,
): Promise<{ callTokens?: CallTokens }> {
  if (read === undefined) return {};
  const pending = (await session.state()).tokens?.pending ?? [];
  if (pending.length === 0) return {};
  const callTokens = await read(pending);
  return callTokens === undefined ? {} : { callTokens };
}
