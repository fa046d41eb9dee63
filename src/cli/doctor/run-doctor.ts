import { checkClaudeCode, claudeCodeFound, claudeCodeLocations } from "./check-claude-code.js";
import { checkCodex, codexFound, codexLocations } from "./check-codex.js";
import { checkConfig } from "./check-config.js";
import { checkGemini, geminiFound } from "./check-gemini.js";
import { checkNode } from "./check-node.js";
import { checkOpencode, opencodeFound, opencodeLocations } from "./check-opencode.js";
import { checkQwen, qwenFound } from "./check-qwen.js";
import { checkStore } from "./check-store.js";
import { type DoctorCheck, type DoctorContext, warn } from "./doctor-check.js";

/** Every doctor check, in the order printed: Node, config, each host found, the store. */
export async function runDoctor(context: DoctorContext): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [checkNode(process.versions.node)];
  const config = checkConfig(context);
  checks.push(...config.checks);
  const claude = claudeCodeFound(context);
  const opencode = opencodeFound(context);
  if (claude) checks.push(...checkClaudeCode(context));
  if (opencode) checks.push(...checkOpencode(context));
  const codex = codexFound(context);
  if (codex) checks.push(...(await checkCodex(context)));
  const gemini = geminiFound(context);
  if (gemini) checks.push(...checkGemini(context));
  const qwen = qwenFound(context);
  if (qwen) checks.push(...checkQwen(context));
  if (!claude && !opencode && !codex && !gemini && !qwen) {
    checks.push(
      warn(
        "hosts",
        `no agent host found: looked for Claude Code (${claudeCodeLocations(context).join(", ")}), opencode (${opencodeLocations(context).join(", ")}) and Codex (${codexLocations(context).join(", ")})`,
        "Run your agent once, then `toolgate install claude-code` or `toolgate install opencode`.",
      ),
    );
  }
  checks.push(await checkStore(context, config.store));
  return checks;
}

/** The text output: one line per check, continuation lines and the fix indented under it. */
export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const lines: string[] = [];
  for (const check of checks) {
    const [first = "", ...rest] = check.message.split("\n");
    lines.push(`${check.status.padEnd(4)}  ${check.name}: ${first}`);
    for (const line of rest) lines.push(`      ${line}`);
    if (check.fix !== null) lines.push(`      fix: ${check.fix}`);
  }
  const failed = checks.filter((check) => check.status === "fail").length;
  const warned = checks.filter((check) => check.status === "warn").length;
  lines.push(
    failed > 0
      ? `${failed} check${failed === 1 ? "" : "s"} failed: apply the fixes above.`
      : warned > 0
        ? `No failures; ${warned} warning${warned === 1 ? "" : "s"} above.`
        : "Everything is set up.",
  );
  return `${lines.join("\n")}\n`;
}
