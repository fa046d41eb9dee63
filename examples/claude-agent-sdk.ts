// toolgate around an Agent SDK `query()`: policy + escalation in canUseTool, counting in hooks, and the denial
// figures added to the job's result. Type-checked by `npm run typecheck`, and against the real SDK by
// test/e2e/declared-types.test.ts.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { createGuard } from "toolgate";
import { guardCanUseTool, guardHooks, observe, withPermissionDenials } from "toolgate/claude-agent-sdk";

const guard = createGuard();
const session = guard.session("job-42", { interactive: true, host: "claude-agent-sdk" });

const canUseTool = guardCanUseTool(session, {
  // your own prompt or policy; its denials count toward toolgate's escalation
  inner: async (toolName) => ({ behavior: "deny", message: `${toolName} is not approved for this job.` }),
  // after repeated denials toolgate offers the minimum scope, for this session only
  onGrantOffer: async (offer) => {
    console.log(offer.question);
    return false;
  },
});

const messages = observe(
  query({
    prompt: "Fix the failing test.",
    options: { canUseTool, hooks: guardHooks(session), permissionMode: "default" },
  }),
  { session },
);
for await (const message of messages) {
  if (message.type === "result") console.log(message.subtype);
}
await guard.drain();
const result = withPermissionDenials({ job: "job-42" }, messages.report());
console.log(result.permissionDenialCount, result.permissionDeniedTools, canUseTool.abortError());
