import { describe, expect, it } from "vitest";
import { toolIdentity } from "../../src/core/tool-families.js";
import { HOSTS } from "../../src/hosts/registry.js";

/**
 * Every tool name a host declares (`toolNames` in its descriptor) has its family and canonical name in the one tool
 * table (src/core/tool-families.ts): thresholds, rules and every view group by them, so a host whose tools fell to
 * `other` would escalate, match and report them as unknown tools.
 */
describe("every registered host's tool names are in the tool table", () => {
  it.each(HOSTS.filter((host) => host.toolNames.length > 0).map((host) => [host.name, host] as const))(
    "%s",
    (_name, host) => {
      const unknown = host.toolNames.filter((tool) => toolIdentity(tool).family === "other");
      expect(unknown).toEqual([]);
    },
  );

  it("the check sees a name the table does not know", () => {
    expect(toolIdentity("frobnicate_workspace").family).toBe("other");
  });
});
