import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { type OpenToolgateForAiSdkOptions, openToolgateForAiSdk } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";

/** A temporary project (HOME included) with a toolgate config and its own SQLite store; `remove()` deletes it. */
export function tempProject(config: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-"));
  // logs off: the records under test go to the store, not to the test's stderr
  writeFileSync(
    join(dir, "toolgate.config.json"),
    JSON.stringify({ audit: { logs: { destination: "off" } }, ...config }),
  );
  const database = join(dir, "toolgate.db");
  const env = { HOME: dir, TOOLGATE_DB: database, PATH: process.env.PATH };
  return {
    dir,
    database,
    open: (options: Omit<OpenToolgateForAiSdkOptions, "cwd" | "env" | "homeDir"> = {}) =>
      openToolgateForAiSdk({ cwd: dir, env, homeDir: dir, ...options }),
    /** the denial rows in the store, oldest first */
    records(): { tool: string; source: string; tool_use_id: string; reason: string }[] {
      const db = new Database(database, { readonly: true });
      try {
        return db.prepare("SELECT tool, source, tool_use_id, reason FROM denials ORDER BY at, seq").all() as never;
      } finally {
        db.close();
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
