import { ToolgateError } from "../../core/errors.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

export default defineCommand({
  meta: {
    name: "acp-proxy",
    summary:
      "Run an ACP agent behind toolgate: a stdio Agent Client Protocol agent that forwards everything and guards permission requests.",
    usageTail: "-- <agent command...>",
    details: `Put it where your editor starts the agent (Zed's "agent_servers", a JetBrains or Neovim ACP setting): the
editor talks to the proxy, the proxy starts the real agent as a child and forwards every request, response and
notification both ways with the official ACP SDK (each side keeps its own request ids).
Every session/request_permission goes through toolgate's policy first: a toolgate deny is answered with the agent's
own reject option (the editor never asks you for a call the rules refuse); anything else is shown to you as the
agent asked it. Every reject (yours or toolgate's; "cancelled" and unknown answers count as rejects, and the agent is
told "reject" so it ends the turn instead of asking again) is a denial, counted per session, tool and signature.
At the threshold, the next request for that tool carries one more option, toolgate's minimum-scope grant, its label
naming the scope ("Allow Bash commands starting with \\"rm -rf build\\" for this session (toolgate)"). Once you pick
it, toolgate answers later requests inside that scope with the agent's allow-once option itself and still asks you
for anything wider; the grant lasts for the session and never overrides a toolgate deny rule.
Tool calls that end "failed" with an OS or sandbox refusal are counted too. toolgate's guidance for the model is
added as a text block to your next session/prompt (a permission answer cannot carry text).
Headless (under \`toolgate run\`, TOOLGATE_INTERACTIVE=0 or --headless: a CI editor), the headless strategy applies:
an abort cancels the session (session/cancel), stops the agent and exits 6, so \`toolgate run\` exits 6.
Every denial is recorded like the other hosts' (\`toolgate report\`, \`toolgate dashboard\`), host "acp".
The proxy's stdout is the ACP channel: its own lines go to stderr.`,
    exitCodes:
      "0 the editor closed the connection, 1 the agent exited or did not start, 2 bad usage or config, 6 toolgate aborted a session (escalation), 7 the store could not be opened.",
    examples: [
      "toolgate acp-proxy -- npx <acp-agent-package>   # what your editor's agent_servers entry runs",
      "toolgate acp-proxy --headless -- ./my-acp-agent --acp   # a CI editor: never offer grants, abort at the threshold",
      'toolgate run -- ./my-ci-editor   # its agent entry runs "toolgate acp-proxy -- <agent>": exits 6 on abort',
      "toolgate install acp-proxy --editor zed   # every ACP agent of your Zed settings through the proxy",
    ],
  },
  passthrough: true,
  args: {
    interactive: {
      type: "boolean",
      description:
        "a person answers in the editor (grants are offered) whatever the environment; default: TOOLGATE_INTERACTIVE, else headless under `toolgate run`, else interactive",
    },
    headless: { type: "boolean", description: "nobody answers: apply the headless strategy at the threshold" },
  },
  async run({ args, rest }) {
    const fail = (message: string, code: number = EXIT.usage) => {
      process.stderr.write(`toolgate acp-proxy: ${message}\n`);
      process.exitCode = code;
    };
    if (args.interactive && args.headless) return fail("choose one of --interactive or --headless.");
    const [command, ...commandArgs] = rest;
    if (command === undefined) {
      return fail('give the ACP agent command after "--", e.g. toolgate acp-proxy -- npx <acp-agent-package>');
    }
    const interactive: boolean | undefined = args.interactive ? true : args.headless ? false : undefined;
    const { runAcpProxy } = await import("../../hosts/acp/acp-proxy-entry.js");
    try {
      // an editor that stops the agent with a signal gets the same orderly close as one that closes stdin
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGTERM", onSignal);
      process.once("SIGINT", onSignal);
      const outcome = await runAcpProxy({
        agent: { command, args: commandArgs },
        signal: stop.signal,
        ...(interactive === undefined ? {} : { interactive }),
      });
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      process.exitCode = outcome.exitCode;
    } catch (error) {
      if (ToolgateError.is(error)) {
        const store = error.code.startsWith("STORE_");
        return fail(error.message, store ? EXIT.store : error.code === "CONFIG_INVALID" ? EXIT.usage : EXIT.error);
      }
      throw error;
    }
  },
});
