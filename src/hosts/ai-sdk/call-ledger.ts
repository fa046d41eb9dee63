import type { ToolCall } from "../../core/events.js";

/** What toolgate settled for one AI SDK tool call, between `needsApproval`, `execute` and the approval answer. */
export interface LedgerEntry {
  call: ToolCall;
  /** `asked`: the SDK emitted an approval request for it; `denied`: execute refuses it with `text` */
  outcome: "allowed" | "asked" | "denied";
  /** denied: the refusal the model reads; otherwise toolgate's note (loop steering) added to the call's result */
  text?: string;
  /** the approval answer (or the allowed run) was already reported to the guard */
  reported?: boolean;
}

const LIMIT = 4096;

/** Per-call outcomes by tool-call id, bounded (oldest first out). */
export class CallLedger {
  readonly #entries = new Map<string, LedgerEntry>();

  get(toolCallId: string): LedgerEntry | undefined {
    return this.#entries.get(toolCallId);
  }

  set(toolCallId: string, entry: LedgerEntry): LedgerEntry {
    this.#entries.delete(toolCallId);
    this.#entries.set(toolCallId, entry);
    if (this.#entries.size > LIMIT) this.#entries.delete(this.#entries.keys().next().value as string);
    return entry;
  }
}
