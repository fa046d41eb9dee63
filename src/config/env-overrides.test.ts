import { describe, expect, it } from "vitest";
import { testPorts } from "../../test/support/core-fixtures.js";
import { compileCoreConfig } from "../core/compile-config.js";
import { thresholdFor } from "../core/threshold-for.js";
import { applyEnvOverrides } from "./env-overrides.js";
import { parseConfig } from "./parse-config.js";
import type { ToolgateConfig } from "./schema.js";

/** The threshold the core applies to `tool` after the env overrides, through the same path as a real config. */
function threshold(tool: string, env: Record<string, string>, file: unknown = {}): number {
  const parsed = parseConfig(file, { file: "toolgate.config.json" });
  if (!parsed.ok) throw parsed.error;
  const { config } = applyEnvOverrides(parsed.config as ToolgateConfig, env);
  return thresholdFor(compileCoreConfig({ options: config.escalation, ports: testPorts }), tool).threshold;
}

describe("TOOLGATE_DENY_THRESHOLD", () => {
  it("keeps the defaults when unset: shell 2, read 5, others 3", () => {
    expect([threshold("Bash", {}), threshold("Read", {}), threshold("Edit", {})]).toEqual([2, 5, 3]);
  });

  it("sets every tool's threshold, the shell and read defaults included", () => {
    const env = { TOOLGATE_DENY_THRESHOLD: "7" };
    for (const tool of ["Bash", "bash", "Read", "Grep", "Edit", "WebFetch", "mcp__github__create_issue", "Task"]) {
      expect(threshold(tool, env), tool).toBe(7);
    }
  });

  it("yields to a per-tool threshold the config file sets", () => {
    const file = { escalation: { thresholds: [{ tool: "Bash", threshold: 4 }] } };
    expect(threshold("Bash", { TOOLGATE_DENY_THRESHOLD: "7" }, file)).toBe(4);
    expect(threshold("Read", { TOOLGATE_DENY_THRESHOLD: "7" }, file)).toBe(7);
  });

  it("overrides the config file's familyThresholds and defaultThreshold", () => {
    const file = { escalation: { defaultThreshold: 9, familyThresholds: { shell: 8 } } };
    expect(threshold("Bash", {}, file)).toBe(8);
    expect(threshold("Bash", { TOOLGATE_DENY_THRESHOLD: "3" }, file)).toBe(3);
    expect(threshold("Edit", { TOOLGATE_DENY_THRESHOLD: "3" }, file)).toBe(3);
  });
});

describe("TOOLGATE_DENY_THRESHOLD_<FAMILY>", () => {
  it("sets one family's threshold, over TOOLGATE_DENY_THRESHOLD", () => {
    const env = { TOOLGATE_DENY_THRESHOLD: "6", TOOLGATE_DENY_THRESHOLD_SHELL: "1", TOOLGATE_DENY_THRESHOLD_MCP: "9" };
    expect(threshold("Bash", env)).toBe(1);
    expect(threshold("run_shell_command", env)).toBe(1);
    expect(threshold("mcp__github__create_issue", env)).toBe(9);
    expect(threshold("Read", env)).toBe(6);
  });

  it("leaves the other families at their defaults when used alone", () => {
    const env = { TOOLGATE_DENY_THRESHOLD_READ: "10" };
    expect([threshold("Read", env), threshold("Bash", env), threshold("Grep", env), threshold("Edit", env)]).toEqual([
      10, 2, 5, 3,
    ]);
  });

  it("ignores an invalid value with a warning that names the variable", () => {
    const { config, warnings } = applyEnvOverrides({}, { TOOLGATE_DENY_THRESHOLD_SHELL: "0" });
    expect(config.escalation?.familyThresholds).toBeUndefined();
    expect(warnings).toEqual([
      { code: "ENV_INVALID", message: expect.stringContaining("TOOLGATE_DENY_THRESHOLD_SHELL") },
    ]);
  });

  it("lists what it applied", () => {
    const { applied } = applyEnvOverrides({}, { TOOLGATE_DENY_THRESHOLD: "4", TOOLGATE_DENY_THRESHOLD_WEB: "2" });
    expect(applied).toEqual(expect.arrayContaining(["TOOLGATE_DENY_THRESHOLD", "TOOLGATE_DENY_THRESHOLD_WEB"]));
  });
});
