import { describe, expect, it } from "vitest";
import { createRedactor } from "../detect/redact.js";
import { defaultPorts } from "./default-ports.js";

const full = createRedactor();

/** An input whose `command` counts its reads (a walk over the input reads it once). */
function countingInput(command: string): { input: { command: string; description: string }; reads: () => number } {
  let reads = 0;
  const input = {
    get command() {
      reads += 1;
      return command;
    },
    description: "remove it",
  };
  Object.defineProperty(input, "command", { enumerable: true });
  return { input, reads: () => reads };
}

describe("defaultPorts: a call's input is redacted once", () => {
  it("redacts a described input with its reason without walking the input again", () => {
    const ports = defaultPorts();
    const { input, reads } = countingInput("rm -rf build");
    ports.describeCall("Bash", input);
    const before = reads();
    const reason = "Permission to use Bash with command rm -rf build has been denied.";
    const redacted = ports.redactValue([input, reason, "Bash(rm:*)", ""]);
    expect(reads()).toBe(before);
    expect(redacted).toEqual(
      full.redactValue([{ command: "rm -rf build", description: "remove it" }, reason, "Bash(rm:*)", ""]),
    );
  });

  it("describes a call with the same tool and input JSON once (the same facts)", () => {
    const ports = defaultPorts();
    const first = ports.describeCall("Bash", { command: "rm -rf victim" });
    const again = ports.describeCall("Bash", { command: "rm -rf victim" });
    expect(again).toBe(first);
    expect(ports.describeCall("Read", { command: "rm -rf victim" })).not.toBe(first);
    expect(ports.describeCall("Bash", { command: "rm -rf victim2" })).not.toBe(first);
  });

  it("describes a long or circular input each time, as before (no key for it)", () => {
    const ports = defaultPorts();
    const long = { command: `cat ${"x".repeat(20_000)}` };
    expect(ports.describeCall("Bash", { ...long })).not.toBe(ports.describeCall("Bash", { ...long }));
    const circular: Record<string, unknown> = { command: "ls" };
    circular["self"] = circular;
    expect(ports.describeCall("Bash", circular).redactedInput).toEqual({ command: "ls", self: "[Circular]" });
    // no JSON at all (JSON.stringify throws): described as before
    expect(ports.describeCall("Bash", { command: "ls", n: 1n }).redactedInput).toEqual({ command: "ls", n: 1n });
  });

  it("gives exactly the full walk's results, secrets in the input, the reason or both", () => {
    const cases: [unknown, string[]][] = [
      [{ command: "psql postgres://app:pa55word@db/prod" }, ["denied: psql postgres:/app:pa55word@db/prod", "", ""]],
      [{ command: "ls" }, ["the token ghp_0123456789abcdefghijABCDEFGHIJ012345 was refused", "Bash(ls)", ""]],
      [{ command: "echo pa55word-long" }, ["psql postgres://app:pa55word-long@db/prod", "", "/tmp/pa55word-long"]],
      [{ command: "ls", nested: [{ password: "hunter2hunter2" }] }, ["hunter2hunter2 again", "", ""]],
      ["a string input", ["reason", "", ""]],
      [{ command: "x".repeat(40) }, ["x".repeat(40), "", ""]],
    ];
    for (const [input, texts] of cases) {
      const ports = defaultPorts();
      const facts = ports.describeCall("Bash", input);
      const expected = full.redactValue([input, ...texts]) as unknown[];
      expect(ports.redactValue([input, ...texts])).toEqual(expected);
      // twice: the kept texts give the same
      expect(ports.redactValue([input, ...texts])).toEqual(expected);
      // a copy of the input (equal JSON, another object) is described by the same facts and redacted the same
      const copy = JSON.parse(JSON.stringify(input)) as unknown;
      expect(ports.describeCall("Bash", copy)).toBe(facts);
      expect(ports.redactValue([copy, ...texts])).toEqual(expected);
    }
  });

  it("keeps the walk's bounds: the texts after an input that used the budget are too large", () => {
    const ports = defaultPorts({ redaction: { maxTotalChars: 30 } });
    const input = { command: "x".repeat(25) };
    ports.describeCall("Bash", input);
    const texts = ["a reason of more than five characters", "", ""];
    expect(ports.redactValue([input, ...texts])).toEqual(
      createRedactor({ maxTotalChars: 30 }).redactValue([input, ...texts]),
    );
  });
});
