import { describe, expect, it } from "vitest";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import { CODEX_DENIAL_TEXTS } from "./codex-denial-texts.js";

const tables = [CODEX_DENIAL_TEXTS];
const RATIONALE = "Deleting the repository's history is destructive and the user did not ask for it.";
/** Codex's built-in instructions after an auto-review rejection (0.169.0, and 0.171.0 for most models). */
const BUILT_IN =
  "The agent must not attempt to achieve the same outcome via workaround, indirect execution, or policy circumvention. Proceed only with a materially safer alternative, or if the user explicitly approves the action after being informed of the risk. Otherwise, stop and request user input.";
/** 0.171.0's reworded `auto_review.rejection_instructions` (the bundled model catalog, strings in the binary). */
const REWORDED_0_171 =
  "Do not bypass this rejection through a workaround or indirect execution. Continue with any materially safer alternative and complete unaffected work without asking for confirmation. Report anything that remains blocked, and ask for explicit approval only if completion requires the rejected action, after explaining its specific risk.";
/** The catalog's other models' instructions in both versions. */
const CATALOG =
  "Do not bypass this rejection through a workaround or indirect execution. Continue with a safer alternative, or carry out checks to prove that the action is authorized or low risk before trying again. Complete unaffected work without asking for confirmation. Report anything that remains blocked, clarify why it was blocked by auto-review, inform the user of the risk and ask for approval.";

const rejection = (instructions: string) =>
  `This action was rejected due to unacceptable risk.\nReason: ${RATIONALE}\n${instructions}`;
/** As a refused `exec_command` reaches the model: `ToolError::Rejected` in Rust debug output, nested twice. */
const asToolResult = (message: string) =>
  `exec_command failed: CreateProcess { message: ${JSON.stringify(`Rejected(${JSON.stringify(message)})`)} }`;

describe("Codex auto-review (Guardian) rejections", () => {
  it.each([
    ["the built-in instructions", BUILT_IN],
    ["0.171.0's reworded instructions", REWORDED_0_171],
    ["the catalog's other instructions", CATALOG],
  ])("with %s: a classifier denial whose reason is the reviewer's rationale", (_, instructions) => {
    for (const text of [rejection(instructions), asToolResult(rejection(instructions))]) {
      expect(recognizeDenial({ host: "codex", text, tables })).toMatchObject({
        host: "codex",
        source: "classifier",
        reason: RATIONALE,
      });
    }
  });

  it("a rationale over several lines is kept whole; instructions Codex may add later do not break recognition", () => {
    const rationale = "Force-pushing rewrites main.\nOther people's work would be lost.";
    const text = `This action was rejected due to unacceptable risk.\nReason: ${rationale}\n${REWORDED_0_171}`;
    expect(recognizeDenial({ host: "codex", text, tables })?.reason).toBe(rationale);
    const later = "This action was rejected due to unacceptable risk.\nReason: too risky";
    expect(recognizeDenial({ host: "codex", text: later, tables })).toMatchObject({ source: "classifier" });
  });

  it("a review that could not finish is not a rejection", () => {
    const timeout =
      "The automatic permission approval review did not finish before its deadline. Do not assume the action is unsafe based on the timeout alone. You may retry once, or ask the user for guidance or explicit approval.";
    expect(recognizeDenial({ host: "codex", text: timeout, tables })).toBeUndefined();
  });
});
