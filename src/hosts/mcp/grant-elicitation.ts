import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/** A yes/no question the proxy puts to the person through an MCP elicitation. */
export interface McpQuestion {
  /** what the person reads */
  message: string;
  /** `grant`: a session grant of the minimum scope; `approve`: this one call (an `ask` rule) */
  kind: "grant" | "approve";
}

/** The elicitation request for a question: one boolean field, checked by default, that the person confirms. */
export function questionElicitation(question: McpQuestion): ElicitRequestFormParams {
  const title = question.kind === "grant" ? "Allow for the rest of this session" : "Allow this call";
  return {
    mode: "form",
    message: question.message,
    requestedSchema: {
      type: "object",
      properties: { allow: { type: "boolean", title, default: true } },
      required: ["allow"],
    },
  };
}

/** Only an explicit accept with `allow` not unchecked is a yes; decline, cancel and anything else are a no. */
export function elicitationAccepted(result: ElicitResult): boolean {
  return result.action === "accept" && result.content?.["allow"] !== false;
}
