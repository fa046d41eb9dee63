import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { normalizeVolatileText } from "./normalize-volatile.js";
import { callSignature } from "./signature.js";

describe("callSignature", () => {
  it("ignores key order at every level", () => {
    expect(callSignature("T", { a: 1, b: { c: 2, d: [1, { e: 1, f: 2 }] } })).toBe(
      callSignature("T", { b: { d: [1, { f: 2, e: 1 }], c: 2 }, a: 1 }),
    );
  });

  it("collapses whitespace in shell commands", () => {
    expect(callSignature("Bash", { command: "rm  -rf\t build\n" })).toBe(
      callSignature("Bash", { command: "rm -rf build" }),
    );
  });

  it("keeps different calls apart", () => {
    expect(callSignature("Bash", { command: "rm -rf build" })).not.toBe(
      callSignature("Bash", { command: "rm -rf dist" }),
    );
    expect(callSignature("Bash", { command: "ls" })).not.toBe(callSignature("bash", { command: "ls" }));
  });

  it.each([
    ["timestamps", "echo 2026-11-22T05:07:47.123Z", "echo 2026-11-23T11:00:00Z"],
    ["epoch ms", "curl 'x?t=1763788067123'", "curl 'x?t=1763788099999'"],
    ["uuids", "get 0b9c6f0e-2d57-4b7e-9d1e-6b1b6f7e8a90", "get 7f3e1a2b-9c8d-4e5f-8a7b-6c5d4e3f2a1b"],
    ["pids", "kill -9 41234", "kill -9 5120"],
    ["ports", "curl http://127.0.0.1:41234/", "curl http://127.0.0.1:55001/"],
    ["temp dirs", "rm -rf /tmp/toolgate-a8Zk2q/out", "rm -rf /tmp/toolgate-Q1w2e3/out"],
    ["mktemp", "cat /tmp/tmp.k3J9aQ2xZ1", "cat /tmp/tmp.Zz81kLmNo2"],
  ])("normalises %s", (_name, first, second) => {
    expect(callSignature("Bash", { command: first })).toBe(callSignature("Bash", { command: second }));
  });

  it("does not normalise ordinary numbers or paths", () => {
    expect(normalizeVolatileText("head -n 20 src/app.ts")).toBe("head -n 20 src/app.ts");
    expect(normalizeVolatileText("/tmp/project/src")).toBe("/tmp/project/src");
    expect(normalizeVolatileText("git checkout 3f2a1b9")).toBe("git checkout 3f2a1b9");
  });

  it("canonical JSON is valid JSON equal to the value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("canonical JSON does not depend on key order (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });

  it("a shell call's model-written description or justification is not part of its identity (issue 26, item 9)", () => {
    const run = (description: string) => callSignature("Bash", { command: "sh test.sh", description });
    expect(run("Run the tests")).toBe(run("Run the test script again"));
    expect(callSignature("exec_command", { cmd: "sh test.sh", justification: "needs network" })).toBe(
      callSignature("exec_command", { cmd: "sh test.sh" }),
    );
    // the command still is
    expect(callSignature("Bash", { command: "sh test.sh", description: "x" })).not.toBe(
      callSignature("Bash", { command: "sh other.sh", description: "x" }),
    );
    // another tool's `description` is its content (an issue's body), not commentary
    expect(callSignature("mcp__github__create_issue", { title: "t", description: "a" })).not.toBe(
      callSignature("mcp__github__create_issue", { title: "t", description: "b" }),
    );
  });
});
