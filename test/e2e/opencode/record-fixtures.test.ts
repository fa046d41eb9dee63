import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { bash, type Script, sequenceScript, startFakeOpenAI, toolStep } from "./fake-openai.js";
import { runOpencode } from "./run-opencode.js";

/**
 * Records what the real opencode binary hands a plugin (every hook call and bus event) into
 * test/fixtures/opencode/<name>.json. The adapter's unit tests replay these. Run it when the pinned opencode
 * version changes:  TOOLGATE_RECORD_OPENCODE_FIXTURES=1 npx vitest run test/e2e/opencode/record-fixtures.test.ts
 */
const recording = process.env.TOOLGATE_RECORD_OPENCODE_FIXTURES === "1";
const fixtures = resolve("test/fixtures/opencode");
const probe = resolve("test/e2e/opencode/probe-plugin.ts");
const denyRm = { bash: { "*": "allow", "rm *": "deny" } };

interface Recording {
  name: string;
  description: string;
  script: Script;
  permission: unknown;
  files?: Record<string, string>;
  env?: Record<string, string>;
}

const recordings: Recording[] = [
  {
    name: "deny-rule",
    description: "bash `rm *` deny rule: two denied calls, then an allowed call that succeeds",
    script: sequenceScript([
      toolStep(bash("rm -rf victim")),
      toolStep(bash("rm -rf victim")),
      toolStep(bash("echo hi")),
    ]),
    permission: denyRm,
    files: { "victim/keep.txt": "keep" },
  },
  {
    name: "ask-reject",
    description: "bash `rm *` ask in headless `opencode run`: auto-rejected, the session stops",
    script: sequenceScript([toolStep(bash("rm -rf victim"))]),
    permission: { bash: { "*": "allow", "rm *": "ask" } },
    files: { "victim/keep.txt": "keep" },
  },
  {
    name: "ask-reject-parallel",
    description: "two asks in one assistant message: the first reject rejects the other pending request too",
    script: sequenceScript([toolStep(bash("rm -rf victim"), bash("rm -rf other"))]),
    permission: { bash: { "*": "allow", "rm *": "ask" } },
    files: { "victim/keep.txt": "keep", "other/keep.txt": "keep" },
  },
  {
    name: "os-errors",
    description: "bash output with a real EACCES (a file without execute permission), then grep exit 1 (no match)",
    script: sequenceScript([toolStep(bash("./not-executable.sh")), toolStep(bash("grep -r no-such-text-anywhere ."))]),
    permission: { bash: "allow" },
    files: { "not-executable.sh": "#!/bin/sh\necho hi\n", "notes.txt": "nothing to see" },
  },
  {
    name: "deny-rule-note",
    description: "deny rule, with a noReply note sent through promptAsync after the first denial",
    script: sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rm -rf victim"))]),
    permission: denyRm,
    files: { "victim/keep.txt": "keep" },
    env: { TOOLGATE_PROBE_NOTE: "1" },
  },
];

function shorten(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > 1500 ? `${value.slice(0, 1500)}...[${value.length} chars]` : value;
}

describe.runIf(recording)("record opencode fixtures", () => {
  for (const item of recordings) {
    test(item.name, async () => {
      const fake = await startFakeOpenAI(item.script);
      const log = join(mkdtempSync(join(tmpdir(), "toolgate-probe-")), "probe.jsonl");
      writeFileSync(log, "");
      try {
        const result = await runOpencode({
          fake,
          prompt: "Please clean up the project",
          permission: item.permission,
          plugins: [probe],
          files: item.files,
          env: { TOOLGATE_PROBE_LOG: log, ...item.env },
        });
        expect(result.timedOut).toBe(false);
        const entries = readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown);
        const fixture = {
          opencode: "1.18.33",
          description: item.description,
          permission: item.permission,
          exitCode: result.exitCode,
          stderr: result.stderr.split("\n").filter((line) => !line.includes("level=")),
          modelSaw: fake.agentRequests().map((request) => request.body.messages?.filter((m) => m.role !== "system")),
          entries,
        };
        writeFileSync(join(fixtures, `${item.name}.json`), `${JSON.stringify(fixture, shorten, 2)}\n`);
      } finally {
        await fake.close();
      }
    }, 90_000);
  }
});
