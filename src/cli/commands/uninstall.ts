import { defineCommand } from "../args/command-spec.js";
import { examplesOf, formatExamples, hostExamples, hostsWithHelp, listOf } from "../help/host-help.js";
import { installArgs, runInstaller } from "./install.js";

/** The hosts whose toolgate entry `--command` names (a plugin URL): the others' entries are found without it. */
const WITH_COMMAND = hostsWithHelp("uninstallCommand");

export default defineCommand({
  meta: {
    name: "uninstall",
    summary: "Remove exactly what `toolgate install` added (hooks, plugin, MCP proxy); every other setting stays.",
    details: hostsWithHelp("uninstall")
      .map(({ host, value }) => `${host.displayName}: ${value}`)
      .join("\n"),
    exitCodes: "0 removed or not installed, 2 bad usage or a settings file that is not valid JSON.",
    examples: examplesOf(
      [
        ...formatExamples(hostExamples("uninstall"), { align: true }),
        ...formatExamples(hostExamples("mcpProxy.uninstall"), { align: true }),
      ],
      "toolgate uninstall <host>",
    ),
  },
  args: {
    ...withoutResident(installArgs),
    command: {
      type: "string",
      description: `${listOf(
        WITH_COMMAND.map(({ host }) => host.displayName),
        "and",
      )} only: ${WITH_COMMAND.map(({ value }) => value).join("; ")} (the other hosts' entries are found without it)`,
      valueHint: "plugin-url",
    },
  },
  async run({ args }) {
    process.exitCode = await runInstaller({ action: "uninstall", args });
  },
});

/** The install arguments an uninstall takes: all but `--resident` (an uninstall finds either command). */
function withoutResident<T extends { resident: unknown }>(args: T): Omit<T, "resident"> {
  const { resident: _resident, ...rest } = args;
  return rest;
}
