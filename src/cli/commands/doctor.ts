import { homedir } from "node:os";
import { hostsWith } from "../../hosts/registry.js";
import { defineCommand } from "../args/command-spec.js";
import { formatDoctor, runDoctor } from "../doctor/run-doctor.js";
import { EXIT } from "../exit-codes.js";
import { listOf } from "../help/host-help.js";
import { writeJson } from "../output/json-document.js";

export default defineCommand({
  meta: {
    name: "doctor",
    summary: "Check the installation: Node, config, each host's hooks or plugin, the store; each problem with its fix.",
    details:
      `Looks for ${listOf(
        hostsWith("doctor").map((host) =>
          host.help?.looksIn === undefined ? host.displayName : `${host.displayName} (${host.help.looksIn})`,
        ),
        "and",
      )}.\nA hook ` +
      "command is run with --version (5 s timeout) to prove it starts toolgate. The store is opened and closed; a\n" +
      "SQLite file that does not exist yet is not created. Postgres is checked when TOOLGATE_DATABASE_URL is set.",
    exitCodes: "0 every check ok or only warnings, 1 a check failed, 2 bad usage.",
    examples: ["toolgate doctor", "toolgate doctor --json   # { checks: [{ name, status, message, fix }], ok }"],
  },
  args: {
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
  },
  async run({ args }) {
    const checks = await runDoctor({ cwd: process.cwd(), env: process.env, home: homedir() });
    const ok = checks.every((check) => check.status !== "fail");
    if (args.json) writeJson({ checks, ok }, { pretty: true });
    else process.stdout.write(formatDoctor(checks));
    process.exitCode = ok ? EXIT.ok : EXIT.error;
  },
});
