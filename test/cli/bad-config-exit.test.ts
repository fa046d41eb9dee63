import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, makeFixture } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** What docs/config.md and docs/claude-code.md promise for an invalid toolgate.config.json (issue 12, class 6c). */
describe("the hook's answer on an invalid config", () => {
  for (const [label, text] of [
    ["not JSON", '{ "permissions": [ broken'],
    ["an unknown key", '{ "rules": 5 }'],
    ["null", "null"],
  ] as const) {
    it(`${label}: a gating event is denied (exit 0, JSON deny), any other event exits 1, check exits 2`, () => {
      const fixture = makeFixture({ "project/toolgate.config.json": text });
      roots.push(fixture.root);
      const env = {
        PATH: process.env.PATH ?? "",
        TMPDIR: tmpdir(),
        HOME: fixture.home,
        TOOLGATE_DB: join(fixture.root, "db.sqlite"),
      };
      const hook = (event: Record<string, unknown>) =>
        spawnSync(process.execPath, [cliPath, "hook", "claude-code"], {
          cwd: fixture.project,
          env,
          input: JSON.stringify({ session_id: "s1", cwd: fixture.project, ...event }),
          encoding: "utf8",
          timeout: 20_000,
        });
      const call = { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" };
      const pre = hook({ hook_event_name: "PreToolUse", ...call });
      expect(pre.status).toBe(0);
      expect(JSON.parse(pre.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
      expect(pre.stderr).toContain("toolgate.config.json");
      const permission = hook({
        hook_event_name: "PermissionRequest",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      });
      expect(permission.status).toBe(0);
      expect(JSON.parse(permission.stdout).hookSpecificOutput.decision.behavior).toBe("deny");
      const post = hook({ hook_event_name: "PostToolUse", ...call, tool_response: {} });
      expect(post.status).toBe(1);
      expect(post.stdout).toBe("");
      const check = spawnSync(process.execPath, [cliPath, "check", "Bash", "ls"], {
        cwd: fixture.project,
        env,
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(check.status).toBe(2);
    });
  }
});
