import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkQwen, qwenFound } from "./check-qwen.js";
import { installQwen } from "./install-qwen.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function context() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-doctor-qwen-"));
  roots.push(root);
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(join(home, ".qwen"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, cwd, env: {} };
}

describe("toolgate doctor: Qwen Code", () => {
  it("warns about ask rules yolo mode ignores and about missing hooks", () => {
    const doctor = context();
    writeFileSync(
      join(doctor.home, ".qwen", "settings.json"),
      JSON.stringify({ permissions: { ask: ["Bash(rm *)"] } }),
    );
    expect(qwenFound(doctor)).toBe(true);
    const checks = checkQwen(doctor);
    expect(checks.find((check) => check.name === "qwen ask rules (user)")).toMatchObject({ status: "warn" });
    expect(checks.find((check) => check.name === "qwen ask rules (user)")?.message).toContain("yolo");
    expect(checks.find((check) => check.name === "qwen hooks")).toMatchObject({ status: "warn" });
  });

  it("is ok when every hook is installed and its files exist; fails when they are gone", () => {
    const doctor = context();
    installQwen({
      scope: "user",
      dryRun: false,
      cwd: doctor.cwd,
      home: doctor.home,
      command: `"${process.execPath}" "${process.execPath}" hook qwen`,
    });
    expect(checkQwen(doctor)).toEqual([expect.objectContaining({ name: "qwen hooks (user)", status: "ok" })]);
    installQwen({
      scope: "user",
      dryRun: false,
      cwd: doctor.cwd,
      home: doctor.home,
      command: `"${process.execPath}" "/gone/toolgate-hook.cjs" hook qwen`,
    });
    expect(checkQwen(doctor)).toEqual([expect.objectContaining({ name: "qwen hooks (user)", status: "fail" })]);
  });
});
