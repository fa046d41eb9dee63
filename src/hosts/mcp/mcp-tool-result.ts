import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A tool result that tells the client (and its model) the call was refused: `isError` with toolgate's words. */
export function denialToolResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** The text blocks of a tool result, joined: what the proxy classifies as a refusal or an ordinary error. */
export function toolResultText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .filter((block): block is { type: "text"; text: string } => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/**
 * The server's own result with toolgate's guidance after it, as one more text block. Nothing of the server's result
 * is changed or dropped; an empty guidance returns the very same object.
 */
export function withGuidance(result: CallToolResult, guidance: string): CallToolResult {
  if (guidance === "") return result;
  const content = Array.isArray(result.content) ? result.content : [];
  return { ...result, content: [...content, { type: "text", text: guidance }] };
}
