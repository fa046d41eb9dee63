import { describe, expect, it } from "vitest";
import { NUDGE_THRESHOLD_VARIABLES } from "../hosts/registry.js";
import { configJsonSchema } from "./config-json-schema.js";
import { applyEnvOverrides } from "./env-overrides.js";
import { mergeConfigs } from "./merge-configs.js";
import { parseConfig } from "./parse-config.js";

describe("parseConfig", () => {
  it("accepts a full config", () => {
    const result = parseConfig(
      {
        $schema: "./node_modules/toolgate/schema.json",
        permissions: {
          allow: ["Bash(npm run test *)"],
          deny: ["Read(./.env)"],
          ask: ["WebFetch"],
          rules: [{ rule: "Bash(git *)", behavior: "allow", priority: 2, interactive: true, modes: ["default"] }],
          defaultMode: "acceptEdits",
          neverGrant: ["Bash(rm *)"],
          additionalDirectories: ["../shared"],
          defaults: "claude-code",
        },
        escalation: {
          thresholds: [{ tool: "Bash", threshold: 2, headlessStrategy: "fallback" }],
          defaultThreshold: 3,
          hardMultiplier: 2,
          headlessStrategy: "abort",
          alternatives: { Bash: ["Read"] },
          grantWholeTool: false,
          recordBufferSize: 100,
          sessionTreeBudget: 50,
          nudge: { threshold: 2, cooldownMs: 1000, hourlyCap: 3, enabled: true },
          loop: {
            observe: 3,
            steer: 4,
            block: false,
            stop: 8,
            sameErrorSteer: 3,
            maxCycleLength: 5,
            exemptTools: ["TodoWrite"],
          },
          templates: { hard: "STOP {pattern}" },
        },
        claudeSettings: { enabled: true, workspaceTrust: "untrusted" },
        audit: {},
        store: {},
        redaction: {},
      },
      { file: "toolgate.config.json" },
    );
    expect(result.ok, result.ok ? "" : result.error.message).toBe(true);
  });
  it("names the file, the key path and what to write instead", () => {
    const result = parseConfig(
      {
        permissions: { alow: ["Bash"], defaultMode: "yolo", deny: ["Bash(oops"] },
        escalation: { defaultThreshold: "3" },
      },
      { file: "/repo/toolgate.config.json" },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("CONFIG_INVALID");
    const message = result.error.message;
    expect(message).toContain("/repo/toolgate.config.json");
    expect(message).toContain("permissions.alow: unknown key `alow` (did you mean `allow`?)");
    expect(message).toMatch(/permissions\.defaultMode: .*write one of "default", "acceptEdits"/);
    expect(message).toContain("permissions.deny[0]: Cannot read the permission rule");
    expect(message).toContain("escalation.defaultThreshold:");
    expect(result.error.data?.issues).toHaveLength(4);
  });
  it("lists the allowed keys when no key is close", () => {
    const result = parseConfig({ zzzzzzzz: 1 }, { file: "x.json" });
    expect(result.ok ? "" : result.error.message).toContain("the keys allowed here are `$schema`, `permissions`");
  });
  it("rejects unknown template names", () => {
    const result = parseConfig({ escalation: { templates: { hrad: "x" } } }, { file: "x.json" });
    expect(result.ok ? "" : result.error.message).toContain("did you mean `hard`?");
  });
});

describe("applyEnvOverrides", () => {
  it("overrides thresholds from the environment", () => {
    const { config, warnings } = applyEnvOverrides(
      { escalation: { nudge: { cooldownMs: 5 } } },
      { TOOLGATE_DENY_THRESHOLD: "5", OPENCODE_DENY_THRESHOLD: "4" },
      { nudgeAliases: ["OPENCODE_DENY_THRESHOLD"] },
    );
    const families = { shell: 5, read: 5, search: 5, edit: 5, web: 5, mcp: 5, other: 5 };
    expect(config.escalation).toEqual({
      defaultThreshold: 5,
      familyThresholds: families,
      nudge: { cooldownMs: 5, threshold: 4 },
    });
    expect(warnings).toEqual([]);
  });
  it("prefers TOOLGATE_NUDGE_THRESHOLD over OPENCODE_DENY_THRESHOLD", () => {
    const { config } = applyEnvOverrides(
      {},
      { TOOLGATE_NUDGE_THRESHOLD: "7", OPENCODE_DENY_THRESHOLD: "4" },
      { nudgeAliases: ["OPENCODE_DENY_THRESHOLD"] },
    );
    expect(config.escalation?.nudge?.threshold).toBe(7);
    // the older variable is the opencode descriptor's, read through the registry
    expect(NUDGE_THRESHOLD_VARIABLES).toEqual(["OPENCODE_DENY_THRESHOLD"]);
  });
  it("falls back to the configured value with a warning for a non-numeric value", () => {
    const { config, warnings } = applyEnvOverrides(
      { escalation: { defaultThreshold: 2 } },
      { TOOLGATE_DENY_THRESHOLD: "lots" },
    );
    expect(config.escalation?.defaultThreshold).toBe(2);
    expect(warnings).toEqual([{ code: "ENV_INVALID", message: expect.stringContaining("TOOLGATE_DENY_THRESHOLD") }]);
  });
});

describe("mergeConfigs", () => {
  it("concatenates rule lists and lets the later file win elsewhere", () => {
    const merged = mergeConfigs(
      {
        permissions: { deny: ["Bash(rm *)"], defaultMode: "plan" },
        escalation: { defaultThreshold: 2, hardMultiplier: 3 },
      },
      { permissions: { deny: ["Read(.env)"], defaultMode: "default" }, escalation: { defaultThreshold: 4 } },
    );
    expect(merged).toEqual({
      permissions: { deny: ["Bash(rm *)", "Read(.env)"], defaultMode: "default" },
      escalation: { defaultThreshold: 4, hardMultiplier: 3 },
    });
  });
});

describe("configJsonSchema", () => {
  it("describes every root section", () => {
    const schema = configJsonSchema() as { properties: Record<string, unknown>; additionalProperties: unknown };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["permissions", "escalation", "claudeSettings", "audit", "store", "redaction"]),
    );
    expect(schema.additionalProperties).toBe(false);
  });
});
