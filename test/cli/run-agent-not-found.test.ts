import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(() => ensureBuilt());

describe("toolgate run with an agent that cannot start", () => {
  it("exits 127 and names the command when it is not found, as sh does (not 1, which means a bug)", () => {
    const fixture = makeFixture({});
    const result = runCli(["run", "--", "no-such-agent-xyz", "-p", "hi"], { cwd: fixture.project, home: fixture.home });
    expect(result.status).toBe(EXIT.notFound);
    expect(result.status).toBe(127);
    expect(result.stderr).toBe(
      "toolgate run: no-such-agent-xyz: command not found (check its name, or give its full path; PATH is searched)\n",
    );
  });

  it("exits 126 when the file is not executable", () => {
    const fixture = makeFixture({});
    const agent = join(fixture.project, "agent.sh");
    writeFileSync(agent, "#!/bin/sh\necho hi\n");
    chmodSync(agent, 0o644);
    const result = runCli(["run", "--", agent], { cwd: fixture.project, home: fixture.home });
    expect(result.status).toBe(EXIT.notExecutable);
    expect(result.stderr).toContain("permission denied (the file is not executable)");
  });
});
