import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

describe("toolgate import --write into a config that is not an object", () => {
  it.each(["null", "[]"])("refuses a target holding %s and leaves it as it was", (content) => {
    const { home, project } = makeFixture({
      "project/.claude/settings.json": { permissions: { deny: ["Bash(git push *)"] } },
      "project/toolgate.config.json": content,
    });
    const result = runCli(["import", "claude-code", "--write"], { cwd: project, home });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("toolgate.config.json");
    expect(readFileSync(join(project, "toolgate.config.json"), "utf8")).toBe(content);
  });
});
