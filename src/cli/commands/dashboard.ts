import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { loadAnalysisSetup } from "../../analyze/load-analysis-setup.js";
import { loadDashboardAssets } from "../../dashboard/server/load-dashboard-assets.js";
import { openSqlReader } from "../../dashboard/server/open-sql-reader.js";
import { isLoopback, serveDashboard } from "../../dashboard/server/serve-dashboard.js";
import { parseSince } from "../../store/parse-since.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { withStore } from "./report.js";

export default defineCommand({
  meta: {
    name: "dashboard",
    summary: "Serve a local web page of what agents tried and were refused: over time, per session, per rule.",
    details:
      "Reads the same store as `toolgate report` (TOOLGATE_DATABASE_URL, TOOLGATE_DB or the config's store\n" +
      "section), read-only. Listens on 127.0.0.1 on a free port and prints the URL with a per-run secret token;\n" +
      "requests without it get 401. Views: overview, sessions, policy tuning, live. Ctrl-C stops it.\n" +
      "Details in docs/dashboard.md.",
    exitCodes: "0 stopped (Ctrl-C), 2 bad usage, config or port, 7 the store could not be opened.",
    examples: [
      "toolgate dashboard --open",
      "toolgate dashboard --port 8377 --since 90d",
      "toolgate dashboard --host 0.0.0.0  # other machines too: prints a warning",
    ],
  },
  args: {
    port: { type: "string", description: "port to listen on (default: a free one)", default: "0", valueHint: "port" },
    host: {
      type: "string",
      description: "address to bind; anything but loopback is served only when given here",
      default: "127.0.0.1",
      valueHint: "address",
    },
    open: { type: "boolean", description: "open the page in your browser", default: false },
    since: {
      type: "string",
      description: "the page's default time range: 30d, 12h, or a date",
      default: "30d",
      valueHint: "duration|date",
    },
  },
  async run({ args }) {
    const port = Number(args.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      process.stderr.write(`toolgate dashboard: --port takes a whole number from 0 to 65535 (got ${args.port}).\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    await withStore("dashboard", async (store, { redactor, readSide, drain }) => {
      parseSince(args.since, Date.now()); // a bad --since is a usage error now, not a broken page later
      const setup = await loadAnalysisSetup({ cwd: process.cwd(), homeDir: homedir(), env: process.env });
      const reader = await openSqlReader(readSide.storeLocation());
      try {
        const remote = !isLoopback(args.host);
        if (remote) {
          process.stderr.write(
            `toolgate dashboard: warning: serving on ${args.host}, not loopback: anyone who can reach this machine and has the URL can read your denial records.\n`,
          );
        }
        const server = await serveDashboard({
          reader,
          denials: store.denials,
          defaultSince: args.since,
          redactText: (text) => redactor.redactText(text),
          // no allow rule is suggested where a deny rule in the settings would still win (as `toolgate report`)
          canGrant: setup.canGrant,
          refresh: drain,
          assets: loadDashboardAssets(),
          host: args.host,
          port,
          allowRemote: remote,
          onError: (error) =>
            process.stderr.write(`toolgate dashboard: ${error instanceof Error ? error.message : String(error)}\n`),
        });
        process.stdout.write(
          `toolgate dashboard: ${server.url}\n  store ${store.location} (read-only) · Ctrl-C to stop\n`,
        );
        if (args.open) openBrowser(server.url);
        await new Promise<void>((resolve) => {
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
        });
        await server.close();
      } finally {
        await reader.close();
      }
    });
  },
});

/** the platform's "open this URL" command, detached; a failure only means the user opens the printed URL */
function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  try {
    const child = spawn(command as string, args, { stdio: "ignore", detached: true });
    child.on("error", () =>
      process.stderr.write(`toolgate dashboard: could not open a browser; open the URL above.\n`),
    );
    child.unref();
  } catch {
    process.stderr.write("toolgate dashboard: could not open a browser; open the URL above.\n");
  }
}
