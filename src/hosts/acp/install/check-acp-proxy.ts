import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DoctorCheck, type DoctorContext, ok, warn } from "../../common/doctor-check.js";
import { parseJsonc } from "../../common/json-file-edit.js";
import { agentCommandLine, originalAgentCommandLine } from "./acp-agent-command-line.js";
import { ACP_EDITORS } from "./acp-editors.js";

/** The editors' user settings files that exist here, with the editor's name. */
function userFiles(context: DoctorContext): { editor: string; file: string }[] {
  return ACP_EDITORS.map((editor) => ({
    editor: editor.name,
    file: join(...editor.file({ scope: "user", cwd: context.cwd, home: context.home, env: context.env })),
  }));
}

/** Where doctor looks for editors that launch ACP agents. */
export function acpProxyLocations(context: DoctorContext): string[] {
  return userFiles(context).map(({ file }) => file);
}

/** Whether an editor's settings with ACP agents are here. */
export function acpProxyFound(context: DoctorContext): boolean {
  return userFiles(context).some(({ file }) => existsSync(file));
}

/** One line per editor settings file: which ACP agents run through `toolgate acp-proxy`, and which do not. */
export function checkAcpProxy(context: DoctorContext): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  for (const { editor, file } of userFiles(context)) {
    if (!existsSync(file)) continue;
    const name = `acp-proxy (${editor})`;
    let servers: unknown;
    try {
      servers = (parseJsonc(readFileSync(file, "utf8")) as Record<string, unknown> | null)?.["agent_servers"];
    } catch (error) {
      checks.push(warn(name, `${file} is not valid JSON (${(error as Error).message}).`, { fix: `Fix ${file}.` }));
      continue;
    }
    const entries = typeof servers === "object" && servers !== null ? Object.entries(servers) : [];
    const lines = entries.flatMap(([agent, entry]) => {
      const line =
        typeof entry === "object" && entry !== null ? agentCommandLine(entry as Record<string, unknown>) : undefined;
      return line === undefined ? [] : [{ agent, proxied: originalAgentCommandLine(line) !== undefined }];
    });
    const bare = lines.filter((line) => !line.proxied).map((line) => line.agent);
    if (bare.length > 0) {
      checks.push(
        warn(name, `${file}: ${bare.join(", ")} ${bare.length === 1 ? "runs" : "run"} without toolgate.`, {
          fix: `toolgate install acp-proxy --editor ${editor} --user`,
        }),
      );
    } else if (lines.length > 0) {
      checks.push(ok(name, `${file}: every ACP agent with a command runs through toolgate acp-proxy.`));
    }
  }
  return checks;
}
