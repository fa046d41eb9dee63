import { join } from "node:path";
import { openStore } from "../../src/store/open-store.js";
import { makeRecord } from "../store/fixtures.js";

/**
 * Writes `count` denial records into a SQLite store under `home` (through the real store code) and returns the
 * TOOLGATE_DB path, for commands that read the store.
 */
export async function seedStore(options: { home: string; count: number }): Promise<string> {
  const filename = join(options.home, "toolgate.db");
  const store = await openStore({ location: { engine: "sqlite", filename } });
  try {
    const records = Array.from({ length: options.count }, (_, index) =>
      makeRecord({ seq: index + 1, at: Date.now() - (options.count - index) * 1000 }),
    );
    await store.denials.append(records);
  } finally {
    await store.close();
  }
  return filename;
}
