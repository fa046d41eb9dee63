import { describe, expect, it } from "vitest";
import { runCommandHook } from "./run-command-hook.js";

describe("runCommandHook", () => {
  it("passes the payload as JSON on stdin and the event and tool as env vars", async () => {
    const result = await runCommandHook({
      command: 'read line; echo "$TOOLGATE_HOOK_EVENT|$TOOLGATE_HOOK_TOOL|$line"',
      payload: { event: "permission_denied", tool: "Bash" },
      event: "permission_denied",
      tool: "Bash",
      timeoutMs: 5_000,
    });
    expect(result.ok).toBe(true);
    expect(result.stdout.trim()).toBe('permission_denied|Bash|{"event":"permission_denied","tool":"Bash"}');
  });

  it("kills a hanging hook and its children at the timeout", async () => {
    const started = Date.now();
    const result = await runCommandHook({ command: "sleep 30 & sleep 30", payload: {}, event: "e", timeoutMs: 200 });
    expect(result.ok).toBe(false);
    expect(result.timedOut).toBe(true);
    expect(result.error).toContain("timed out after 200 ms");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("reports a non-zero exit with its stderr, and bounds captured output", async () => {
    const result = await runCommandHook({
      command: "head -c 100000 /dev/zero | tr '\\0' x; echo broken >&2; exit 3",
      payload: {},
      event: "e",
      timeoutMs: 5_000,
      maxOutputBytes: 1_000,
    });
    expect(result).toMatchObject({ ok: false, exitCode: 3, error: "hook exited with 3" });
    expect(result.stderr.trim()).toBe("broken");
    expect(result.stdout.startsWith("x".repeat(1_000))).toBe(true);
    expect(result.stdout).toContain("[99000 more bytes dropped]");
  });

  it("does not fail when the hook ignores stdin", async () => {
    const result = await runCommandHook({
      command: "true",
      payload: { big: "y".repeat(1_000_000) },
      event: "e",
      timeoutMs: 5_000,
    });
    expect(result.ok).toBe(true);
  });
});
