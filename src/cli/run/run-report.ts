import type { HostStreamSummary } from "../../adapters/host-stream.js";
import type { DenialRecord } from "../../core/records.js";
import { EXIT } from "../exit-codes.js";

/** One denied call for the report, already redacted. */
export interface ReportedDenial {
  toolUseId: string;
  tool: string;
  /** redacted one-line summary of the input */
  summary: string;
  /** the narrowest allow rule that would have let it through (redacted) */
  allowRule: string;
  /** the rule that denied it, when known */
  rule?: string;
  source?: string;
  signature: string;
}

export interface RunOutcome {
  exitCode: number;
  aborted: boolean;
  denials: ReportedDenial[];
  /** the abort error toolgate recorded, when it aborted the run */
  abortReason?: string;
}

export type FailOn = "any" | "abort" | "never";

/**
 * Merges what the stream showed with what toolgate's store recorded (store rows win: they carry the matched rule
 * and are redacted), and decides the exit code: aborted by toolgate -> 6; denials and `failOn: any` -> 5; else the
 * agent's own exit code (0 stays 0).
 */
export function decideRunOutcome(options: {
  agentExitCode: number;
  stream: HostStreamSummary | undefined;
  records: readonly DenialRecord[];
  aborted?: { reason: string };
  failOn: FailOn;
  describe: (tool: string, input: unknown) => { summary: string; allowRule: string; signature: string };
}): RunOutcome {
  const byId = new Map<string, ReportedDenial>();
  for (const record of options.records) {
    const described = options.describe(record.tool, record.input);
    byId.set(record.toolUseId, {
      toolUseId: record.toolUseId,
      tool: record.tool,
      summary: record.inputSummary,
      allowRule: described.allowRule,
      signature: record.signature,
      source: record.source,
      ...(record.rule === undefined ? {} : { rule: record.rule }),
    });
  }
  for (const denial of options.stream?.denials ?? []) {
    if (byId.has(denial.toolUseId)) continue;
    const described = options.describe(denial.tool, denial.input);
    byId.set(denial.toolUseId, { toolUseId: denial.toolUseId, tool: denial.tool, ...described });
  }
  const denials = [...byId.values()];
  const aborted = options.aborted !== undefined;
  let exitCode = options.agentExitCode;
  if (aborted && options.failOn !== "never") exitCode = EXIT.aborted;
  else if (denials.length > 0 && options.failOn === "any") exitCode = EXIT.denied;
  return {
    exitCode,
    aborted,
    denials,
    ...(options.aborted === undefined ? {} : { abortReason: options.aborted.reason }),
  };
}

/** The human summary: denied calls grouped by tool and signature, with the rules that would have allowed them. */
export function formatRunReport(outcome: RunOutcome): string {
  if (outcome.denials.length === 0 && !outcome.aborted) return "";
  const lines: string[] = [];
  const count = outcome.denials.length;
  lines.push(
    `toolgate run: ${count} denied call${count === 1 ? "" : "s"}${outcome.aborted ? "; toolgate aborted the run" : ""}.`,
  );
  if (outcome.abortReason) lines.push(`  ${outcome.abortReason}`);
  const groups = new Map<string, { denial: ReportedDenial; count: number; rules: Set<string> }>();
  for (const denial of outcome.denials) {
    const key = `${denial.tool}\u0000${denial.signature}`;
    const group = groups.get(key) ?? { denial, count: 0, rules: new Set<string>() };
    group.count += 1;
    if (denial.rule) group.rules.add(denial.rule);
    groups.set(key, group);
  }
  const byTool = new Map<string, number>();
  for (const denial of outcome.denials) byTool.set(denial.tool, (byTool.get(denial.tool) ?? 0) + 1);
  lines.push(`  by tool: ${[...byTool].map(([tool, total]) => `${tool} ${total}`).join(", ")}`);
  for (const { denial, count: times, rules } of groups.values()) {
    const why =
      rules.size > 0 ? ` (denied by rule ${[...rules].join(", ")})` : denial.source ? ` (${denial.source})` : "";
    lines.push(`  ${times}x ${denial.tool}: ${denial.summary}${why}`);
    const first = rules.size > 0 ? " (deny beats allow: remove or narrow the deny rule first)" : "";
    lines.push(`      minimal allow rule: ${denial.allowRule}${first}`);
  }
  return `${lines.join("\n")}\n`;
}
