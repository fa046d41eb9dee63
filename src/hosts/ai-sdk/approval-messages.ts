/**
 * Reading the AI SDK's tool-approval parts out of a model message history (`ModelMessage[]`), without importing
 * `ai` at run time: assistant messages carry `tool-call` and `tool-approval-request` parts, tool messages carry
 * `tool-approval-response` parts.
 */

export interface ApprovalAnswer {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  approved: boolean;
  reason?: string;
}

type Part = Record<string, unknown>;

function partsOf(message: unknown): Part[] {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? (content.filter((part) => typeof part === "object" && part !== null) as Part[]) : [];
}

/** Whether the history holds an approval request for this tool call (the call was asked about before). */
export function approvalRequested(messages: readonly unknown[] | undefined, toolCallId: string): boolean {
  for (const message of messages ?? []) {
    if ((message as { role?: unknown }).role !== "assistant") continue;
    for (const part of partsOf(message)) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) return true;
    }
  }
  return false;
}

/** Every answered approval in the history, once per tool call (the first answer, as the SDK collects them). */
export function approvalAnswers(messages: readonly unknown[] | undefined): ApprovalAnswer[] {
  if (messages === undefined || messages.length === 0) return [];
  // most histories carry no approval answer: one pass over the tool messages, before any map is built
  const hasAnswer = messages.some(
    (message) =>
      (message as { role?: unknown }).role === "tool" &&
      partsOf(message).some((part) => part.type === "tool-approval-response"),
  );
  if (!hasAnswer) return [];
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests = new Map<string, string>();
  const answers: ApprovalAnswer[] = [];
  const answered = new Set<string>();
  for (const message of messages) {
    const role = (message as { role?: unknown }).role;
    for (const part of partsOf(message)) {
      if (role === "assistant" && part.type === "tool-call") {
        calls.set(String(part.toolCallId), { toolName: String(part.toolName), input: part.input });
      } else if (role === "assistant" && part.type === "tool-approval-request") {
        requests.set(String(part.approvalId), String(part.toolCallId));
      } else if (role === "tool" && part.type === "tool-approval-response") {
        const approvalId = String(part.approvalId);
        const toolCallId = requests.get(approvalId);
        const call = toolCallId === undefined ? undefined : calls.get(toolCallId);
        if (toolCallId === undefined || call === undefined || answered.has(toolCallId)) continue;
        answered.add(toolCallId);
        const answer: ApprovalAnswer = { approvalId, toolCallId, ...call, approved: part.approved === true };
        if (typeof part.reason === "string") answer.reason = part.reason;
        answers.push(answer);
      }
    }
  }
  return answers;
}
