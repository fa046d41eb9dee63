import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { createClinePlugin } from "./cline-plugin.js";

const call = (id: string, command: string) => ({
  snapshot: { agentId: "agent_1", conversationId: "conv_1" },
  toolCall: { toolCallId: id, toolName: "run_commands", input: { commands: [command] } },
  input: { commands: [command] },
});

describe("the Cline plugin's entry (the composition root)", () => {
  test("toolgate's config decides; Claude Code's settings in the same project are not Cline's rules", async () => {
    const root = temporaryDirectory("toolgate-cline-entry-");
    const project = join(root, "project");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(echo *)"] } }),
    );
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(rm *)"] } }));
    const plugin = createClinePlugin({
      environment: { HOME: join(root, "home"), TOOLGATE_DB: join(root, "toolgate.db") },
      tell: () => undefined,
    });
    await plugin.setup({}, { session: { sessionId: "entry-1" }, workspaceInfo: { rootPath: project } });
    try {
      expect(await plugin.hooks.beforeTool(call("c1", "echo hi"))).toBeUndefined();
      expect(await plugin.hooks.beforeTool(call("c2", "rm -rf build"))).toMatchObject({
        skip: true,
        reason: expect.stringContaining("Bash(rm *)"),
      });
    } finally {
      await plugin.dispose();
    }
  });
});
