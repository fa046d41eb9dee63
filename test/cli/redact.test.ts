import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, makeFixture } from "./cli-fixture.js";

/** fake secrets assembled from parts (no secret-shaped literal in the source) */
const ghp = `${"gh"}p_${"Q1w2E3r4T5y6U7i8O9p0".repeat(2).slice(0, 36)}`;
const awsId = `${"AK"}IA${"QWERTYUIOP234567"}`;

function redact(args: string[], options: { input?: string; cwd: string; home: string }) {
  const result = spawnSync(process.execPath, [cliPath, "redact", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", TMPDIR: tmpdir(), HOME: options.home },
    input: options.input ?? "",
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => ensureBuilt());

describe("toolgate redact", () => {
  it("redacts plain text from stdin and counts by kind on stderr", () => {
    const { project, home } = makeFixture({});
    const input = `export GITHUB_TOKEN=${ghp}\ngit clone https://bob:hunter22@git.example.com/app.git\nls -la\n`;
    const result = redact([], { input, cwd: project, home });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      "export GITHUB_TOKEN=[REDACTED:github-token]\ngit clone https://bob:[REDACTED:url-password]@git.example.com/app.git\nls -la\n",
    );
    expect(result.stderr).toContain("2 redactions");
    expect(result.stderr).toContain("github-token: 1");
    expect(result.stderr).toContain("url-password: 1");
  });

  it("keeps a JSONL transcript valid, line by line", () => {
    const lines = [
      {
        type: "assistant",
        message: {
          content: [{ type: "tool_use", name: "Bash", input: { command: `AWS_ACCESS_KEY_ID=${awsId} aws s3 ls` } }],
        },
      },
      {
        type: "user",
        message: { content: [{ type: "tool_result", content: "ok", is_error: false }] },
        uuid: "5f1c8a5e-2d3b-4c1e-9f00-1a2b3c4d5e6f",
      },
      {
        type: "assistant",
        message: {
          content: [
            { type: "tool_use", name: "Write", input: { file_path: ".env", content: "DB_PASSWORD=s3cretpass\n" } },
          ],
        },
      },
    ];
    const { root, project, home } = makeFixture({
      "project/session.jsonl": `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`,
    });
    const result = redact([join(root, "project/session.jsonl")], { cwd: project, home });
    expect(result.status).toBe(0);
    const out = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(out).toHaveLength(3);
    expect(out[0].message.content[0].input.command).toBe("AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id] aws s3 ls");
    expect(out[1]).toEqual(lines[1]);
    expect(out[2].message.content[0].input.content).toBe("DB_PASSWORD=[REDACTED:password]\n");
    expect(result.stdout).not.toContain(awsId);
  });

  it("keeps a pretty JSON file valid and indented", () => {
    const document = { headers: { Authorization: `Bearer ${ghp}` }, url: "https://api.example.com" };
    const { root, project, home } = makeFixture({ "project/input.json": `${JSON.stringify(document, null, 4)}\n` });
    const result = redact(["--format", "json", join(root, "project/input.json")], { cwd: project, home });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      headers: { Authorization: "[REDACTED:authorization]" },
      url: document.url,
    });
    expect(result.stdout).toContain('\n    "headers"');
  });

  it("uses extension patterns from the project config, unless --no-config", () => {
    const { project, home } = makeFixture({
      "project/toolgate.config.json": { redaction: { patterns: [{ kind: "acme-key", pattern: "acme_[a-z0-9]{8}" }] } },
    });
    expect(redact([], { input: "key acme_abcd1234", cwd: project, home }).stdout).toBe("key [REDACTED:acme-key]");
    expect(redact(["--no-config"], { input: "key acme_abcd1234", cwd: project, home }).stdout).toBe(
      "key acme_abcd1234",
    );
  });

  it("refuses an unsafe config pattern with a clear message and exit 2", () => {
    const { project, home } = makeFixture({
      "project/toolgate.config.json": { redaction: { patterns: [{ kind: "slow", pattern: "(a+)+$" }] } },
    });
    const result = redact([], { input: "x", cwd: project, home });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unsafe redaction pattern");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe("");
  });

  it("reports bad input with exit 2 and no stack trace", () => {
    const { project, home } = makeFixture({});
    const missing = redact(["nope.txt"], { cwd: project, home });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nope.txt does not exist");
    const invalid = redact(["--format", "json"], { input: "{bad", cwd: project, home });
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toContain("not valid JSON");
    expect(`${missing.stderr}${invalid.stderr}`).not.toMatch(/\n\s+at /);
    expect(redact(["--format", "yaml"], { input: "", cwd: project, home }).status).toBe(2);
  });

  it("prints help with examples", () => {
    const { project, home } = makeFixture({});
    const result = redact(["--help"], { cwd: project, home });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Examples:");
    expect(result.stdout).toContain("toolgate redact");
  });
});
