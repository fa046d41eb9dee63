import { appendFileSync } from "node:fs";
import type { Hooks, Plugin } from "@opencode-ai/plugin";

/**
 * Records every hook call and bus event the real opencode binary hands a plugin, as JSON lines in
 * `TOOLGATE_PROBE_LOG`. Used only to capture the fixtures in test/fixtures/opencode/ (see record-fixtures.test.ts).
 * With `TOOLGATE_PROBE_NOTE=1` it adds one `noReply` note after the first errored tool part, to record what a note
 * looks like to the other hooks (it must not look like a real user message); otherwise it changes nothing.
 */
const logFile = process.env.TOOLGATE_PROBE_LOG ?? "/dev/null";

function record(kind: string, data: unknown): void {
  appendFileSync(logFile, `${JSON.stringify({ kind, data })}\n`);
}

export const ProbePlugin: Plugin = async (input) => {
  record("init", { keys: Object.keys(input).sort() });
  let noted = false;
  const hooks: Hooks = {
    event: async ({ event }) => {
      record(`event:${event.type}`, event);
      if (process.env.TOOLGATE_PROBE_NOTE !== "1" || noted || event.type !== "message.part.updated") return;
      const part = event.properties.part;
      if (part.type !== "tool" || part.state.status !== "error") return;
      noted = true;
      const result = await input.client.session.promptAsync({
        path: { id: part.sessionID },
        body: { noReply: true, parts: [{ type: "text", text: "[probe] note after a denial", synthetic: true }] },
      });
      record("note.sent", { status: result.response.status });
    },
    "chat.message": async (hookInput, output) => record("hook:chat.message", { input: hookInput, output }),
    "tool.execute.before": async (hookInput, output) =>
      record("hook:tool.execute.before", { input: hookInput, output }),
    "tool.execute.after": async (hookInput, output) => record("hook:tool.execute.after", { input: hookInput, output }),
    "permission.ask": async (hookInput, output) => record("hook:permission.ask", { input: hookInput, output }),
    "experimental.chat.messages.transform": async (_hookInput, output) =>
      record("hook:experimental.chat.messages.transform", output),
  };
  return hooks;
};
