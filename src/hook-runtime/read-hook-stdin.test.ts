import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readHookStdin } from "./read-hook-stdin.js";

let root: string;
const opened: number[] = [];
const open = (path: string) => {
  const descriptor = openSync(path, "r");
  opened.push(descriptor);
  return descriptor;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-stdin-"));
});

afterEach(() => {
  for (const descriptor of opened.splice(0)) closeSync(descriptor);
  rmSync(root, { recursive: true, force: true });
});

describe("readHookStdin", () => {
  it("reads the whole event, multi-byte text included", () => {
    const file = join(root, "event.json");
    const text = `{"prompt":"${"ü€".repeat(50_000)}"}`;
    writeFileSync(file, text);
    expect(readHookStdin(open(file))).toBe(text);
  });

  it("gives no event for a character device (a terminal, /dev/null, /dev/zero that never ends)", () => {
    expect(readHookStdin(open("/dev/null"))).toBe("");
    expect(readHookStdin(open("/dev/zero"))).toBe("");
  });

  it("gives no event for a descriptor that is not open (stdin closed by the host)", () => {
    expect(readHookStdin(65_000)).toBe("");
  });
});
