// A scripted ACP agent for the proxy's tests, on the official SDK's agent side. Each `session/prompt` whose first text
// block is JSON names one permission request to make: `{"command": "...", "callId": "..."}` announces an `execute`
// tool call (`_meta.claudeCode.toolName: "Bash"`) and asks for it; `{"malformed": "<case>"}` asks with a broken
// request (or writes a cut JSON-RPC line first). The prompt's answer carries, in `_meta.scripted`, the outcome the
// agent got (or the error), and the text blocks after the first it received (what the proxy added for the model).
// Every request the agent received is appended as one JSON line to the file named by argv[2] (when given).
import { appendFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const log = process.argv[2];
const note = (entry) => {
  if (log !== undefined) appendFileSync(log, `${JSON.stringify(entry)}\n`);
};

const MALFORMED = {
  "rawInput a string": (id) => ({ toolCallId: id, kind: "execute", rawInput: "rm -rf /" }),
  "rawInput an array": (id) => ({ toolCallId: id, kind: "execute", rawInput: ["rm", "-rf", "/"] }),
  "rawInput null": (id) => ({ toolCallId: id, kind: "execute", rawInput: null }),
  "command a number": (id) => ({ toolCallId: id, kind: "execute", rawInput: { command: 7 } }),
  "no toolCall": () => undefined,
  "toolCallId a number": () => ({ toolCallId: 7, kind: "execute", rawInput: { command: "rm -rf /" } }),
};

acp
  .agent({ name: "scripted-agent" })
  .onRequest("initialize", () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
  .onRequest("session/new", () => ({ sessionId: "scripted-session" }))
  .onRequest("session/prompt", async ({ params, client }) => {
    note({ method: "session/prompt", params });
    const [first, ...rest] = params.prompt;
    const extra = rest.filter((block) => block.type === "text").map((block) => block.text);
    let script = {};
    try {
      script = JSON.parse(first?.type === "text" ? first.text : "{}");
    } catch {
      // not a script: nothing to ask
    }
    const options = [
      { optionId: "allow_always", name: "Always Allow", kind: "allow_always" },
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ];
    let toolCall;
    if (typeof script.command === "string") {
      const id = script.callId ?? "call";
      await client.notify("session/update", {
        sessionId: params.sessionId,
        update: {
          sessionUpdate: "tool_call",
          toolCallId: id,
          title: script.command,
          kind: "execute",
          status: "pending",
          rawInput: { command: script.command },
          _meta: { claudeCode: { toolName: "Bash" } },
        },
      });
      toolCall = { toolCallId: id, title: script.command, rawInput: { command: script.command } };
    } else if (typeof script.malformed === "string") {
      if (script.malformed.startsWith("cut:")) {
        // a JSON-RPC request cut in half, written raw: the proxy must skip it and go on with the next message
        const whole = JSON.stringify({
          jsonrpc: "2.0",
          id: 999,
          method: "session/request_permission",
          params: { sessionId: params.sessionId, toolCall: { toolCallId: "cut" }, options },
        });
        process.stdout.write(
          `${script.malformed === "cut:half" ? whole.slice(0, whole.length / 2) : whole.slice(0, -1)}\n`,
        );
        return { stopReason: "end_turn", _meta: { scripted: { outcome: null, extra } } };
      }
      toolCall = MALFORMED[script.malformed]?.(`bad-${script.malformed}`);
    } else {
      return { stopReason: "end_turn", _meta: { scripted: { outcome: null, extra } } };
    }
    try {
      const answer = await client.request("session/request_permission", {
        sessionId: params.sessionId,
        toolCall,
        options,
      });
      note({ method: "session/request_permission", outcome: answer.outcome });
      return { stopReason: "end_turn", _meta: { scripted: { outcome: answer.outcome, extra } } };
    } catch (error) {
      return { stopReason: "end_turn", _meta: { scripted: { error: String(error?.message ?? error), extra } } };
    }
  })
  .onNotification("session/cancel", ({ params }) => note({ method: "session/cancel", params }))
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
