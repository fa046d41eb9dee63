import type { SDKMessage, SDKPermissionDenial } from "@anthropic-ai/claude-agent-sdk";
import type { DenialSource } from "../../core/events.js";
import { createRedactor } from "../../detect/redact.js";
import type { GuardSession } from "../../guard/types.js";
import { markDenied, wasDenied } from "./decided-calls.js";

/** One denied call as the stream reported it, with its input redacted. */
export interface ObservedDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** the text the model received, when the stream showed it */
  message?: string;
  /** Claude Code's `decision_reason_type` / `reason_type`, when given */
  decision_reason_type?: string;
  agent_id?: string;
}

/** Claude Code's per-call permission metadata (`tool_result_meta`, undocumented, 2.1.330). */
export interface CallDecision {
  tool_use_id: string;
  decision: "accept" | "reject";
  source?: string;
  reason_type?: string;
  non_execution_kind?: string;
}

export interface ObservationReport {
  /** every denial once, keyed by tool_use_id, inputs redacted; empty when none */
  denials: ObservedDenial[];
  decisions: CallDecision[];
}

export interface ObserveOptions {
  /** also record stream-only denials (path-denied Read/Edit, rule denials) in a guard session, each once */
  session?: GuardSession;
  /** WARN per denial; default one JSON line on stderr. Pass `() => {}` to silence. */
  warn?: (event: { msg: string; denial: ObservedDenial }) => void;
  /** redaction for inputs and messages; toolgate's default redactor when absent */
  redactValue?: (value: unknown) => unknown;
  redactText?: (text: string) => string;
}

export interface Observed<T> extends AsyncIterable<T> {
  report(): ObservationReport;
}

type Json = Record<string, unknown>;

function sourceOf(decision: { source?: string; reason_type?: string; non_execution_kind?: string }): DenialSource {
  if (decision.reason_type === "hook" || decision.source === "hook") return "hook";
  if (decision.source === "user_reject") return "user";
  if (decision.reason_type === "classifier") return "classifier";
  if (decision.reason_type === "mode") return "mode";
  if (decision.non_execution_kind === "user-rejected") return "headless";
  return "rule";
}

/**
 * Passes every SDK message through unchanged while collecting denials from `system/permission_denied` events,
 * `tool_result_meta` rejections and `result.permission_denials`, once per tool_use_id, with redacted inputs.
 */
export function observe<T extends SDKMessage>(messages: AsyncIterable<T>, options: ObserveOptions = {}): Observed<T> {
  const redactor =
    options.redactValue !== undefined && options.redactText !== undefined
      ? { redactValue: options.redactValue, redactText: options.redactText }
      : createRedactor();
  const warn =
    options.warn ??
    ((event) => process.stderr.write(`${JSON.stringify({ level: "warn", source: "toolgate", ...event })}\n`));
  const denials = new Map<string, ObservedDenial>();
  const decisions = new Map<string, CallDecision>();
  const uses = new Map<string, { tool: string; input: unknown }>();
  const pending: Promise<unknown>[] = [];

  function record(denial: ObservedDenial, source: DenialSource, raw: unknown): void {
    const known = denials.get(denial.tool_use_id);
    if (known !== undefined) {
      if (known.message === undefined && denial.message !== undefined) known.message = denial.message;
      return;
    }
    denials.set(denial.tool_use_id, denial);
    warn({ msg: `${denial.tool_name} call denied`, denial });
    const session = options.session;
    if (session !== undefined && !wasDenied(session, denial.tool_use_id)) {
      markDenied(session, denial.tool_use_id);
      pending.push(
        session.denied(
          { toolUseId: denial.tool_use_id, tool: denial.tool_name, input: raw },
          {
            source,
            reason: denial.message ?? `${denial.tool_name} was denied`,
            ...(denial.decision_reason_type === undefined ? {} : { decisionReasonType: denial.decision_reason_type }),
            ...(denial.agent_id === undefined ? {} : { agentId: denial.agent_id }),
          },
        ),
      );
    }
  }

  function denialOf(options: { id: string; tool: string; input: unknown; message?: string }): ObservedDenial {
    const denial: ObservedDenial = {
      tool_name: options.tool,
      tool_use_id: options.id,
      tool_input: redactor.redactValue(options.input ?? {}),
    };
    if (options.message !== undefined) denial.message = redactor.redactText(options.message);
    return denial;
  }

  function onMessage(message: Json): void {
    const content = Array.isArray((message.message as Json | undefined)?.content)
      ? ((message.message as Json).content as Json[])
      : [];
    if (message.type === "assistant") {
      for (const block of content) {
        if (block.type === "tool_use") uses.set(String(block.id), { tool: String(block.name), input: block.input });
      }
    } else if (message.type === "system" && message.subtype === "permission_denied") {
      const id = String(message.tool_use_id);
      const denial = denialOf({
        id,
        tool: String(message.tool_name),
        input: uses.get(id)?.input,
        message: String(message.message ?? ""),
      });
      if (typeof message.decision_reason_type === "string") denial.decision_reason_type = message.decision_reason_type;
      if (typeof message.agent_id === "string") denial.agent_id = message.agent_id;
      record(
        denial,
        sourceOf({ ...(denial.decision_reason_type ? { reason_type: denial.decision_reason_type } : {}) }),
        uses.get(id)?.input,
      );
    } else if (message.type === "user") {
      const texts = new Map(
        content
          .filter((block) => block.type === "tool_result")
          .map((block) => [String(block.tool_use_id), typeof block.content === "string" ? block.content : ""]),
      );
      for (const meta of Array.isArray(message.tool_result_meta) ? (message.tool_result_meta as Json[]) : []) {
        const permission = (meta.permission_decision ?? {}) as Json;
        const id = String(meta.id);
        const decision: CallDecision = {
          tool_use_id: id,
          decision: permission.decision === "reject" ? "reject" : "accept",
        };
        if (typeof permission.source === "string") decision.source = permission.source;
        if (typeof permission.reason_type === "string") decision.reason_type = permission.reason_type;
        if (typeof meta.non_execution_kind === "string") decision.non_execution_kind = meta.non_execution_kind;
        decisions.set(id, decision);
        if (decision.decision !== "reject") continue;
        const use = uses.get(id);
        const denial = denialOf({ id, tool: use?.tool ?? "unknown", input: use?.input, message: texts.get(id) ?? "" });
        if (decision.reason_type !== undefined) denial.decision_reason_type = decision.reason_type;
        record(denial, sourceOf(decision), use?.input);
      }
    } else if (message.type === "result") {
      for (const entry of (message.permission_denials ?? []) as SDKPermissionDenial[]) {
        record(
          denialOf({ id: entry.tool_use_id, tool: entry.tool_name, input: entry.tool_input }),
          "rule",
          entry.tool_input,
        );
      }
    }
  }

  return {
    async *[Symbol.asyncIterator]() {
      for await (const message of messages) {
        onMessage(message as unknown as Json);
        yield message;
      }
      await Promise.all(pending);
    },
    report() {
      return { denials: [...denials.values()], decisions: [...decisions.values()] };
    },
  };
}

/** Adds the denial figures to a caller's execution result: omitted list when empty, counts always. */
export function withPermissionDenials<R extends object>(
  result: R,
  report: ObservationReport,
): R & { permissionDenials?: ObservedDenial[]; permissionDenialCount: number; permissionDeniedTools: string[] } {
  const tools = [...new Set(report.denials.map((denial) => denial.tool_name))];
  return {
    ...result,
    ...(report.denials.length === 0 ? {} : { permissionDenials: report.denials }),
    permissionDenialCount: report.denials.length,
    permissionDeniedTools: tools,
  };
}
