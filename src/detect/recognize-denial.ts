import type { DenialSource } from "../core/events.js";
import type { DenialTextRule, HostDenialTable, HostName } from "./denial-text-rule.js";
import { AGENT_CODE_DENIAL_TEXTS } from "./hosts/agent-code.js";
import { CLAUDE_CODE_DENIAL_TEXTS } from "./hosts/claude-code.js";
import { CODEX_DENIAL_TEXTS } from "./hosts/codex.js";
import { GEMINI_DENIAL_TEXTS } from "./hosts/gemini.js";
import { OPENCODE_DENIAL_TEXTS } from "./hosts/opencode.js";
import { QWEN_DENIAL_TEXTS } from "./hosts/qwen.js";
import { normalizeDenialText } from "./normalize-denial-text.js";

/**
 * Turns a tool-result text (plus `is_error` and host metadata) into a denial with its source, or nothing when the
 * text is an ordinary tool error. Each host's wording lives in its own table under `hosts/`; extend a table when a
 * host changes its texts, with a positive and a negative row in `recognize-denial.test.ts`.
 */

export type { HostName } from "./denial-text-rule.js";

export interface RecognizeDenialInput {
  /** the host that produced the text; when absent every table is tried (host-specific generic rows are skipped) */
  host?: HostName | "claude-agent-sdk" | (string & {});
  text: string;
  /** the host's error flag; `false` means the call succeeded, so its output is never a denial */
  isError?: boolean;
  /**
   * Host metadata. Understood keys: `interactive` (false turns a person's rejection into `headless`),
   * Claude's `permission_decision` / `tool_result_meta` entry (`{decision, source, reason_type}`),
   * `non_execution_kind`, and `decisionReasonType` / `decision_reason_type`.
   */
  metadata?: Record<string, unknown>;
}

export interface RecognizedDenial {
  denied: true;
  source: DenialSource;
  reason: string;
  host: HostName;
}

export const HOST_DENIAL_TABLES: readonly HostDenialTable[] = [
  CLAUDE_CODE_DENIAL_TEXTS,
  OPENCODE_DENIAL_TEXTS,
  GEMINI_DENIAL_TEXTS,
  QWEN_DENIAL_TEXTS,
  CODEX_DENIAL_TEXTS,
  AGENT_CODE_DENIAL_TEXTS,
];

const HOST_ALIASES: Readonly<Record<string, HostName>> = {
  "claude-code": "claude-code",
  "claude-agent-sdk": "claude-code",
  claude: "claude-code",
  opencode: "opencode",
  gemini: "gemini",
  "gemini-cli": "gemini",
  qwen: "qwen",
  "qwen-code": "qwen",
  codex: "codex",
  "agent-code": "agent-code",
};

const MAX_REASON = 2000;

/** Claude's `reason_type` / `decision_reason_type` and `non_execution_kind` values -> source */
const CLAUDE_REASON_TYPES: Readonly<Record<string, DenialSource>> = {
  rule: "rule",
  subcommandResults: "rule",
  hook: "hook",
  mode: "mode",
  classifier: "classifier",
  asyncAgent: "headless",
  "permission-rule": "rule",
  "user-rejected": "user",
  "automode-blocked": "classifier",
  "automode-unavailable": "classifier",
};

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/** Claude's undocumented per-call meta: the most complete signal when present. */
function sourceFromClaudeMetadata(metadata: Record<string, unknown>): DenialSource | undefined {
  const decision = record(metadata["permission_decision"]);
  const reasonType =
    text(decision?.["reason_type"]) ?? text(metadata["decisionReasonType"]) ?? text(metadata["decision_reason_type"]);
  if (decision !== undefined && decision["decision"] !== "reject") return undefined;
  const byType = reasonType === undefined ? undefined : CLAUDE_REASON_TYPES[reasonType];
  if (byType !== undefined) return byType;
  const kind = text(metadata["non_execution_kind"]);
  const byKind = kind === undefined ? undefined : CLAUDE_REASON_TYPES[kind];
  if (byKind !== undefined) return byKind;
  if (decision === undefined) return undefined;
  const source = text(decision["source"]);
  if (source === "user_reject") return "user";
  if (source === "hook") return "hook";
  return "rule";
}

function reasonOf(match: RegExpExecArray, normalized: string): string {
  const reason = (match.groups?.["reason"] ?? "").trim() || normalized;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}

function matchTable(options: { table: HostDenialTable; normalized: string; hostKnown: boolean }):
  | {
      rule: DenialTextRule;
      match: RegExpExecArray;
    }
  | undefined {
  for (const rule of options.table.rules) {
    if (rule.requiresHost === true && !options.hostKnown) continue;
    const match = rule.pattern.exec(options.normalized);
    if (match !== null) return { rule, match };
  }
  return undefined;
}

/** Recognise a host's denial text; `undefined` for anything else (a generic tool error, a success). */
export function recognizeDenial(input: RecognizeDenialInput): RecognizedDenial | undefined {
  if (input.isError === false) return undefined;
  const host = input.host === undefined ? undefined : HOST_ALIASES[input.host];
  const normalized = normalizeDenialText(input.text);
  const metadata = input.metadata ?? {};
  const headless = metadata["interactive"] === false;
  const tables = host === undefined ? HOST_DENIAL_TABLES : HOST_DENIAL_TABLES.filter((table) => table.host === host);
  if (host === "claude-code" || host === undefined) {
    const source = sourceFromClaudeMetadata(metadata);
    if (source !== undefined && normalized.length > 0) {
      return {
        denied: true,
        source: headless && source === "user" ? "headless" : source,
        reason: normalized.slice(0, MAX_REASON),
        host: "claude-code",
      };
    }
  }
  if (normalized.length === 0) return undefined;
  for (const table of tables) {
    const found = matchTable({ table, normalized, hostKnown: host !== undefined });
    if (found === undefined) continue;
    const source = headless && found.rule.source === "user" ? "headless" : found.rule.source;
    return { denied: true, source, reason: reasonOf(found.match, normalized), host: table.host };
  }
  return undefined;
}
