import { defineCommand } from "citty";
import { ToolgateError } from "../../core/errors.js";
import type { StoredDenial } from "../../store/ports.js";
import { withStore } from "./report.js";

function line(record: StoredDenial): string {
  const agent = record.agentId ? ` agent=${record.agentId}` : "";
  return `${record.timestamp}  ${record.sessionId} turn ${record.turn}${agent}  ${record.tool}  [${record.source}] ${record.inputSummary}  — ${record.reason}`;
}

export default defineCommand({
  meta: {
    name: "tail",
    description:
      "Print the latest denials, then follow new ones as they are recorded (Ctrl-C stops).\n\n" +
      "Examples:\n  toolgate tail\n  toolgate tail --lines 50 --json\n  toolgate tail --session 3f2c… --no-follow",
  },
  args: {
    lines: { type: "string", description: "how many recent denials to show first (default 10)", default: "10" },
    session: { type: "string", description: "only this session id" },
    tool: { type: "string", description: "only this tool name" },
    follow: { type: "boolean", description: "keep following new denials (default true)", default: true },
    interval: { type: "string", description: "poll interval in ms (default 1000)", default: "1000" },
    json: { type: "boolean", description: "one JSON object per line", default: false },
  },
  async run({ args }) {
    await withStore("tail", async (store) => {
      const count = Number(args.lines);
      const interval = Number(args.interval);
      if (!Number.isInteger(count) || count < 0 || !Number.isInteger(interval) || interval < 50) {
        throw new ToolgateError({
          code: "INPUT_INVALID",
          message: "--lines must be a whole number ≥ 0 and --interval a whole number of ms ≥ 50.",
        });
      }
      const filter = {
        ...(args.session ? { sessionId: args.session } : {}),
        ...(args.tool ? { tool: args.tool } : {}),
      };
      const print = (record: StoredDenial) =>
        process.stdout.write(`${args.json ? JSON.stringify(record) : line(record)}\n`);
      const recent =
        count === 0 ? [] : (await store.denials.query({ ...filter, order: "desc", limit: count })).reverse();
      recent.forEach(print);
      let afterId = recent.at(-1)?.id ?? (await store.denials.query({ order: "desc", limit: 1 }))[0]?.id ?? 0;
      if (!args.follow) return;
      let stopped = false;
      const stop = () => {
        stopped = true;
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      while (!stopped) {
        for (const record of await store.denials.query({ ...filter, afterId, limit: 1000 })) {
          print(record);
          afterId = record.id;
        }
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    });
  },
});
