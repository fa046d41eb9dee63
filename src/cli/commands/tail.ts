import { ToolgateError } from "../../core/errors.js";
import type { StoredDenial } from "../../store/ports.js";
import { defineCommand } from "../args/command-spec.js";
import { resolveSession } from "../args/resolve-session.js";
import { denialDocument } from "../output/denial-output.js";
import { withStore } from "./report.js";

function line(record: StoredDenial): string {
  const agent = record.agentId ? ` agent=${record.agentId}` : "";
  return `${record.timestamp}  ${record.sessionId} turn ${record.turn}${agent}  ${record.tool}  [${record.source}] ${record.inputSummary}  — ${record.reason}`;
}

export default defineCommand({
  meta: {
    name: "tail",
    summary: "Print the latest denials, then follow new ones as they are recorded (Ctrl-C stops).",
    details:
      "Reads the store chosen by TOOLGATE_DATABASE_URL, TOOLGATE_DB or the config's store section. With --json,\n" +
      "each denial is one JSON object on its own line (shape in docs/cli.md).",
    exitCodes: "0 done, 2 bad usage or config, 7 the store could not be opened.",
    examples: [
      "toolgate tail",
      "toolgate tail --lines 50 --json",
      "toolgate tail --session 3f2c9a1e --no-follow",
      "toolgate tail --no-follow --json | head -1",
    ],
  },
  args: {
    lines: { type: "string", description: "how many recent denials to show first", default: "10", valueHint: "count" },
    session: {
      type: "string",
      description: "only this session: its id, or enough of its start to name one (3f2c9a1e)",
      valueHint: "id",
    },
    tool: {
      type: "string",
      description: "only this tool, canonically (shell) or as any host names it",
      valueHint: "tool",
    },
    follow: { type: "boolean", description: "print the recent denials and stop, instead of following", default: true },
    interval: { type: "string", description: "poll interval in ms, at least 50", default: "1000", valueHint: "ms" },
    json: { type: "boolean", description: "one JSON object per denial, one per line", default: false },
  },
  async run({ args }) {
    await withStore("tail", async (store, { drain }) => {
      const count = Number(args.lines);
      const interval = Number(args.interval);
      if (!Number.isInteger(count) || count < 0 || !Number.isInteger(interval) || interval < 50) {
        throw new ToolgateError({
          code: "INPUT_INVALID",
          message: "--lines must be a whole number ≥ 0 and --interval a whole number of ms ≥ 50.",
        });
      }
      const session = args.session ? await resolveSession(store.denials, args.session) : undefined;
      const filter = {
        ...(session ? { sessionId: session } : {}),
        ...(args.tool ? { tool: args.tool } : {}),
      };
      const print = (record: StoredDenial) =>
        process.stdout.write(`${args.json ? JSON.stringify(denialDocument(record)) : line(record)}\n`);
      const recent =
        count === 0 ? [] : (await store.denials.query({ ...filter, order: "desc", limit: count })).reverse();
      recent.forEach(print);
      // an empty answer on stdout is not left to be read as "nothing happened": stderr says what was searched
      const matching = [session ? `session ${session}` : "", args.tool ? `tool ${args.tool}` : ""]
        .filter(Boolean)
        .join(", ");
      if (count > 0 && recent.length === 0) {
        process.stderr.write(
          `toolgate tail: no denials recorded${matching ? ` for ${matching}` : ""} in ${store.location}\n`,
        );
      }
      let afterId = recent.at(-1)?.id ?? (await store.denials.query({ order: "desc", limit: 1 }))[0]?.id ?? 0;
      if (!args.follow) return;
      process.stderr.write(`toolgate tail: following new denials in ${store.location} (Ctrl-C stops)\n`);
      let stopped = false;
      const stop = () => {
        stopped = true;
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      while (!stopped) {
        await drain().catch(() => 0); // a batch the store refuses stays spooled for the next poll
        for (const record of await store.denials.query({ ...filter, afterId, limit: 1000 })) {
          print(record);
          afterId = record.id;
        }
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    });
  },
});
