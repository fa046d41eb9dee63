import { type DoctorCheck, type DoctorContext, warn } from "../../hosts/common/doctor-check.js";
import { hostsWith } from "../../hosts/registry.js";
import { checkConfig } from "./check-config.js";
import { checkNode } from "./check-node.js";
import { checkResidentHook } from "./check-resident-hook.js";
import { checkStore } from "./check-store.js";

/**
 * Every doctor check, in the order printed: Node, config, each registered host found here, the resident hook servers
 * (when any ran), the store.
 */
export async function runDoctor(context: DoctorContext): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [checkNode(process.versions.node)];
  const config = checkConfig(context);
  checks.push(...config.checks);
  const hosts = await Promise.all(hostsWith("doctor").map(async (host) => ({ host, doctor: await host.doctor() })));
  const found = hosts.filter(({ doctor }) => doctor.found(context));
  for (const { doctor } of found) checks.push(...(await doctor.check(context)));
  if (found.length === 0) {
    const looked = hosts
      .filter(({ doctor }) => doctor.locations !== undefined)
      .map(({ host, doctor }) => `${host.displayName} (${doctor.locations?.(context).join(", ")})`);
    checks.push(
      warn("hosts", `no agent host found: looked for ${looked.join(", ")}`, {
        fix: "Run your agent once, then `toolgate install <host>` (see `toolgate install --help`).",
      }),
    );
  }
  checks.push(...(await checkResidentHook(context)));
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
