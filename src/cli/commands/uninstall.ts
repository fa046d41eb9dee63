import { defineCommand } from "citty";
import { installArgs, runInstaller } from "./install.js";

export default defineCommand({
  meta: {
    name: "uninstall",
    description: `Remove exactly the hooks \`toolgate install\` added; every other setting stays.

Examples:
  toolgate uninstall claude-code
  toolgate uninstall claude-code --user --dry-run`,
  },
  args: installArgs,
  async run({ args }) {
    process.exitCode = await runInstaller({ action: "uninstall", args });
  },
});
