/**
 * `toolgate run` watches an agent's output stream when the agent writes one. Each host contributes a detector
 * (does this command write a stream I understand?) and a line parser; `run` stays host-agnostic. The contract lives
 * here, beside the adapters that implement it, so they can name its types; the CLI imports it from here.
 * To add a host: implement `HostStreamDetector` in the host folder and load it from the descriptor's `stream`
 * (src/hosts/<host>/host.ts).
 */

/** One denied call seen in the stream. Inputs are raw here; `run` redacts before printing anything. */
export interface StreamDenial {
  toolUseId: string;
  tool: string;
  input: unknown;
  /** the text the agent was given, when the stream shows it */
  reason?: string;
  /** the subagent that made the call */
  agentId?: string;
}

export interface HostStreamSummary {
  host: string;
  /** the host's session id, to look the session up in toolgate's store */
  sessionId?: string;
  /** each denied call once, in the order first seen */
  denials: StreamDenial[];
  /** how the run ended, when the stream says so */
  ended?: {
    isError: boolean;
    /** host-specific end reason (Claude Code `terminal_reason`: `hook_stopped`, `aborted_tools`, ...) */
    reason?: string;
    /** true when the reason means a hook or the permission layer stopped the run */
    stoppedByPermissionLayer: boolean;
  };
}

export interface HostStreamParser {
  /** one line of the agent's stdout (without the newline); lines that are not the host's format are ignored */
  push(line: string): void;
  summary(): HostStreamSummary;
}

export interface HostStreamDetector {
  host: string;
  /** whether `command` (argv) is this host writing a stream the parser understands */
  detect(command: readonly string[]): boolean;
  create(): HostStreamParser;
}
