import { existsSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { mergeConfigs } from "../../config/merge-configs.js";
import { parseConfig } from "../../config/parse-config.js";
import type { ToolgateConfig } from "../../config/schema.js";
import { ToolgateError } from "../../core/errors.js";
import { hostsWith } from "../../hosts/registry.js";
import { findProjectConfig } from "../../root/load-config.js";
import { readJsonFile } from "../../root/read-json-file.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

const IMPORTERS = hostsWith("importRules");

const EXAMPLES = IMPORTERS.map((host) => host.importRules.example);

const DETAILS = `Reads the real files: ${IMPORTERS.map((host) => host.importRules.describe).join("; ")}. Prints the config, or
merges it into ./toolgate.config.json with --write. Every rule that cannot be expressed is reported on stderr.`;

export default defineCommand({
  meta: {
    name: "import",
    summary: `Convert ${new Intl.ListFormat("en", { type: "disjunction" }).format(IMPORTERS.map((host) => host.displayName))} permission rules into a toolgate config.`,
    details: DETAILS,
    exitCodes: "0 done, 2 bad usage or a file that cannot be read or converted.",
    examples: [EXAMPLES[0] ?? "toolgate import <host>", ...EXAMPLES.slice(1)],
  },
  args: {
    host: {
      type: "positional",
      description: "whose rules to read",
      required: true,
      options: IMPORTERS.map((host) => host.name),
    },
    path: {
      type: "positional",
      description: "a settings/config/policy file or directory (default: the usual places)",
      required: false,
    },
    write: { type: "boolean", description: "merge into ./toolgate.config.json instead of printing", default: false },
  },
  async run({ args }) {
    const host = IMPORTERS.find((candidate) => candidate.name === String(args.host));
    if (host === undefined) {
      process.stderr.write(
        `toolgate import: unknown host ${JSON.stringify(args.host)}; use ${IMPORTERS.map((candidate) => candidate.name).join(", ")}.\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    const cwd = process.cwd();
    try {
      const importer = await host.importRules.load();
      const imported = importer({ cwd, homeDir: homedir(), ...(args.path ? { path: String(args.path) } : {}) });
      const config: ToolgateConfig = { permissions: imported.permissions as ToolgateConfig["permissions"] };
      const checked = parseConfig(config, { file: "the imported config" });
      if (!checked.ok) throw checked.error;
      process.stderr.write(`read: ${imported.files.join(", ")}\n`);
      for (const note of imported.notes) process.stderr.write(`note: ${note}\n`);
      for (const item of imported.unsupported) process.stderr.write(`cannot express: ${item.entry}: ${item.reason}\n`);
      if (!args.write) {
        process.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
        return;
      }
      const target = findProjectConfig(cwd) ?? join(cwd, "toolgate.config.json");
      // a target that holds `null` (or `[]`) is a config error like any other, never read as empty and overwritten
      const current = existsSync(target) ? readJsonFile(target) : undefined;
      const existing =
        current === undefined ? { ok: true as const, config: {} } : parseConfig(current, { file: target });
      if (!existing.ok) throw existing.error;
      const merged = mergeConfigs(existing.config, config);
      writeFileSync(target, `${JSON.stringify(merged, null, 2)}\n`);
      process.stderr.write(`wrote ${target}\n`);
    } catch (error) {
      if (!ToolgateError.is(error)) throw error;
      process.stderr.write(`toolgate import: ${error.message}\n`);
      process.exitCode = EXIT.usage;
    }
  },
});
