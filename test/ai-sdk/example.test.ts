import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The code block in docs/ai-sdk.md that starts with `// examples/<file>`, as the README examples test reads them. */
function quoted(file: string): string | undefined {
  const docs = readFileSync(join(root, "docs", "ai-sdk.md"), "utf8");
  const block = [...docs.matchAll(/```ts\n\/\/ (examples\/[^\n]+)\n([\s\S]*?)```/g)].find((match) => match[1] === file);
  return block?.[2];
}

describe("examples/ai-sdk.ts (the quick start in docs/ai-sdk.md)", () => {
  it.each(["examples/ai-sdk.ts", "examples/ai-sdk-approval-ui.ts", "examples/ai-sdk-opa-decider.ts"])(
    "docs/ai-sdk.md quotes %s verbatim (minus its leading comment)",
    (file) => {
      const source = readFileSync(join(root, file), "utf8")
        .split("\n")
        .filter(
          (line, index, lines) => !(line.startsWith("//") && lines.slice(0, index).every((l) => l.startsWith("//"))),
        )
        .join("\n");
      expect(quoted(file)).toBe(source);
    },
  );

  it("runs in a fresh project (built dist, temp HOME) and stops the looping agent at the threshold", () => {
    expect(existsSync(join(root, "dist", "hosts", "ai-sdk", "ai-sdk-entry.js")), "run `npm run build` first").toBe(
      true,
    );
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-example-"));
    dirs.push(dir);
    writeFileSync(join(dir, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
    const run = spawnSync(
      process.execPath,
      [join(root, "scripts", "run-example.mjs"), join(root, "examples", "ai-sdk.ts")],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(run.status, run.stderr).toBe(6);
    expect(run.stdout).toContain("stopped after 2 model calls (of up to 20), 0 commands run");
    expect(run.stdout).toContain("toolgate aborted the run: Bash was denied 2 times");
    expect(run.stdout).toContain("Bash(rm *)");
    // a config that names no log destination writes no JSON log lines (issue 25, item 16): logs are opt-in
    expect(run.stderr).not.toMatch(/^\{"level"/m);
    const db = new Database(join(dir, ".toolgate", "toolgate.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM denials").get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  }, 180_000);

  it("under `toolgate run`, the run links the AI SDK session: its summary names the denials and the abort (exit 6)", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-run-"));
    dirs.push(dir);
    writeFileSync(join(dir, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
    const run = spawnSync(
      process.execPath,
      [
        join(root, "dist", "cli", "main.js"),
        "run",
        "--",
        process.execPath,
        join(root, "scripts", "run-example.mjs"),
        join(root, "examples", "ai-sdk.ts"),
      ],
      { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, encoding: "utf8", timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(6);
    expect(`${run.stdout}${run.stderr}`).toContain("toolgate run: 2 denied calls; toolgate aborted the run.");
  }, 180_000);
});
