import { defineCommand } from "citty";
import { ToolgateError } from "../../core/errors.js";
import { parseDuration } from "../../store/parse-since.js";
import { withStore } from "./report.js";

export default defineCommand({
  meta: {
    name: "prune",
    description:
      "Delete denial records and audit events older than a duration.\n\n" +
      "Examples:\n  toolgate prune --older-than 30d\n  toolgate prune --older-than 12w --json",
  },
  args: {
    "older-than": { type: "string", description: "delete rows older than this: 30d, 12h, 2w (required)" },
    json: { type: "boolean", description: "print the result as JSON", default: false },
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
        process.stdout.write(
          `${JSON.stringify({ store: store.location, before: new Date(before).toISOString(), ...deleted })}\n`,
        );
      else
        process.stdout.write(
          `deleted ${deleted.denials} denials and ${deleted.events} audit events older than ${new Date(before).toISOString()} from ${store.location}\n`,
        );
    });
  },
});
