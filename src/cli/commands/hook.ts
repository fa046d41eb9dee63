import { defineCommand } from "citty";
import { EXIT } from "../exit-codes.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const SUPPORTED_HOSTS = ["claude-code"];

export default defineCommand({
  meta: {
    name: "hook",
    description: `Answer one host hook event (JSON on stdin) and record it. Installed by \`toolgate install\`.

Examples:
  echo '{"hook_event_name":"PreToolUse",...}' | toolgate hook claude-code
  # in .claude/settings.json (what \`toolgate install claude-code\` writes):
  #   "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "toolgate hook claude-code"}]}]

State and denial records go to $TOOLGATE_DB (default ~/.toolgate/toolgate.db).`,
  },
  args: {
    host: { type: "positional", required: true, description: "the host that sends the event: claude-code" },
  },
  async run({ args }) {
    if (!SUPPORTED_HOSTS.includes(args.host)) {
      process.stderr.write(
        `toolgate hook: unknown host "${args.host}". Supported: ${SUPPORTED_HOSTS.join(", ")}. Example: toolgate hook claude-code\n`,
      );
      // Exit 2 is also what Claude Code treats as blocking: a misconfigured hook never lets a call through.
      process.exitCode = EXIT.usage;
      return;
    }
    const stdinText = process.stdin.isTTY ? "" : await readStdin();
    const { runClaudeCodeHook } = await import("../../adapters/claude-code/run-hook.js");
    const answer = await runClaudeCodeHook({ stdinText });
    if (answer.output !== undefined) process.stdout.write(`${JSON.stringify(answer.output)}\n`);
    if (answer.stderr !== undefined) process.stderr.write(`${answer.stderr}\n`);
    process.exitCode = answer.exitCode;
  },
});
