import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostsWith } from "../../hosts/registry.js";
import { lookUpRunSessions } from "../../root/look-up-run-sessions.js";
import { RUN_DIRECTORY_ENV, runAbort, runSessions } from "../../root/run-sessions.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { examplesOf, runCommandExamples } from "../help/host-help.js";
import type { FailOn } from "../run/run-report.js";

/** How long an agent whose hooks end the run themselves gets after an abort (then `run` ends it). */
const HOST_STOP_GRACE_MS = 15_000;

const FAIL_ON = ["any", "abort", "never"] as const satisfies readonly FailOn[];

/** The agent command lines whose stream `run` reads, from the hosts' help (`claude -p ... stream-json`). */
const STREAM_COMMANDS = runCommandExamples();

/** `toolgate run -- <agent>` for each host's streaming command line, and `--fail-on abort` once. */
function runExamples(): [string, ...string[]] {
  const [first, ...rest] = STREAM_COMMANDS;
  if (first === undefined) return ["toolgate run -- <agent command...>"];
  return examplesOf(
    [
      `toolgate run -- ${first}`,
      `toolgate run --fail-on abort -- ${first}`,
      ...rest.map((line) => `toolgate run -- ${line}`),
    ],
    "toolgate run -- <agent command...>",
  );
}

/** The warning when neither a hook nor a readable stream saw the run: how to get one of them. */
function unseenRunWarning(): string {
  const installable = hostsWith("installer")
    .filter((host) => host.kind !== "proxy")
    .map((host) => host.name);
  const stream = STREAM_COMMANDS[0] === undefined ? "" : ` (e.g. ${STREAM_COMMANDS[0]})`;
  return `toolgate run: warning: no toolgate hook ran for this agent and its output is not a stream toolgate reads, so denials cannot be counted. Install the hooks (toolgate install ${installable.join(" | ")}), or run the agent with its JSON stream output${stream}.\n`;
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
      "5 when calls were denied (with --fail-on any, the default), 6 when toolgate aborted the run (the agent is ended: SIGTERM, then SIGKILL after 5 s), 127 when the agent command is not found and 126 when it is not executable (as sh), otherwise the agent's own exit code.",
    examples: runExamples(),
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
      process.stderr.write(
        `toolgate run: give the agent command after "--", e.g. toolgate run -- ${STREAM_COMMANDS[0] ?? "my-agent --flag"}\n`,
      );
      process.exitCode = EXIT.usage;
      return;
    }
    const [{ runAgent }, { decideRunOutcome, formatRunReport }, { describeForReport }, { addRunDenials }] =
      await Promise.all([
        import("../run/run-agent.js"),
        import("../run/run-report.js"),
        import("../run/describe-for-report.js"),
        import("../run/run-denials.js"),
      ]);
    // the child's hook processes and plugins note their sessions here (hosts pass their environment on)
    const runDirectory = mkdtempSync(join(tmpdir(), "toolgate-run-"));
    // also when toolgate ends early (a reader that closed our stdout ends the process from its error handler)
    const removeRunDirectory = () => rmSync(runDirectory, { recursive: true, force: true });
    process.once("exit", removeRunDirectory);
    let run: Awaited<ReturnType<typeof runAgent>>;
    let noted: string[];
    try {
      // a hook that aborted a session notes it here; the agent is ended then (not every host can stop itself)
      run = await runAgent({
        command,
        environment: { TOOLGATE_RUN: "1", [RUN_DIRECTORY_ENV]: runDirectory },
        stopWhen: () => {
          const abort = runAbort(runDirectory);
          // a host whose own answer ends the run gets time to do so (and to write its result); then a backstop
          if (abort === undefined || (abort.hostEndsRun && Date.now() - abort.at < HOST_STOP_GRACE_MS)) return;
          return abort.reason;
        },
      });
      noted = runSessions(runDirectory);
    } catch (error) {
      // the shell's codes and words for a command that cannot start, so scripts read them as they would from sh
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        process.stderr.write(
          `toolgate run: ${command[0]}: command not found (check its name, or give its full path; PATH is searched)\n`,
        );
        process.exitCode = EXIT.notFound;
      } else if (code === "EACCES") {
        process.stderr.write(`toolgate run: ${command[0]}: permission denied (the file is not executable)\n`);
        process.exitCode = EXIT.notExecutable;
      } else {
        process.stderr.write(`toolgate run: could not start ${command[0]}: ${(error as Error).message}\n`);
        process.exitCode = EXIT.error;
      }
      return;
    } finally {
      process.off("exit", removeRunDirectory);
      removeRunDirectory();
    }
    // the denials the host's stream does not show, from the host's own session files
    await addRunDenials({ stream: run.stream, env: process.env });
    const sessionIds = [...new Set([...noted, ...(run.stream?.sessionId === undefined ? [] : [run.stream.sessionId])])];
    let session: Awaited<ReturnType<typeof lookUpRunSessions>> = { records: [], events: [], sessions: 0 };
    try {
      session = await lookUpRunSessions(sessionIds);
    } catch (error) {
      process.stderr.write(`toolgate run: could not read toolgate's store (${(error as Error).message}).\n`);
    }
    if (noted.length === 0 && run.stream === undefined) {
      process.stderr.write(unseenRunWarning());
    }
    const outcome = decideRunOutcome({
      agentExitCode: run.exitCode,
      stream: run.stream,
      records: session.records,
      events: session.events,
      ...(session.aborted !== undefined
        ? { aborted: session.aborted }
        : run.stopped === undefined
          ? {}
          : { aborted: { reason: run.stopped } }),
      failOn,
      describe: describeForReport(),
    });
    process.stderr.write(formatRunReport(outcome));
    process.exitCode = outcome.exitCode;
  },
});
