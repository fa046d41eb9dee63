import type { CoreOptions } from "../../core/config.js";
import type { Effect } from "../../core/effects.js";
import type { DenialSource } from "../../core/events.js";
import type { DeniedOptions, GuardSession } from "../../guard/types.js";
import { jsonObjectOf } from "./json-line.js";
import type { TranscriptCursor, TranscriptCursors } from "./transcript-cursor.js";

/**
 * The environment variable a hook event carries the pid of the host process in when the code answering it is not
 * a child of that process (the resident hook server answers for the client the host started): a host that reads
 * its own process's command line starts from it.
 */
export const HOOK_PARENT_PID_ENV = "TOOLGATE_HOOK_PARENT_PID";

/** The host process of a hook event: `HOOK_PARENT_PID_ENV` when set to a pid, else this process's parent. */
export function hookParentPid(env: Readonly<Record<string, string | undefined>>): number {
  const given = env[HOOK_PARENT_PID_ENV];
  return given !== undefined && /^\d{1,10}$/.test(given) && Number(given) > 1 ? Number(given) : process.ppid;
}

/** How a hook process answers its host: JSON on stdout, an exit code, and text for stderr. */
export interface HookAnswer {
  /** printed as one line of JSON on stdout when present */
  output?: unknown;
  /** 0 = answered; 1 = non-blocking error (the host goes on); 2 = blocking error (the host refuses the call) */
  exitCode: 0 | 1 | 2;
  stderr?: string;
}

/** What a hook handler gets besides the parsed event: the session and a bounded transcript reader. */
export interface HookContext {
  session: GuardSession;
  /** whether a person can answer the host's prompts in this session */
  interactive: boolean;
  /** the transcript's text (regular files only, size-bounded), or undefined when it cannot be read */
  readTranscript: (path: string) => string | undefined;
  /**
   * Optional: the same transcript as lines to search, for a host that needs only the lines holding some texts (the
   * rest is never decoded: a long session's transcript is megabytes). Without it, `readTranscript` is searched.
   */
  openTranscript?: (
    path: string,
    from?: TranscriptCursor,
    options?: {
      /** the file as it stands now, not the event's first view of it (a host polling for its writer to catch up) */
      again?: boolean;
    },
  ) => TranscriptLines | undefined;
  /**
   * Optional: where a reconciler keeps, per transcript, how far this session already recorded its denials (a
   * cursor `openTranscript` gave as `next`), written only once they are recorded
   */
  transcriptCursors?: TranscriptCursors;
  /**
   * Optional: the hook process's environment, for a host whose payload does not name its transcript (the session's
   * events file is then found under the host's own home variable)
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A transcript replaced or cut while a hook event searched it (`TranscriptLines` reads the file as it searches): its
 * callers treat it as unreadable for that event, record nothing from it and move no cursor.
 */
export class TranscriptChangedError extends Error {
  constructor(path: string) {
    super(`the transcript ${path} was replaced or cut while it was read`);
    this.name = "TranscriptChangedError";
  }
}

/** A transcript (JSONL) searched line by line; a search may throw `TranscriptChangedError`. */
export interface TranscriptLines {
  /**
   * The complete lines holding any of `needles` (plain text, e.g. a quoted JSON key), in file order, each with its
   * position (lines compare by it: a larger `at` comes later in the file).
   */
  linesWith(needles: readonly string[]): { line: string; at: number }[];
  /**
   * Searching back from position `before` (exclusive), the first line holding `needle` for which `pick` (given the
   * line and its position) gives a value, and that value; undefined when no line does.
   */
  lastWith<T>(needle: string, before: number, pick: (line: string, at: number) => T | undefined): T | undefined;
  /** where a later read may start `linesWith` (after the last complete line), when the reader keeps cursors */
  readonly next?: TranscriptCursor;
  /**
   * Every non-empty line, in order, as `readTranscript`'s text split on `\n` gives them; a line `keepBytes` rejects
   * (given its raw bytes, valid only during the call) is not decoded. For a reader that needs every line (a format
   * whose facts depend on the lines between them), without the whole text decoded first.
   */
  eachLine(keepBytes?: (bytes: Buffer) => boolean): Iterable<string>;
  /**
   * The text `linesWith` searches (after the cursor when it holds), decoded at once: for a reader that parses most of
   * a file's lines (a session file whose call records hold most of its bytes), where decoding each line on
   * its own, a new string each, cost more than the text whole (measured in BENCHMARKS.md).
   */
  searchedText(): string;
}

/**
 * A transcript's lines for a hook event: read as searches need them where the context can (`openTranscript`; `from`:
 * a cursor the searches for lines start after; `again`: the file as it stands now), else its text's lines. Undefined
 * when it cannot be read.
 */
export function transcriptLinesFor(
  context: Pick<HookContext, "openTranscript" | "readTranscript">,
  path: string,
  options: { from?: TranscriptCursor; again?: boolean } = {},
): TranscriptLines | undefined {
  if (context.openTranscript !== undefined) {
    return context.openTranscript(path, options.from, options.again === true ? { again: true } : undefined);
  }
  const text = context.readTranscript(path);
  return text === undefined ? undefined : transcriptLinesOf(text);
}

/**
 * For a host that polls its transcript while the host's writer catches up: `opened`, or `previous` when no line was
 * completed between them (both end their complete lines at the same place, after the same line), so the searches
 * already made of `previous` (`scannedOnce`) answer again instead of parsing the file at every poll. A partial last
 * line is never a record, so it changes nothing.
 */
export function newerView(previous: TranscriptLines | undefined, opened: TranscriptLines): TranscriptLines {
  const before = previous?.next;
  const now = opened.next;
  if (previous === undefined || before === undefined || now === undefined) return opened;
  return before.offset === now.offset && before.check === now.check ? previous : opened;
}

/** `read()`, or undefined when the transcript it reads was replaced or cut meanwhile: as if unreadable for this event. */
export function unlessTranscriptChanged<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof TranscriptChangedError) return undefined;
    throw error;
  }
}

/**
 * `scan`, made once per lines object: a host's settle check and the searches after it read one scan of an opened
 * transcript. (Text gives a new lines object each time, so it is scanned at each call.)
 */
export function scannedOnce<T>(scan: (lines: TranscriptLines) => T): (lines: TranscriptLines) => T {
  const scans = new WeakMap<TranscriptLines, T>();
  return (lines) => {
    let value = scans.get(lines);
    if (value === undefined) {
      value = scan(lines);
      scans.set(lines, value);
    }
    return value;
  };
}

/** The objects of the lines holding any of `needles`, in file order, each with its line's position. */
export function jsonObjectsWith(
  lines: TranscriptLines,
  needles: readonly string[],
): { value: Record<string, unknown>; at: number }[] {
  const out: { value: Record<string, unknown>; at: number }[] = [];
  for (const { line, at } of lines.linesWith(needles)) {
    const value = jsonObjectOf(line);
    if (value !== undefined) out.push({ value, at });
  }
  return out;
}

/** Lines of a transcript already read as text (what `openTranscript` gives, for a host that has only the text). */
export function transcriptLinesOf(text: string): TranscriptLines {
  let lines: string[] | undefined;
  return {
    linesWith(needles) {
      lines ??= text.split("\n");
      const found: { line: string; at: number }[] = [];
      lines.forEach((line, at) => {
        if (needles.some((needle) => line.includes(needle))) found.push({ line, at });
      });
      return found;
    },
    *eachLine(keepBytes) {
      lines ??= text.split("\n");
      for (const line of lines)
        if (line !== "" && (keepBytes === undefined || keepBytes(Buffer.from(line)))) yield line;
    },
    searchedText: () => text,
    lastWith(needle, before, pick) {
      lines ??= text.split("\n");
      for (let at = Math.min(before, lines.length) - 1; at >= 0; at -= 1) {
        const line = lines[at] ?? "";
        if (!line.includes(needle)) continue;
        const value = pick(line, at);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

/**
 * One command-hook host (every `kind: "hook"` host alike): how to read its event, which events
 * gate a call, and how to answer. The composition root (`src/hook-runtime/run-hook.ts`) opens the guard and calls these;
 * the host adapter only translates.
 */
export interface HookHost<Input> {
  /** the host's name as recorded with sessions and written in `toolgate hook <name>` */
  readonly name: string;
  /**
   * parses one event; throws a ToolgateError (INPUT_INVALID) with a sentence that says what is wrong. `eventName`:
   * the event named on the command line (`toolgate hook <host> <event>`), for a host whose payload does not name it
   */
  parse(stdinText: string, options?: { eventName?: string }): Input;
  eventName(input: Input): string;
  sessionId(input: Input): string;
  /** the project directory the event belongs to (config discovery), when the event or the env names it */
  projectDir(input: Input, env: Readonly<Record<string, string | undefined>>): string | undefined;
  interactive(env: Readonly<Record<string, string | undefined>>): boolean;
  handle(input: Input, context: HookContext): Promise<HookAnswer>;
  /**
   * The answer when toolgate could not check the event: a refusal in the host's own shape for gating events (and
   * for an event it could not even read, which may be gating); a non-blocking error for the others.
   */
  failClosed(options: { eventName: string | undefined; reason: string }): HookAnswer;
  /**
   * Optional: the host's escalation defaults, applied under the config (a config file and the
   * `TOOLGATE_DENY_THRESHOLD*` variables still decide). Plain data: the core decides with them.
   */
  readonly escalationDefaults?: CoreOptions;
  /**
   * Optional: the host's own answer ends the run when toolgate aborts (a `continue: false` answer, an
   * interrupt, or a stop on the next prompt event). `toolgate run` then gives the
   * agent time to stop by itself, so its own result line is written, and ends it only as a backstop; for a host
   * without it (no hook answer of its ends a turn), `run` ends the agent as soon as the abort is noted.
   */
  readonly endsRunOnAbort?: boolean;
}

/** A denial a host's transcript shows, in the fields every host's reconciler records. */
export interface TranscriptDenialRecord {
  toolUseId: string;
  tool: string;
  input: unknown;
  source: DenialSource;
  /** the text the model received */
  text: string;
  rule?: string;
  decisionReasonType?: string;
  agentId?: string;
  /** when the host wrote the refusal (its transcript's time); absent: when it is recorded */
  at?: number;
}

/** A transcript's denials as the calls and options `GuardSession.deniedUnlessRecorded` (or `decide`) takes. */
export function transcriptDenialCalls(
  denials: readonly TranscriptDenialRecord[],
  agentId?: string,
): { call: { toolUseId: string; tool: string; input: unknown }; options: DeniedOptions }[] {
  return denials.map((denial) => {
    const agent = denial.agentId ?? agentId;
    return {
      call: { toolUseId: denial.toolUseId, tool: denial.tool, input: denial.input },
      options: {
        source: denial.source,
        reason: denial.text,
        ...(denial.rule === undefined ? {} : { rule: denial.rule }),
        ...(denial.decisionReasonType === undefined ? {} : { decisionReasonType: denial.decisionReasonType }),
        ...(agent === undefined ? {} : { agentId: agent }),
        ...(denial.at === undefined ? {} : { at: denial.at }),
      },
    };
  });
}

/**
 * Records the denials of a transcript that no hook recorded yet, each once (`GuardSession.deniedUnlessRecorded`);
 * `agentId` is the subagent for the denials that name none.
 */
export function recordTranscriptDenials(
  session: GuardSession,
  /** `agentId`: the event's agent, for the denials that name none (a subagent's transcript) */
  options: { denials: readonly TranscriptDenialRecord[]; agentId?: string | undefined },
): Promise<Effect[]> {
  const { denials, agentId } = options;
  if (denials.length === 0) return Promise.resolve([]);
  return session.deniedUnlessRecorded(transcriptDenialCalls(denials, agentId));
}
