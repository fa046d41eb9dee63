import type { CoreOptions } from "../core/config.js";
import type { GuardSession } from "../guard/types.js";

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
}

/**
 * One command-hook host (Claude Code; Codex, Gemini CLI and Qwen Code alike): how to read its event, which events
 * gate a call, and how to answer. The composition root (`src/node/run-hook.ts`) opens the guard and calls these;
 * the host adapter only translates.
 */
export interface HookHost<Input> {
  /** the host's name as recorded with sessions and written in `toolgate hook <name>` */
  readonly name: string;
  /** parses one event; throws a ToolgateError (INPUT_INVALID) with a sentence that says what is wrong */
  parse(stdinText: string): Input;
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
   * Optional: the host's own answer ends the run when toolgate aborts (Claude Code's `continue: false` and
   * interrupt, Gemini CLI's `continue: false`, Qwen Code's on its next prompt event). `toolgate run` then gives the
   * agent time to stop by itself, so its own result line is written, and ends it only as a backstop; for a host
   * without it (Codex: no hook answer ends a turn), `run` ends the agent as soon as the abort is noted.
   */
  readonly endsRunOnAbort?: boolean;
}
