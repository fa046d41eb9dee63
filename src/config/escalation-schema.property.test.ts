import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bash, denied, ofType, run, testConfig, testPorts } from "../../test/support/core-fixtures.js";
import { CORE_OPTION_LIMITS, compileCoreConfig } from "../core/compile-config.js";
import type { CoreOptions } from "../core/config.js";
import { DEFAULT_TEMPLATES } from "../core/templates.js";
import { TOOL_FAMILY_NAMES } from "../core/tool-families.js";
import { escalationSchema } from "./escalation-schema.js";

/**
 * Every `escalation` section the zod schema accepts compiles with the core's `compileCoreConfig`: the schema and
 * the core agree on every value. Values are drawn around every boundary either side uses (0, 1, the limits, the
 * limits + 1, fractions, non-finite numbers, wrong types), so a value one side accepts and the other rejects is found.
 */

const limits = Object.values(CORE_OPTION_LIMITS);
/** mostly small whole numbers (0 and 1 included), then the limits either side, then anything else */
const value = fc.oneof(
  { weight: 30, arbitrary: fc.integer({ min: 0, max: 25 }) },
  { weight: 4, arbitrary: fc.constantFrom(...limits, ...limits.map((limit) => limit + 1), -1, -0, 120_000) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 1e300) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(false, true, null, "3", undefined) },
);
const strategy = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom("fallback", "skip", "abort") },
  { weight: 1, arbitrary: fc.constantFrom("stop", undefined) },
);
const glob = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("Bash", "mcp__*", "{Bash,shell}", "{a,{b}}", "Re?d", "*", "[x]", "a\\b", "{"),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const templateName = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...Object.keys(DEFAULT_TEMPLATES)) },
  { weight: 1, arbitrary: fc.constant("no.such.template") },
);

const section = fc.record(
  {
    thresholds: fc.array(
      fc.record({ tool: glob, threshold: value, headlessStrategy: strategy }, { requiredKeys: ["tool"] }),
      { maxLength: 3 },
    ),
    defaultThreshold: value,
    familyThresholds: fc.dictionary(
      fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...TOOL_FAMILY_NAMES) }, { weight: 1, arbitrary: fc.string() }),
      value,
      { maxKeys: 3 },
    ),
    hardMultiplier: value,
    totalThreshold: value,
    headlessStrategy: strategy,
    alternatives: fc.dictionary(glob, fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), { maxKeys: 3 }),
    grantWholeTool: fc.boolean(),
    recordBufferSize: value,
    sessionTreeBudget: value,
    nudge: fc.record(
      { threshold: value, cooldownMs: value, hourlyCap: value, enabled: fc.boolean() },
      { requiredKeys: [] },
    ),
    loop: fc.record(
      {
        observe: value,
        steer: value,
        block: value,
        stop: value,
        sameErrorSteer: value,
        maxCycleLength: value,
        exemptTools: fc.array(glob, { maxLength: 3 }),
      },
      { requiredKeys: [] },
    ),
    templates: fc.dictionary(templateName, fc.string({ maxLength: 40 }), { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

describe("the escalation schema and compileCoreConfig agree", () => {
  it("every section the schema accepts compiles without throwing", () => {
    let accepted = 0;
    fc.assert(
      fc.property(section, (candidate) => {
        const parsed = escalationSchema.safeParse(candidate);
        if (!parsed.success) return;
        accepted += 1;
        const options: CoreOptions = parsed.data;
        expect(() => compileCoreConfig({ options, ports: testPorts })).not.toThrow();
      }),
      { numRuns: 3000 },
    );
    // the property is only worth something if the schema accepted a good share of the candidates
    expect(accepted).toBeGreaterThan(200);
  });

  it.each([
    ["nudge.hourlyCap 0 (no nudges)", { nudge: { hourlyCap: 0 } }],
    ["nudge.cooldownMs 0", { nudge: { cooldownMs: 0 } }],
    ["loop.maxCycleLength at its limit", { loop: { maxCycleLength: CORE_OPTION_LIMITS.maxCycleLength } }],
    ["loop.stop at its limit", { loop: { stop: CORE_OPTION_LIMITS.loopStop } }],
    ["recordBufferSize at its limit", { recordBufferSize: CORE_OPTION_LIMITS.recordBufferSize }],
  ])("both accept %s", (_name, options) => {
    expect(escalationSchema.safeParse(options).success).toBe(true);
    expect(() => compileCoreConfig({ options: options as CoreOptions, ports: testPorts })).not.toThrow();
  });

  it.each([
    ["loop.maxCycleLength above its limit", { loop: { maxCycleLength: CORE_OPTION_LIMITS.maxCycleLength + 1 } }],
    ["loop.stop above its limit", { loop: { stop: CORE_OPTION_LIMITS.loopStop + 1 } }],
    ["recordBufferSize above its limit", { recordBufferSize: CORE_OPTION_LIMITS.recordBufferSize + 1 }],
    ["a fractional nudge.cooldownMs", { nudge: { cooldownMs: 1.5 } }],
    ["a negative nudge.hourlyCap", { nudge: { hourlyCap: -1 } }],
  ])("both reject %s", (_name, options) => {
    expect(escalationSchema.safeParse(options).success).toBe(false);
    expect(() => compileCoreConfig({ options: options as CoreOptions, ports: testPorts })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });

  it("nudge.hourlyCap 0 means no nudges", () => {
    const calls = ["rm a", "rm b", "rm c", "rm d"].map((command) => denied(bash(command)));
    const capped = run(calls, {
      config: testConfig({ headlessStrategy: "fallback", nudge: { threshold: 1, hourlyCap: 0 } }),
    });
    expect(ofType(capped.effects, "nudge")).toHaveLength(0);
    const uncapped = run(calls, { config: testConfig({ headlessStrategy: "fallback", nudge: { threshold: 1 } }) });
    expect(ofType(uncapped.effects, "nudge").length).toBeGreaterThan(0);
  });
});
