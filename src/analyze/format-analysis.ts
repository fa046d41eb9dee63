import { byteOrder } from "../core/figures.js";
import type { AnalysisDocument, SessionAnalysis, StopPoint, SuggestedAllowRule } from "./analysis-types.js";

/**
 * The terminal output of `toolgate analyze`: the one line that matters first, then the worst sessions and the top
 * suggested rules. Every value in it is already redacted.
 */
const WORST = 5;
const STOP_VERBS = {
  abort: "stopped the run",
  fallback: "told the model the capability is unavailable",
  skip: "told the model to skip the step",
  "offer-grant": "offered a session grant",
} as const;
const RULES = 10;
/** canonical tools named in the denied-tools line */
const TOOLS = 5;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function headline(document: AnalysisDocument): string {
  const { totals } = document;
  const saved = totals.savedCalls;
  return (
    `${totals.denials} of ${plural(totals.toolCalls, "tool call", "tool calls")} across ` +
    `${plural(totals.sessions, "session", "sessions")} ${totals.denials === 1 ? "was" : "were"} denied; ` +
    `${saved} ${saved === 1 ? "was a retry" : "were retries"} toolgate would have saved.`
  );
}

function worstSessions(sessions: readonly SessionAnalysis[]): SessionAnalysis[] {
  return sessions
    .filter((session) => session.denialCount > 0 || session.loops.length > 0)
    .sort((a, b) => b.wastedCalls - a.wastedCalls || b.denialCount - a.denialCount || b.savedCalls - a.savedCalls)
    .slice(0, WORST);
}

/** where toolgate would first have stopped or escalated a session, in words (the text output and the HTML file) */
export function describeStop(stop: StopPoint): string {
  return `toolgate would have ${STOP_VERBS[stop.action]} at call ${stop.call} (${stop.tool}, after repeated ${stop.reason})`;
}

function describeSession(session: SessionAnalysis): string[] {
  const parts = [
    `${session.denialCount} denied of ${plural(session.toolCalls, "call", "calls")}`,
    `${session.wastedCalls} wasted${session.wastedTokens ? ` (${session.wastedTokens} tokens)` : ""}`,
    `${session.savedCalls} saved`,
  ];
  const lines = [`  ${session.host}  ${session.sessionId}  ${parts.join(", ")}`, `    ${session.file}`];
  if (session.stoppedAt !== null) lines.push(`    ${describeStop(session.stoppedAt)}`);
  for (const loop of session.loops) {
    const after = loop.after === undefined ? "" : ` after ${loop.after} was denied`;
    lines.push(`    loop: ${loop.kind} ${loop.tool} x${loop.calls}${after}`);
  }
  const sources = Object.entries(session.deniedBySource)
    .map(([source, count]) => `${source} ${count}`)
    .join(", ");
  if (sources !== "") lines.push(`    denied by: ${sources}`);
  return lines;
}

function topRules(sessions: readonly SessionAnalysis[]): SuggestedAllowRule[] {
  const merged = new Map<string, SuggestedAllowRule>();
  for (const session of sessions) {
    for (const rule of session.suggestedRules) {
      const existing = merged.get(rule.rule);
      if (existing === undefined) merged.set(rule.rule, { ...rule });
      else existing.count += rule.count;
    }
  }
  return [...merged.values()].sort((a, b) => b.count - a.count || byteOrder(a.rule, b.rule)).slice(0, RULES);
}

export function formatAnalysis(document: AnalysisDocument): string {
  const lines = [headline(document)];
  const { totals } = document;
  if (totals.wastedCalls > 0) {
    const tokens = totals.wastedTokens ? `, ${totals.wastedTokens} tokens` : "";
    lines.push(
      `${plural(totals.wastedCalls, "call was", "calls were")} made after a denial of something that never became available${tokens}.`,
    );
  }
  if (totals.deniedByTool.length > 0) {
    // one entry per canonical tool across hosts: `shell (Bash, exec_command) 12`
    const tools = totals.deniedByTool.slice(0, TOOLS).map((entry) => {
      const names = entry.hostTools.every((name) => name === entry.tool) ? "" : ` (${entry.hostTools.join(", ")})`;
      return `${entry.tool}${names} ${entry.count}`;
    });
    lines.push(`Denied tools: ${tools.join(", ")}.`);
  }
  const worst = worstSessions(document.sessions);
  if (worst.length > 0) {
    lines.push("", "Worst sessions");
    for (const session of worst) lines.push(...describeSession(session));
  }
  const rules = topRules(document.sessions);
  if (rules.length > 0) {
    // in each host's own rule language; none where a deny rule would still win, for a heredoc, or for the OS's refusals
    lines.push("", "Suggested allow rules (only for calls you want to allow)");
    const width = Math.min(60, Math.max(...rules.map((rule) => rule.rule.length)));
    for (const rule of rules) {
      const [first, ...more] = rule.rule.split("\n");
      lines.push(
        `  ${(first as string).padEnd(width)}  ${plural(rule.count, "denial", "denials")}, in ${rule.language}`,
      );
      for (const line of more) lines.push(`  ${line}`);
    }
  }
  lines.push(
    "",
    `Read ${plural(totals.files, "file", "files")}; skipped ${plural(document.skippedLines, "line", "lines")} that were corrupt, truncated or unknown.`,
  );
  if (document.unrecognizedFiles.length > 0) {
    lines.push(
      `${plural(document.unrecognizedFiles.length, "file was", "files were")} not a known transcript format (--host forces one).`,
    );
  }
  for (const skipped of document.skippedFiles) lines.push(`Skipped ${skipped.file}: ${skipped.reason}.`);
  return `${lines.join("\n")}\n`;
}
