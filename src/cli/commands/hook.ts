import { HOOK_HOST_NAMES, HOOK_HOSTS } from "../../node/hook-hosts.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export default defineCommand({
  meta: {
    name: "hook",
    summary: "Answer one Claude Code hook event (JSON on stdin) and record it; `toolgate install` wires it.",
    details: async () => {
      const [{ defaultHookCommand }, { TOOLGATE_HOOK_EVENTS, HOOK_TIMEOUT_SECONDS }] = await Promise.all([
        import("../../adapters/claude-code/install-claude-code.js"),
        import("../../adapters/claude-code/settings-hooks.js"),
      ]);
      const entry = { type: "command", command: defaultHookCommand(), timeout: HOOK_TIMEOUT_SECONDS };
      const events = TOOLGATE_HOOK_EVENTS.map(({ event }) => event).join(", ");
      return `You do not run this yourself: \`toolgate install claude-code\` adds it to .claude/settings.json for
${events}.
For this toolgate and this node, each hook entry it writes is (tool events also get "matcher": "*"):
  ${JSON.stringify(entry)}
A hook that fails or times out never lets a call through (exit 2 blocks it in Claude Code). State and denial
records go to $TOOLGATE_DB (default ~/.toolgate/toolgate.db), or Postgres with $TOOLGATE_DATABASE_URL.`;
    },
    exitCodes:
      "0 answered (a decision is in the JSON on stdout), 1 a non-blocking error on a non-gating event, 2 blocked (the reason on stderr) or bad usage.",
    examples: [
      `echo '{"hook_event_name":"PreToolUse","session_id":"s1","tool_use_id":"toolu_1","tool_name":"Bash","tool_input":{"command":"ls"}}' | toolgate hook claude-code`,
      "toolgate install claude-code --dry-run   # shows the hook entries it would write",
    ],
  },
  args: {
    host: {
      type: "positional",
      required: true,
      description: "the host that sends the event",
      options: HOOK_HOST_NAMES,
    },
  },
  async run({ args }) {
    const load = HOOK_HOSTS[args.host];
    if (load === undefined) {
      process.stderr.write(
        `toolgate hook: unknown host "${args.host}". Supported: ${HOOK_HOST_NAMES.join(", ")}. Example: toolgate hook claude-code\n`,
      );
      // Exit 2 is also what Claude Code treats as blocking: a misconfigured hook never lets a call through.
      process.exitCode = EXIT.usage;
      return;
    }
    const stdinText = process.stdin.isTTY ? "" : await readStdin();
    const [{ runHook }, host] = await Promise.all([import("../../node/run-hook.js"), load()]);
    const answer = await runHook(host, { stdinText });
    if (answer.output !== undefined) process.stdout.write(`${JSON.stringify(answer.output)}\n`);
    if (answer.stderr !== undefined) process.stderr.write(`${answer.stderr}\n`);
    process.exitCode = answer.exitCode;
  },
});
