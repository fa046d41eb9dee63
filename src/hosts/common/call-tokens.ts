import type { CallTokens } from "../../core/events.js";
import type { GuardSession } from "../../guard/types.js";
import { type HookContext, TranscriptChangedError, type TranscriptLines } from "./hook-host.js";
import type { ReaderSource, TranscriptFormat } from "./reader-event.js";

/**
 * Wasted tokens from a live hook (core/call-tokens.ts): at a turn's or the session's end, while a wasted call of the
 * session waits for its tokens, the host's transcript is read with the host's own `toolgate analyze` reader and the
 * tokens of each call (its model request's usage, counted once per request as `analyze` counts them) go with the
 * event. A transcript without usage names nothing (the figure stays unknown).
 */

/**
 * Tokens per call id in a transcript's text, or its lines (`TranscriptLines.eachLine`: a line the reader skips by
 * its bytes is never decoded), read with the host's transcript reader. A transcript without usage gives no positive
 * count (the core then leaves the figure unknown, and the waiting calls wait no longer). `only`: the ids wanted, for
 * a format whose call lines carry their request's usage (the hosts that pass it): only the lines naming one are read
 * (a request's tokens then go to the first wanted call it made).
 */
export function callTokensIn(
  format: TranscriptFormat,
  text: string | TranscriptLines,
  options: { only?: readonly string[] } = {},
): CallTokens {
  const tokens: Record<string, number> = {};
  const { only } = options;
  // a transcript's lines (not its text): every line, each decoded only when the reader keeps its bytes
  const lines =
    typeof text !== "string"
      ? (keepBytes?: (bytes: Buffer) => boolean) => naming(text.eachLine(keepBytes), only)
      : only === undefined
        ? (keepBytes?: (bytes: Buffer) => boolean) => kept(text.split("\n"), keepBytes)
        : (keepBytes?: (bytes: Buffer) => boolean) => kept(linesNaming(text, only), keepBytes);
  const source: ReaderSource = {
    *lines(keep, keepBytes) {
      for (const line of lines(keepBytes)) if (keep === undefined || keep(line)) yield line;
    },
    file: "",
    skip() {},
    fallbackAt: 0,
    fallbackSessionId: "",
  };
  for (const fact of format.read(source)) {
    if (fact.type !== "call" || fact.tokens === undefined) continue;
    // a reader gives 0 to a call whose request has no usage, and to the further calls of a request
    tokens[fact.id] = (tokens[fact.id] ?? 0) + fact.tokens;
  }
  return tokens;
}

function* naming(lines: Iterable<string>, only: readonly string[] | undefined): Generator<string> {
  const wanted = only?.filter((id) => id !== "");
  for (const line of lines) if (wanted === undefined || wanted.some((id) => line.includes(id))) yield line;
}

function* kept(lines: readonly string[], keepBytes: ((bytes: Buffer) => boolean) | undefined): Generator<string> {
  for (const line of lines) if (line !== "" && (keepBytes === undefined || keepBytes(Buffer.from(line)))) yield line;
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

/**
 * The transcript's lines that name one of `ids`, as one text (what `callTokensIn` reads with `only`): its bytes are
 * searched and only those lines decoded, so a first turn end on a 2 MB transcript does not decode it all again after
 * its reconcile did. Without `openTranscript`, the whole text. Undefined when it cannot be read.
 */
export function transcriptNaming(
  context: Pick<HookContext, "openTranscript" | "readTranscript">,
  options: { path: string; ids: readonly string[] },
): string | undefined {
  if (context.openTranscript === undefined) return context.readTranscript(options.path);
  const transcript = context.openTranscript(options.path);
  if (transcript === undefined) return undefined;
  try {
    return textOf(transcript.linesWith(options.ids));
  } catch (error) {
    // the transcript was replaced or cut while it was read: as if unreadable
    if (error instanceof TranscriptChangedError) return undefined;
    throw error;
  }
}

function textOf(lines: readonly { line: string }[]): string {
  return lines.map((line) => line.line).join("\n");
}

/**
 * The lines of `text` that hold one of `ids`, in the text's order. A first Stop on a 2 MB transcript waits for dozens
 * of calls' tokens: the ids' common prefix (`toolu_`, `call_`) is searched once through the text and each place it
 * occurs is checked against the ids, rather than the text searched once per id (or each line for each id).
 */
export function linesNaming(text: string, ids: readonly string[]): string[] {
  const wanted = new Set(ids.filter((id) => id !== ""));
  if (wanted.size === 0) return [];
  const starts = new Set<number>();
  const lineOf = (at: number) => starts.add(text.lastIndexOf("\n", at) + 1);
  const prefix = commonPrefix([...wanted]);
  if (prefix.length >= 3) {
    const lengths = [...new Set([...wanted].map((id) => id.length))];
    for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1))
      if (lengths.some((length) => wanted.has(text.slice(at, at + length)))) lineOf(at);
  } else {
    for (const id of wanted) for (let at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) lineOf(at);
  }
  return [...starts]
    .sort((a, b) => a - b)
    .map((start) => {
      const end = text.indexOf("\n", start);
      return text.slice(start, end === -1 ? text.length : end);
    });
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? "";
  for (const word of words) {
    let length = 0;
    while (length < prefix.length && length < word.length && prefix.charCodeAt(length) === word.charCodeAt(length))
      length += 1;
    prefix = prefix.slice(0, length);
  }
  return prefix;
}
