/**
 * Child-process worker for the claimed-batch test: drains a spool into a SQLite file as a hook's detached drain
 * does, but holds each claimed batch until the parent says "deliver" (IPC), after telling it "claimed".
 * argv: spool directory, SQLite file.
 */
import { openStore } from "../../src/store/open-store.js";
import { createSpool } from "../../src/store/spool.js";
import type { SpoolBatch } from "../../src/store/spooled-denial-store.js";

const [directory, filename] = process.argv.slice(2) as [string, string];
const store = await openStore({ location: { engine: "sqlite", filename } });
const spool = createSpool<SpoolBatch>({ directory, prefix: "denials" });
await spool.replay(async (batches) => {
  process.send?.("claimed");
  await new Promise<void>((resolve) => process.once("message", () => resolve()));
  for (const batch of batches) if (batch.kind === "denials") await store.denials.append(batch.records);
});
await store.close();
process.send?.("delivered");
process.disconnect();
