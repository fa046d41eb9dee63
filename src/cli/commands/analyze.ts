import { homedir } from "node:os";
import { ANALYZE_HOSTS } from "../../analyze/formats.js";
import { type RunAnalyzeOptions, runAnalyze } from "../../analyze/run-analyze.js";
import { ToolgateError } from "../../core/errors.js";
import { hostsWith } from "../../hosts/registry.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { formatExamples, hostExamples, listOf } from "../help/host-help.js";

/** The hosts whose transcripts `analyze` reads, by their display names. */
const READ_HOSTS = listOf(
  hostsWith("transcriptFormats").map((host) => host.displayName),
  "and",
);

export default defineCommand({
  meta: {
    name: "analyze",
    summary: "Find denial loops and wasted calls in the session transcripts your agents already wrote.",
    details:
      `Reads ${READ_HOSTS} transcripts (session stores and headless\n` +
      "outputs), replays them through toolgate with your config, and shows the denials, the loops, the calls\n" +
      "wasted after a denial and the ones toolgate would have saved. With no path it searches the hosts' default\n" +
      "locations. Figures are explained in docs/analyze.md.",
    exitCodes: "0 done (also when no history was found), 2 bad usage or config, 7 the store could not be opened.",
    examples: [
      "toolgate analyze",
      ...formatExamples(hostExamples("analyze"), { align: false }),
      "toolgate analyze ci-logs/ --html toolgate-report.html  # one offline page to attach to the CI run",
    ],
  },
  args: {
    paths: { type: "positional", multiple: true, description: "transcript files, directories or globs" },
    since: {
      type: "string",
      description: "only sessions newer than this: 7d, 12h, or a date",
      valueHint: "duration|date",
    },
    host: { type: "enum", options: ANALYZE_HOSTS, description: "read every file as this host's format" },
    session: { type: "string", description: "only sessions whose id starts with this", valueHint: "id" },
    save: { type: "boolean", description: "append the denials to the store (idempotent)", default: false },
    json: { type: "boolean", description: "print one JSON document (shape in docs/analyze.md)", default: false },
    html: {
      type: "string",
      description: "also write the dashboard's views as one self-contained HTML file",
      valueHint: "file",
    },
  },
  async run({ args }) {
    try {
      const run =
        args.html === undefined
          ? runAnalyze
          : async (options: RunAnalyzeOptions) => {
              const { analyzeToHtml } = await import("../../dashboard/analyze-to-html.js");
              return analyzeToHtml({ ...options, file: args.html as string });
            };
      await run({
        paths: args.paths,
        save: args.save,
        json: args.json,
        cwd: process.cwd(),
        homeDir: homedir(),
        env: process.env,
        stdout: process.stdout,
        stderr: process.stderr,
        ...(args.host === undefined ? {} : { host: args.host }),
        ...(args.since === undefined ? {} : { since: args.since }),
        ...(args.session === undefined ? {} : { session: args.session }),
      });
    } catch (error) {
      if (!ToolgateError.is(error)) throw error;
      process.stderr.write(`toolgate analyze: ${error.message}\n`);
      process.exitCode = /^(STORE|MIGRATION)/.test(error.code) ? EXIT.store : EXIT.usage;
    }
  },
});
