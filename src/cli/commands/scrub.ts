import { defineCommand } from "citty";
import type { DenialRecord } from "../../core/records.js";
import { withStore } from "./report.js";

export default defineCommand({
  meta: {
    name: "scrub",
    description:
      "Re-apply the current secret redaction (built-in detectors plus the config's redaction section) to every\n" +
      "stored denial, after adding a pattern or upgrading toolgate. Rewrites only rows that change.\n\nExamples:\n  toolgate scrub\n  TOOLGATE_DB=./ci.db toolgate scrub --json",
  },
  args: {
    json: { type: "boolean", description: "print the result as JSON", default: false },
  },
  async run({ args }) {
    await withStore("scrub", async (store, { redactor }) => {
      const redact = (record: DenialRecord): DenialRecord => {
        const next: DenialRecord = {
          ...record,
          reason: redactor.redactText(record.reason),
          inputSummary: redactor.redactText(record.inputSummary),
          input: redactor.redactValue(record.input),
        };
        if (record.rule !== undefined) next.rule = redactor.redactText(record.rule);
        if (record.labels !== undefined) next.labels = redactor.redactValue(record.labels) as Record<string, string>;
        return next;
      };
      const changed = await store.denials.scrub(redact);
      if (args.json) process.stdout.write(`${JSON.stringify({ store: store.location, changed })}\n`);
      else process.stdout.write(`scrubbed ${changed} stored denial${changed === 1 ? "" : "s"} in ${store.location}\n`);
    });
  },
});
