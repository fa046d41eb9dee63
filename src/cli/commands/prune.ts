import { ToolgateError } from "../../core/errors.js";
import { plural } from "../../core/plural.js";
import { parseDuration } from "../../store/parse-since.js";
import { defineCommand } from "../args/command-spec.js";
import { writeJson } from "../output/json-document.js";
import { withStore } from "./report.js";

export default defineCommand({
  meta: {
    name: "prune",
    summary: "Delete stored denial records and audit events older than a duration.",
    details: "Reads the store chosen by TOOLGATE_DATABASE_URL, TOOLGATE_DB or the config's store section.",
    exitCodes: "0 done, 2 bad usage, 7 the store could not be opened.",
    examples: ["toolgate prune --older-than 30d", "toolgate prune --older-than 12w --json"],
  },
  args: {
    "older-than": {
      type: "string",
      description: "delete rows older than this: 30d, 12h, 2w",
      required: true,
      valueHint: "duration",
    },
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
  },
  async run({ args }) {
    await withStore("prune", async (store) => {
      const olderThan = args["older-than"];
      if (!olderThan) {
        throw new ToolgateError({
          code: "INPUT_INVALID",
          message: "--older-than is required, for example --older-than 30d.",
        });
      }
      const before = Date.now() - parseDuration(olderThan, "--older-than");
      const deleted = await store.denials.prune(before);
      if (args.json)
        writeJson({
          store: store.location,
          before: new Date(before).toISOString(),
          denials: deleted.denials,
          events: deleted.events,
          warnings: [],
        });
      else
        process.stdout.write(
          `deleted ${plural(deleted.denials, "denial", "denials")} and ${plural(deleted.events, "audit event", "audit events")} older than ${new Date(before).toISOString()} from ${store.location}\n`,
        );
    });
  },
});
