// An OPA policy as toolgate's `decider` for AI SDK tools: OPA decides allow / deny / requires-approval, toolgate
// counts its denials, escalates on them and turns requires-approval into the SDK's approval request.
// docs/ai-sdk.md quotes this file; `npm run typecheck` checks it against the real `ai` types.
import type { ToolSet } from "ai";
import { type DeciderDecision, type DeciderRequest, openToolgateForAiSdk } from "toolgate/ai-sdk";

/** Asks a running OPA server (its REST Data API) for `data.tools.decision` about one tool call. */
export async function opaDecider(request: DeciderRequest): Promise<DeciderDecision> {
  const response = await fetch("http://127.0.0.1:8181/v1/data/tools/decision", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: { tool: request.toolName, args: request.input } }),
    // aborted when toolgate stops waiting (deciderTimeoutMs, 5 s by default): the call is then refused
    signal: request.signal,
  });
  // an unreachable or failing OPA throws here: toolgate then refuses the call (fail closed), it never runs it
  if (!response.ok) throw new Error(`OPA answered ${response.status}`);
  const { result } = (await response.json()) as { result?: { decision?: string; reason?: string } };
  switch (result?.decision) {
    case "deny":
      return { decision: "deny", reason: result.reason ?? "Denied by the OPA policy." };
    case "requires-approval":
      return { decision: "requires-approval", ...(result.reason === undefined ? {} : { reason: result.reason }) };
    case "allow":
      return { decision: "allow" };
    default:
      return { decision: "not-applicable" }; // the tool's own needsApproval decides
  }
}

export async function guardWithOpa<TOOLS extends ToolSet>(tools: TOOLS) {
  const toolgate = await openToolgateForAiSdk({ interactive: false });
  return { toolgate, guarded: toolgate.guardTools(tools, { decider: opaDecider }) };
}
