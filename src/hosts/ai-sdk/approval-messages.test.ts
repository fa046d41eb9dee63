import { describe, expect, it } from "vitest";
import { approvalAnswers, approvalRequested } from "./approval-messages.js";

const history = [
  { role: "user", content: "go" },
  {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId: "c1", toolName: "sh", input: { command: "rm -rf /" } },
      { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" },
      { type: "tool-call", toolCallId: "c2", toolName: "sh", input: { command: "ls" } },
      { type: "tool-approval-request", approvalId: "a2", toolCallId: "c2" },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-approval-response", approvalId: "a1", approved: false, reason: "no" },
      { type: "tool-approval-response", approvalId: "a1", approved: true },
      { type: "tool-approval-response", approvalId: "a2", approved: true },
      { type: "tool-approval-response", approvalId: "unknown", approved: false },
    ],
  },
];

describe("approval parts in a model message history", () => {
  it("finds each answered call once (the first answer, as the SDK collects them), ignoring unknown approvals", () => {
    expect(approvalAnswers(history)).toEqual([
      {
        approvalId: "a1",
        toolCallId: "c1",
        toolName: "sh",
        input: { command: "rm -rf /" },
        approved: false,
        reason: "no",
      },
      { approvalId: "a2", toolCallId: "c2", toolName: "sh", input: { command: "ls" }, approved: true },
    ]);
  });

  it("tells whether a call was asked about", () => {
    expect(approvalRequested(history, "c1")).toBe(true);
    expect(approvalRequested(history, "c3")).toBe(false);
    expect(approvalRequested(undefined, "c1")).toBe(false);
    expect(approvalAnswers([{ role: "tool", content: "not an array" }, null as never].slice(0, 1))).toEqual([]);
  });
});
