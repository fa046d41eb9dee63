import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HostStreamSummary } from "../../hosts/common/host-stream.js";
import type { HostDescriptor } from "../../hosts/host-descriptor.js";
import { addRunDenials } from "./run-denials.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

const denial = (toolUseId: string) => ({ toolUseId, tool: "Bash", input: { command: "rm -rf x" } });

describe("addRunDenials: the denials a host's stream does not show, read after the run", () => {
  const fake: HostDescriptor = {
    name: "fake",
    displayName: "Fake",
    kind: "hook",
    toolNames: [],
    runDenials: async () => (options) => (options.sessionId === "s1" ? [denial("a"), denial("b")] : []),
  };
  const host = (name: string) => (name === "fake" ? fake : undefined);

  it("adds the host's denials the stream does not already have, after the stream's own", async () => {
    const stream: HostStreamSummary = { host: "fake", sessionId: "s1", denials: [denial("b")] };
    await addRunDenials({ stream, env: {}, host });
    expect(stream.denials.map((item) => item.toolUseId)).toEqual(["b", "a"]);
  });

  it("changes nothing without a session id, for a host without the part, or without a stream", async () => {
    const noSession: HostStreamSummary = { host: "fake", denials: [] };
    await addRunDenials({ stream: noSession, env: {}, host });
    expect(noSession.denials).toEqual([]);
    const other: HostStreamSummary = { host: "other", sessionId: "s1", denials: [] };
    await addRunDenials({ stream: other, env: {}, host });
    expect(other.denials).toEqual([]);
    await expect(addRunDenials({ stream: undefined, env: {}, host })).resolves.toBeUndefined();
  });

  it("through the registry: a Codex run's denials come from the session's rollout under $CODEX_HOME", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-run-denials-"));
    roots.push(root);
    const day = join(root, "sessions", "2026", "01", "02");
    mkdirSync(day, { recursive: true });
    copyFileSync(join(fixtures, "codex", "forbidden.rollout.jsonl"), join(day, "rollout-2026-01-02T10-00-00-s9.jsonl"));
    const stream: HostStreamSummary = { host: "codex", sessionId: "s9", denials: [] };
    await addRunDenials({ stream, env: { CODEX_HOME: root, HOME: root } });
    expect(stream.denials.map((item) => item.toolUseId)).toEqual(["call_1", "call_2"]);
    expect(stream.denials[0]?.reason).toContain("rm is forbidden");
    const claude: HostStreamSummary = { host: "claude-code", sessionId: "s9", denials: [] };
    await addRunDenials({ stream: claude, env: { CODEX_HOME: root, HOME: root } });
    expect(claude.denials).toEqual([]);
  });
});
