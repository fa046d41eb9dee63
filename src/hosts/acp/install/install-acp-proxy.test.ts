import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../../test/support/temporary-directory.js";
import { checkAcpProxy } from "./check-acp-proxy.js";
import { installAcpProxy } from "./install-acp-proxy.js";

/** Zed's settings are JSONC: comments, trailing commas, its own agents without a command, a custom one with one. */
const ZED = `// Zed settings
{
  "theme": "One Dark",
  "agent_servers": {
    "claude": { "default_mode": "plan" }, // built in: no command
    "Claude Code (ACP)": {
      "type": "custom",
      "command": "npx",
      "args": ["@zed-industries/claude-code-acp"],
      "env": { "ANTHROPIC_LOG": "debug" },
    },
    "My Agent": {
      "command": "/opt/agent/bin/agent",
    },
  },
}
`;

const JETBRAINS = `{
  "agent_servers": {
    "Codex": {
      "command": "npx",
      "args": [
        "@zed-industries/codex-acp"
      ],
      "env": {}
    }
  }
}
`;

const PREFIX = "node /opt/toolgate/dist/cli/main.js";

function place(file: string[], text: string) {
  const home = temporaryDirectory("toolgate-acp-install-");
  const path = join(home, ...file);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text, { mode: 0o640 });
  return { home, path, env: { HOME: home } };
}

describe("toolgate install acp-proxy", () => {
  it("zed: every agent with a command runs through the proxy, and uninstall gives back the very bytes", () => {
    const { path, env } = place([".config", "zed", "settings.json"], ZED);
    const installed = installAcpProxy({ editor: "zed", scope: "user", dryRun: false, command: PREFIX, env }, "install");
    expect(installed.changed).toBe(true);
    const text = readFileSync(path, "utf8");
    expect(text).toContain(
      `"args": ["/opt/toolgate/dist/cli/main.js", "acp-proxy", "--", "npx", "@zed-industries/claude-code-acp"]`,
    );
    expect(text).toMatch(
      /"My Agent": \{\s+"command": "node",\s+"args": \[\s+"\/opt\/toolgate\/dist\/cli\/main.js",\s+"acp-proxy",\s+"--",\s+"\/opt\/agent\/bin\/agent"\s+\]/,
    );
    expect(text).toContain(`// built in: no command`);
    expect(installed.notes).toEqual([expect.stringContaining(`"claude" has no command of its own`)]);
    // installing again changes nothing
    expect(
      installAcpProxy({ editor: "zed", scope: "user", dryRun: false, command: PREFIX, env }, "install").changed,
    ).toBe(false);
    expect(checkAcpProxy({ cwd: "/", home: env.HOME, env })).toEqual([expect.objectContaining({ status: "ok" })]);
    const removed = installAcpProxy({ editor: "zed", scope: "user", dryRun: false, env }, "uninstall");
    expect(removed.changed).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(ZED);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(checkAcpProxy({ cwd: "/", home: env.HOME, env })).toEqual([
      expect.objectContaining({ status: "warn", fix: "toolgate install acp-proxy --editor zed --user" }),
    ]);
  });

  it("jetbrains: one agent by name, a multi-line args array, byte for byte back; a dry run writes nothing", () => {
    const { path, env } = place([".jetbrains", "acp.json"], JETBRAINS);
    const dry = installAcpProxy(
      { editor: "jetbrains", scope: "user", dryRun: true, agent: "Codex", command: PREFIX, env },
      "install",
    );
    expect(dry).toMatchObject({ changed: true, written: false });
    expect(dry.diff.join("\n")).toContain("acp-proxy");
    expect(readFileSync(path, "utf8")).toBe(JETBRAINS);
    installAcpProxy(
      { editor: "jetbrains", scope: "user", dryRun: false, agent: "Codex", command: PREFIX, env },
      "install",
    );
    expect(JSON.parse(readFileSync(path, "utf8")).agent_servers.Codex).toEqual({
      command: "node",
      args: ["/opt/toolgate/dist/cli/main.js", "acp-proxy", "--", "npx", "@zed-industries/codex-acp"],
      env: {},
    });
    installAcpProxy({ editor: "jetbrains", scope: "user", dryRun: false, env }, "uninstall");
    expect(readFileSync(path, "utf8")).toBe(JETBRAINS);
  });

  it("says what to do for an unknown editor, a missing file, an unknown agent and a JetBrains project scope", () => {
    const { env } = place([".jetbrains", "acp.json"], JETBRAINS);
    const install = (options: Partial<Parameters<typeof installAcpProxy>[0]>) => () =>
      installAcpProxy({ editor: "zed", scope: "user", dryRun: true, env, ...options }, "install");
    expect(install({ editor: "vim" })).toThrow(/--editor zed\|jetbrains/);
    expect(install({ editor: undefined })).toThrow(/--editor zed\|jetbrains/);
    expect(install({})).toThrow(/does not exist: there is no ACP agent/);
    expect(install({ editor: "jetbrains", agent: "Gemini" })).toThrow(/no agent "Gemini".*Codex/);
    expect(install({ editor: "jetbrains", scope: "project" })).toThrow(/use --user/);
    expect(existsSync(join(env.HOME, ".config"))).toBe(false);
  });
});
