import { describe, expect, it } from "vitest";
import type { PolicyDecision } from "../policy/policy-types.js";
import { stricterDecision } from "./stricter-decision.js";

const none: PolicyDecision = { behavior: "ask", source: "default", reason: "no rule" };
const noneHeadless: PolicyDecision = { ...none, behavior: "deny", denialSource: "headless" };
const allow: PolicyDecision = { behavior: "allow", source: "policy", rule: "Bash", reason: "allowed" };
const ask: PolicyDecision = { behavior: "ask", source: "policy", rule: "Bash(git *)", reason: "ask" };
const askHeadless: PolicyDecision = { ...ask, behavior: "deny", denialSource: "headless" };
const deny: PolicyDecision = {
  behavior: "deny",
  source: "policy",
  rule: "Bash(rm *)",
  reason: "no",
  denialSource: "rule",
};

describe("stricterDecision", () => {
  it.each([
    ["own deny beats a host allow", deny, allow, deny],
    ["host deny beats an own allow", allow, deny, deny],
    ["host deny beats no own rule", none, deny, deny],
    ["host explicit ask (headless) beats no own rule (headless default)", noneHeadless, askHeadless, askHeadless],
    ["host allow beats no own rule", noneHeadless, allow, allow],
    ["no host rule leaves toolgate's decision", ask, none, ask],
    ["no host rule leaves a default headless deny as it is", noneHeadless, none, noneHeadless],
    ["a tie keeps toolgate's", { ...deny, rule: "Bash(rm -rf *)" }, deny, { ...deny, rule: "Bash(rm -rf *)" }],
    [
      "a tie goes to the host's when only the host's names a rule",
      { behavior: "deny", source: "toolgate", reason: "cannot parse", denialSource: "headless" },
      askHeadless,
      askHeadless,
    ],
    [
      "a tie of two rules keeps toolgate's",
      { ...askHeadless, rule: "Bash(git push *)" },
      askHeadless,
      { ...askHeadless, rule: "Bash(git push *)" },
    ],
  ])("%s", (_name, own, host, expected) => {
    expect(stricterDecision(own as PolicyDecision, host as PolicyDecision)).toEqual(expected);
  });
});
