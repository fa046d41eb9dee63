import { HOOK_HOST_NAMES } from "../../hook-runtime/hook-hosts.js";
import { hostsWith } from "../../hosts/registry.js";
import { defineCommand } from "../args/command-spec.js";
import { examplesOf, formatExamples, hostExamples, hostsWithHelp, listOf } from "../help/host-help.js";

export default defineCommand({
  meta: {
    name: "hook",
    summary: `Answer one hook event of ${listOf(
      hostsWith("hookHost").map((host) => host.displayName),
      "or",
    )} (JSON on stdin); install wires it.`,
    details: async () => {
      // the hook entry `toolgate install <host>` writes, as the hosts describe it (the first that does)
      const [entries, budgets] = await Promise.all([
        Promise.all(hostsWithHelp("hookEntry").map(({ value }) => value())),
        import("../../hook-runtime/hook-budgets.js"),
      ]);
      const { HOOK_ANSWER_BUDGET_MS, HOOK_DRAIN_BUDGET_MS } = budgets;
      return `${entries
        .slice(0, 1)
        .map((entry) => `${entry}\n`)
        .join(
          "",
        )}That command runs the bundled hook entry (dist/hook/toolgate-hook.cjs, loaded through a code cache): the same code
path as \`toolgate hook <host>\`, at a fraction of the start-up cost.
A hook that fails or times out never lets a call through (exit 2 blocks it). The answer is written
as soon as it is decided (a decision that takes over ${HOOK_ANSWER_BUDGET_MS / 1000} s becomes the fail-closed answer); audit deliveries
(webhooks, command hooks) then get ${HOOK_DRAIN_BUDGET_MS / 1000} s before the process exits. State and denial records go to $TOOLGATE_DB
(default ~/.toolgate/toolgate.db), or Postgres with $TOOLGATE_DATABASE_URL.`;
    },
    exitCodes:
      "0 answered (a decision is in the JSON on stdout), 1 a non-blocking error on a non-gating event, 2 blocked (the reason on stderr) or bad usage.",
    examples: examplesOf(formatExamples(hostExamples("hook"), { align: true }), "toolgate hook <host> < event.json"),
  },
  args: {
    host: {
      type: "positional",
      required: true,
      description: "the host that sends the event",
      options: HOOK_HOST_NAMES,
    },
    event: {
      type: "positional",
      required: false,
      description: "the event, for a host whose payload does not name it (its installer writes it there)",
    },
  },
  async run({ args }) {
    // the same code path as the bundled hook entry (dist/hook/toolgate-hook.cjs): the answer is written at once,
    // deliveries get the drain budget, and the process exits with the host's code (an unknown host exits 2, which
    // every command-hook host treats as blocking: a misconfigured hook never lets a call through)
    const { runHookProcess } = await import("../../hook-runtime/run-hook-process.js");
    // an exception nothing caught blocks before the answer and keeps the answer's code after it, as in the entry
    let answered: number | undefined;
    const crashed = (error: unknown) => {
      process.stderr.write(`toolgate hook: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(answered ?? 2);
    };
    process.on("uncaughtException", crashed);
    process.on("unhandledRejection", crashed);
    const onAnswered = (exitCode: number) => {
      answered = exitCode;
    };
    process.exit(
      await runHookProcess({
        hostName: args.host,
        ...(typeof args.event === "string" ? { eventName: args.event } : {}),
        onAnswered,
      }),
    );
  },
});
