import { type Figures, factsFromRecords, SESSION_STATUSES, sessionFigures, totalFigures } from "../../core/figures.js";
import type { AuditEvent, DenialRecord } from "../../core/records.js";
import type { HostStreamSummary } from "../../hosts/common/host-stream.js";
import { EXIT } from "../exit-codes.js";

/** One denied call for the report, already redacted. */
export interface ReportedDenial {
  toolUseId: string;
  /** the session it was denied in (the stream's session for a denial only the stream showed) */
  sessionId: string;
  tool: string;
  /** redacted one-line summary of the input */
  summary: string;
  /** the narrowest allow rule that would have let it through (redacted) */
  allowRule: string;
  /** the rule that denied it, when known */
  rule?: string;
  source?: string;
  signature: string;
  /** its escalation family (`rm`, `git push`, a directory): the report's groups */
  pattern: string;
}

export interface RunOutcome {
  exitCode: number;
  aborted: boolean;
  denials: ReportedDenial[];
  /** the abort error toolgate recorded, when it aborted the run */
  abortReason?: string;
  /** loops, wasted and saved calls, status of the run's sessions (core/figures.ts) */
  figures: Figures;
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
  /** the sessions' audit events (loop verdicts, aborts, escalations, grants) */
  events?: readonly AuditEvent[];
  aborted?: { reason: string };
  failOn: FailOn;
  describe: (
    tool: string,
    input: unknown,
  ) => { summary: string; allowRule: string; signature: string; pattern?: string };
}): RunOutcome {
  const byId = new Map<string, ReportedDenial>();
  for (const record of options.records) {
    const described = options.describe(record.tool, record.input);
    byId.set(record.toolUseId, {
      toolUseId: record.toolUseId,
      sessionId: record.sessionId,
      tool: record.tool,
      summary: record.inputSummary,
      allowRule: described.allowRule,
      signature: record.signature,
      pattern: record.pattern,
      source: record.source,
      ...(record.rule === undefined ? {} : { rule: record.rule }),
    });
  }
  for (const denial of options.stream?.denials ?? []) {
    if (byId.has(denial.toolUseId)) continue;
    const { pattern, ...described } = options.describe(denial.tool, denial.input);
    byId.set(denial.toolUseId, {
      toolUseId: denial.toolUseId,
      sessionId: options.stream?.sessionId ?? "run",
      tool: denial.tool,
      ...described,
      pattern: pattern ?? described.signature,
    });
  }
  const denials = [...byId.values()];
  const aborted = options.aborted !== undefined;
  let exitCode = options.agentExitCode;
  if (aborted && options.failOn !== "never") exitCode = EXIT.aborted;
  else if (denials.length > 0 && options.failOn === "any") exitCode = EXIT.denied;
  const figures = totalFigures(
    factsFromRecords({
      records: denials.map((denial) => ({ ...denial, source: denial.source ?? "" })),
      events: options.events ?? [],
    }).map(sessionFigures),
  );
  return {
    exitCode,
    aborted,
    denials,
    figures,
    ...(options.aborted === undefined ? {} : { abortReason: options.aborted.reason }),
  };
}

/**
 * The human summary: denied calls grouped by pattern (one row per pattern, counts summed) with their variants
 * folded under it. A call an explicit deny rule denied gets no allow rule (deny wins over allow): the summary names
 * the deny rule to narrow or remove instead. Other calls get the minimal allow rule that would have let them run.
 */
export function formatRunReport(outcome: RunOutcome): string {
  if (outcome.denials.length === 0 && !outcome.aborted) return "";
  const lines: string[] = [];
  const count = outcome.denials.length;
  lines.push(
    `toolgate run: ${count} denied call${count === 1 ? "" : "s"}${outcome.aborted ? "; toolgate aborted the run" : ""}.`,
  );
  if (outcome.abortReason) lines.push(`  ${outcome.abortReason}`);
  const { figures } = outcome;
  const statuses = SESSION_STATUSES.filter((status) => figures.status[status] > 0)
    .map((status) => (figures.sessions === 1 ? status : `${status} ${figures.status[status]}`))
    .join(", ");
  lines.push(
    `  loops ${figures.loops}, wasted calls ${figures.wastedCalls}, calls toolgate saved ${figures.savedCalls}; ${figures.sessions === 1 ? "session" : "sessions"}: ${statuses}`,
  );
  const byTool = new Map<string, number>();
  for (const denial of outcome.denials) byTool.set(denial.tool, (byTool.get(denial.tool) ?? 0) + 1);
  if (byTool.size > 0) lines.push(`  by tool: ${[...byTool].map(([tool, total]) => `${tool} ${total}`).join(", ")}`);
  for (const group of groupByPattern(outcome.denials)) {
    const variants = group.variants.length;
    lines.push(`  ${group.count}x ${group.tool} ${group.pattern} (${variants} variant${variants === 1 ? "" : "s"})`);
    for (const [rule, times] of group.denyRules) {
      const named = rule ?? "a deny rule (the host did not name it)";
      const target = rule ?? "that deny rule";
      lines.push(
        `      ${named} denied ${times}: a deny rule wins over any allow rule, so narrow or remove ${target} to let these calls run`,
      );
    }
    for (const variant of group.variants) {
      const source = variant.denial.source && !isDenyRule(variant.denial) ? ` (${variant.denial.source})` : "";
      lines.push(`      ${variant.count}x ${variant.denial.summary}${source}`);
      if (!isDenyRule(variant.denial)) lines.push(`          minimal allow rule: ${variant.denial.allowRule}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** Denied by an explicit deny rule: no allow rule can let it through while the rule stands. */
function isDenyRule(denial: ReportedDenial): boolean {
  return denial.source === "rule";
}

interface PatternGroup {
  tool: string;
  pattern: string;
  count: number;
  /** deny rule -> denials (null: the host did not name the rule) */
  denyRules: Map<string | null, number>;
  variants: { denial: ReportedDenial; count: number }[];
}

/** Groups by tool and pattern, then by signature; most denials first, first seen first on ties. */
function groupByPattern(denials: readonly ReportedDenial[]): PatternGroup[] {
  const groups = new Map<
    string,
    PatternGroup & { bySignature: Map<string, { denial: ReportedDenial; count: number }> }
  >();
  for (const denial of denials) {
    const key = `${denial.tool}\u0000${denial.pattern}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        tool: denial.tool,
        pattern: denial.pattern,
        count: 0,
        denyRules: new Map(),
        variants: [],
        bySignature: new Map(),
      };
      groups.set(key, group);
    }
    group.count += 1;
    if (isDenyRule(denial)) {
      const rule = denial.rule ?? null;
      group.denyRules.set(rule, (group.denyRules.get(rule) ?? 0) + 1);
    }
    const variant = group.bySignature.get(denial.signature) ?? { denial, count: 0 };
    variant.count += 1;
    group.bySignature.set(denial.signature, variant);
  }
  return [...groups.values()]
    .map(({ bySignature, ...group }) => ({
      ...group,
      variants: [...bySignature.values()].sort((a, b) => b.count - a.count),
    }))
    .sort((a, b) => b.count - a.count);
}
