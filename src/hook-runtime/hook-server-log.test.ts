import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendServerLog, serverLogFile } from "./hook-server-log.js";

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const logIn = () => {
  root = mkdtempSync(join(tmpdir(), "toolgate-server-log-"));
  return serverLogFile(join(root, "hook-_opt_toolgate_dist_hook.server"));
};

describe("the resident hook server's log", () => {
  it("lies beside the server file and takes one redacted line per message, readable by its owner only", () => {
    const file = logIn();
    expect(file.endsWith("hook-_opt_toolgate_dist_hook.log")).toBe(true);
    const token = `ghp_${"a1B2".repeat(9)}`;
    appendServerLog(file, `delivery to https://hooks.example/x failed:\n401 for ${token}`, {
      now: Date.UTC(2026, 10, 29),
    });
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^2026-11-29T00:00:00\.000Z \[\d+\] delivery to https:\/\/hooks\.example\/x failed: 401 for /);
    expect(text).not.toContain(token);
    expect(text).toContain("[REDACTED:");
    expect(text.split("\n")).toHaveLength(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("moves a full log aside once, so it stays under twice its limit", () => {
    const file = logIn();
    for (let index = 0; index < 30; index++)
      appendServerLog(file, `line ${index} ${"x".repeat(50)}`, { limitBytes: 500 });
    expect(statSync(file).size).toBeLessThan(600);
    expect(statSync(`${file}.1`).size).toBeLessThan(600);
    expect(readFileSync(file, "utf8")).toContain("line 29 ");
  });

  it("never throws, even where it cannot write", () => {
    expect(() => appendServerLog("/nonexistent/folder/x.log", "lost")).not.toThrow();
  });
});
