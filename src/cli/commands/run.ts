import { existsSync } from "node:fs";
import type { DenialRecord } from "../../core/records.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import type { FailOn } from "../run/run-report.js";

const FAIL_ON = ["any", "abort", "never"] as const satisfies readonly FailOn[];

async function lookUpSession(sessionId: string | undefined): Promise<{
  records: DenialRecord[];
  aborted?: { reason: string };
}> {
  if (sessionId === undefined) return { records: [] };
  const [{ resolveStoreLocation }, { openStore }] = await Promise.all([
    import("../../store/resolve-store-location.js"),
    import("../../store/open-store.js"),
  ]);
  const location = resolveStoreLocation({ env: process.env });
  if (location.engine === "memory" || (location.engine === "sqlite" && !existsSync(location.filename))) {
    return { records: [] };
  }
  const store = await openStore({ location });
  try {
    const records = await store.denials.query({ sessionId });
    const state = (await store.sessions.get(sessionId))?.state;
    if (state?.aborted === undefined) return { records };
    const events = await store.denials.queryEvents({ sessionId, kinds: ["run.aborted"] });
    const detail = events.at(-1)?.detail ?? {};
    const reason =
      typeof detail.error === "string" ? detail.error : `aborted at ${state.aborted.tool}: ${state.aborted.reason}`;
    return { records, aborted: { reason } };
  } finally {
    await store.close();
  }
}

export default defineCommand({
  meta: {
    name: "run",
    summary: "Run an agent command, pass its output through, and fail the job when a denial blocked it.",
    usageTail: "-- <agent command...>",
    details: `A summary of the denied calls, grouped by pattern with their variants, goes to stderr: the deny rule to
narrow where one won (no allow rule overrides it), else the minimal allow rule for each. Everything after \`--\` (or from the first word that is not a toolgate flag) is the agent's command line,
passed on untouched: toolgate never reads its flags.`,
    exitCodes:
      "5 when calls were denied (with --fail-on any, the default), 6 when toolgate aborted the run, otherwise the agent's own exit code.",
    examples: [
      `toolgate run -- claude -p "fix the build" --output-format stream-json --verbose`,
      `toolgate run --fail-on abort -- claude -p "tidy up" --output-format stream-json --verbose`,
    ],
  },
  passthrough: true,
  args: {
    "fail-on": {
      type: "enum",
      description: "when a denial fails the run: any, abort (only when toolgate aborts), never",
      options: FAIL_ON,
      default: "any",
    },
  },
  async run({ args, rest }) {
    const failOn: FailOn = args["fail-on"];
    if (!FAIL_ON.includes(failOn)) {
      process.stderr.write(`toolgate run: --fail-on must be one of ${FAIL_ON.join(", ")}.\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    const command = rest;
    if (command.length === 0) {
      process.stderr.write('toolgate run: give the agent command after "--", e.g. toolgate run -- claude -p "..."\n');
      process.exitCode = EXIT.usage;
      return;
    }
    const [{ runAgent }, { decideRunOutcome, formatRunReport }, { describeForReport }] = await Promise.all([
      import("../run/run-agent.js"),
      import("../run/run-report.js"),
      import("../run/describe-for-report.js"),
    ]);
    let run: Awaited<ReturnType<typeof runAgent>>;
    try {
      run = await runAgent({ command, environment: { TOOLGATE_RUN: "1" } });
    } catch (error) {
      process.stderr.write(`toolgate run: could not start ${command[0]}: ${(error as Error).message}\n`);
      process.exitCode = EXIT.error;
      return;
    }
    let session: Awaited<ReturnType<typeof lookUpSession>> = { records: [] };
    try {
      session = await lookUpSession(run.stream?.sessionId);
    } catch (error) {
      process.stderr.write(`toolgate run: could not read toolgate's store (${(error as Error).message}).\n`);
    }
    const outcome = decideRunOutcome({
      agentExitCode: run.exitCode,
      stream: run.stream,
      records: session.records,
      ...(session.aborted === undefined ? {} : { aborted: session.aborted }),
      failOn,
      describe: describeForReport(),
    });
    process.stderr.write(formatRunReport(outcome));
    process.exitCode = outcome.exitCode;
  },
});
