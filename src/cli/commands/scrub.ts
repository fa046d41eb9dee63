import type { DenialRecord } from "../../core/records.js";
import { defineCommand } from "../args/command-spec.js";
import { writeJson } from "../output/json-document.js";
import { withStore } from "./report.js";

export default defineCommand({
  meta: {
    name: "scrub",
    summary:
      "Re-apply the current secret redaction to every stored denial and session description (after adding a pattern or upgrading).",
    details:
      "Uses the built-in detectors plus the config's redaction section, and rewrites only rows that change.\n" +
      "Reads the store chosen by TOOLGATE_DATABASE_URL, TOOLGATE_DB or the config's store section.",
    exitCodes: "0 done, 2 bad usage or config, 7 the store could not be opened.",
    examples: ["toolgate scrub", "TOOLGATE_DB=./ci.db toolgate scrub --json"],
  },
  args: {
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
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
      // a session's project and first prompt line (session_info): a pasted key in a prompt is the likeliest leak
      const sessions = await store.denials.scrubSessionInfo((text) => redactor.redactText(text));
      if (args.json) writeJson({ store: store.location, changed, sessions, warnings: [] });
      else
        process.stdout.write(
          `scrubbed ${changed} stored denial${changed === 1 ? "" : "s"} and ${sessions} session description${sessions === 1 ? "" : "s"} in ${store.location}\n`,
        );
    });
  },
});
