import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "../../test/cli/cli-fixture.js";
import { renderDemo, wrap } from "./render-demo.js";
import { runDemo } from "./run-demo.js";

describe("wrap", () => {
  it("breaks at spaces only, within the width, with a hanging indent", () => {
    const text = "so every retry will be denied. Do not retry it or a variant: Bash(rm -rf build).";
    const lines = wrap(text, 24);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(24);
    expect(lines.map((line) => line.trim()).join(" ")).toBe(text);
    expect(lines.slice(1).every((line) => line.startsWith("  "))).toBe(true);
  });
});

describe("renderDemo", () => {
  it("shows every word the model is told, without cutting any", async () => {
    const result = await runDemo();
    const text = renderDemo(result, 100);
    const told = result.steps[0]?.withToolgate.find((line) => line.startsWith("model is told: ")) ?? "";
    expect(told.length).toBeGreaterThan(100);
    expect(text).not.toContain("…");
    const words = text.split(/\s+/);
    for (const word of told.split(" ")) expect(words).toContain(word);
    for (const line of text.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it("ends the aborting turn with the abort, and shows later turns as never made", async () => {
    const result = await runDemo();
    expect(result.callsWith).toBe(2);
    expect(result.steps[1]?.withToolgate.at(-1)).toMatch(/^ABORT \(denials\): the run stops here, exit 6$/);
    const lines = renderDemo(result).split("\n");
    const abortLine = lines.findIndex((line) => line.includes("ABORT"));
    expect(lines[abortLine + 1]).toMatch(/^ {3}3 .*not made: toolgate stopped the run at turn 2$/);
  });

  it("says the exit code each run gives and that the demo itself exits 0", async () => {
    const text = renderDemo(await runDemo());
    expect(text).toContain('the run exits 0 ("success")');
    expect(text).toContain("the run exits 6 (toolgate aborted it)");
    expect(text).toContain("the demo itself exits 0");
  });
});

describe("toolgate demo", () => {
  it("exits 0 and prints the runs' exit codes", () => {
    ensureBuilt();
    const fixture = makeFixture({});
    try {
      const result = runCli(["demo"], { cwd: fixture.project, home: fixture.home });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toContain("the run exits 6");
    } finally {
      rmSync(fixture.root, { recursive: true, force: true });
    }
  });
});
