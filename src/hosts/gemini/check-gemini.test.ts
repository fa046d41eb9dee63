import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkGemini, geminiFound } from "./check-gemini.js";
import { installGemini } from "./install-gemini.js";

let home: string;
let cwd: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "toolgate-doctor-gemini-"));
  cwd = join(home, "project");
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  mkdirSync(cwd);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const context = () => ({ cwd, env: {}, home });
const byName = (name: string) => checkGemini(context()).find((check) => check.name === name);

describe("toolgate doctor: Gemini CLI", () => {
  it("finds Gemini by ~/.gemini, and says how to install when no hook is there", () => {
    expect(geminiFound(context())).toBe(true);
    expect(byName("gemini hooks")).toMatchObject({ status: "warn", fix: expect.stringContaining("install gemini") });
  });

  it("ok when every hook is installed and its paths exist; fail when the toolgate it runs is gone", () => {
    installGemini({ scope: "user", dryRun: false, home, cwd, command: `"${process.execPath}" hook gemini` });
    expect(byName("gemini hooks (user)")?.status).toBe("ok");
    installGemini({ scope: "user", dryRun: false, home, cwd, command: `"${join(home, "gone.cjs")}" hook gemini` });
    expect(byName("gemini hooks (user)")).toMatchObject({
      status: "fail",
      message: expect.stringContaining("gone.cjs"),
    });
  });

  it("reads the user's policies as the hook does: counts rules, warns on rules it cannot express, fails on bad TOML", () => {
    const policies = join(home, ".gemini", "policies");
    writeFileSync(
      join(policies, "a.toml"),
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\n',
    );
    expect(byName("gemini policies")).toMatchObject({ status: "ok", message: expect.stringContaining("1 rules") });
    writeFileSync(
      join(policies, "b.toml"),
      '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "rm.*"\ndecision = "deny"\n',
    );
    expect(byName("gemini policies")?.status).toBe("warn");
    writeFileSync(join(policies, "c.toml"), "[[rule]\n");
    expect(byName("gemini policies")).toMatchObject({ status: "fail", message: expect.stringContaining("c.toml") });
  });
});
