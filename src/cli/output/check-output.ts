import type { PolicyDecision } from "../../policy/policy-types.js";
import type { CliWarning } from "./json-document.js";

/** What `toolgate check` prints: the decision, the rule and where it came from, the mode, and the warnings. */
export interface CheckOutput {
  decision: PolicyDecision;
  mode: string;
  headless: boolean;
  warnings: readonly CliWarning[];
}

/** `toolgate check --json`: every key always present. */
export function checkDocument(output: CheckOutput) {
  const { decision } = output;
  return {
    behavior: decision.behavior,
    rule: decision.rule ?? null,
    origin: decision.origin ?? null,
    source: decision.source,
    denialSource: decision.denialSource ?? null,
    reason: decision.reason,
    mode: output.mode,
    headless: output.headless,
    warnings: [...output.warnings],
  };
}

/** `toolgate check`: the decision first, then the rule, source and mode, then one `warning:` line each. */
export function checkText(output: CheckOutput): string {
  const { decision } = output;
  const lines = [`${decision.behavior.toUpperCase()}  ${decision.reason}`];
  if (decision.rule !== undefined)
    lines.push(`rule:   ${decision.rule}${decision.origin ? `  (${decision.origin})` : ""}`);
  lines.push(
    `source: ${decision.source}${decision.denialSource ? ` (recorded as a ${decision.denialSource} denial)` : ""}`,
  );
  lines.push(`mode:   ${output.mode}${output.headless ? ", headless" : ""}`);
  for (const warning of output.warnings) lines.push(`warning: ${warning.message}`);
  return `${lines.join("\n")}\n`;
}
