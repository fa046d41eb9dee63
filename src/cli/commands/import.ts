import { existsSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { importQwen } from "../../adapters/qwen/import-qwen.js";
import { mergeConfigs } from "../../config/merge-configs.js";
import { parseConfig } from "../../config/parse-config.js";
import type { ToolgateConfig } from "../../config/schema.js";
import { ToolgateError } from "../../core/errors.js";
import { importCodex } from "../../node/import-codex.js";
import { importClaudeCode, importGemini, importOpencode } from "../../node/import-sources.js";
import { findProjectConfig } from "../../node/load-config.js";
import { readJsonFile } from "../../node/read-json-file.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

const DETAILS = `Reads the real files: Claude Code's settings hierarchy (.claude/settings.json, .claude/settings.local.json,
~/.claude/settings.json, managed settings), opencode's \`permission\` (opencode.json[c] here or in ~/.config/opencode),
or Gemini CLI's policies (.gemini/policies/*.toml, ~/.gemini/policies/*.toml), or Codex's execpolicy
.rules files ($CODEX_HOME/rules/*.rules, .codex/rules/*.rules; literal prefix_rule calls only). Qwen Code's
\`permissions\` and \`tools.exclude\` (.qwen/settings.json, ~/.qwen/settings.json). Prints the config, or merges it into
./toolgate.config.json with --write. Every rule that cannot be expressed is reported on stderr.`;

const IMPORTERS = {
  "claude-code": importClaudeCode,
  opencode: importOpencode,
  gemini: importGemini,
  codex: importCodex,
  qwen: importQwen,
} as const;

export default defineCommand({
  meta: {
    name: "import",
    summary: "Convert Claude Code, opencode, Gemini CLI, Codex or Qwen Code permission rules into a toolgate config.",
    details: DETAILS,
    exitCodes: "0 done, 2 bad usage or a file that cannot be read or converted.",
    examples: [
      "toolgate import claude-code",
      "toolgate import opencode ./opencode.json --write",
      "toolgate import gemini ~/.gemini/policies/my-rules.toml",
      "toolgate import codex                      # $CODEX_HOME/rules/*.rules (+ the trusted project's)",
      "toolgate import qwen                       # .qwen/settings.json and ~/.qwen/settings.json permissions",
    ],
  },
  args: {
    host: {
      type: "positional",
      description: "whose rules to read",
      required: true,
      options: Object.keys(IMPORTERS) as (keyof typeof IMPORTERS)[],
    },
    path: {
      type: "positional",
      description: "a settings/config/policy file or directory (default: the usual places)",
      required: false,
    },
    write: { type: "boolean", description: "merge into ./toolgate.config.json instead of printing", default: false },
  },
  run({ args }) {
    const importer = IMPORTERS[String(args.host) as keyof typeof IMPORTERS];
    if (importer === undefined) {
      process.stderr.write(
        `toolgate import: unknown host ${JSON.stringify(args.host)}; use claude-code, opencode, gemini or codex.\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    const cwd = process.cwd();
    try {
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
