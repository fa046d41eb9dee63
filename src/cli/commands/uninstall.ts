import { defineCommand } from "../args/command-spec.js";
import { installArgs, runInstaller } from "./install.js";

export default defineCommand({
  meta: {
    name: "uninstall",
    summary: "Remove exactly what `toolgate install` added (hooks, plugin, MCP proxy); every other setting stays.",
    details:
      "Claude Code: every hook whose command ends in `hook claude-code` is removed, whatever path runs toolgate.\n" +
      "opencode: every plugin entry that points at toolgate's opencode plugin is removed.",
    exitCodes: "0 removed or not installed, 2 bad usage or a settings file that is not valid JSON.",
    examples: [
      "toolgate uninstall claude-code",
      "toolgate uninstall claude-code --user --dry-run",
      "toolgate uninstall opencode --command file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js",
      "toolgate uninstall mcp-proxy --host claude-code --server fs   # the entry's own command line again",
    ],
  },
  args: {
    ...installArgs,
    command: {
      type: "string",
      description:
        "opencode only: also remove this plugin entry, if you installed one with --command (Claude Code hooks are found without it)",
      valueHint: "plugin-url",
    },
  },
  async run({ args }) {
    process.exitCode = await runInstaller({ action: "uninstall", args });
  },
});
