import { type HostDescriptor, withHome } from "../host-descriptor.js";
import { readClaudeSettings } from "./claude-settings-hierarchy.js";

/** Claude Code: command hooks in `.claude/settings*.json` (`toolgate hook claude-code`). */
export const claudeCodeHost: HostDescriptor = {
  name: "claude-code",
  displayName: "Claude Code",
  kind: "hook",
  toolNames: [
    "Bash",
    "PowerShell",
    "Read",
    "LS",
    "NotebookRead",
    "Grep",
    "Glob",
    "Edit",
    "MultiEdit",
    "Write",
    "NotebookEdit",
    "WebFetch",
    "WebSearch",
  ],
  hookHost: async () => (await import("./claude-hook-host.js")).claudeHookHost,
  settingsHierarchy: readClaudeSettings,
  installer: async () => {
    const module = await import("./install-claude-code.js");
    return {
      install: (options) => module.installClaudeCode(withHome(options)),
      uninstall: (options) => module.uninstallClaudeCode(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "local",
    why: "the default, --local: .claude/settings.local.json is this machine's own file, meant to stay out of git, and the hook command names this machine's node and toolgate; --project writes the team's shared .claude/settings.json instead",
  },
  importRules: {
    describe:
      "Claude Code's settings hierarchy (.claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json, managed settings)",
    example: "toolgate import claude-code",
    load: async () => (await import("./import-claude-code.js")).importClaudeCode,
  },
  // `.mcp.json` (`--project`), `~/.claude.json` `mcpServers` (`--user`) or its `projects["<cwd>"].mcpServers` (`--local`)
  mcpServers: async () =>
    (await import("../common/rewrite-json-servers.js")).jsonMcpServers({
      shape: "command-args",
      location: ({ scope, cwd, home }) =>
        scope === "project"
          ? { file: [cwd, ".mcp.json"], key: ["mcpServers"] }
          : { file: [home, ".claude.json"], key: scope === "user" ? ["mcpServers"] : ["projects", cwd, "mcpServers"] },
    }),
  doctor: async () => {
    const module = await import("./check-claude-code.js");
    return { found: module.claudeCodeFound, locations: module.claudeCodeLocations, check: module.checkClaudeCode };
  },
  stream: async () => (await import("./stream-parser.js")).claudeCodeStreamDetector,
  transcriptLocations: (options) => [`${options.homeDir}/.claude/projects`],
  transcriptFormats: async () => [
    (await import("./claude-code-session.js")).claudeCodeSession,
    (await import("./claude-stream-json.js")).claudeStreamJson,
  ],
  denialTexts: async () => (await import("./claude-code-denial-texts.js")).CLAUDE_CODE_DENIAL_TEXTS,
  ruleLanguage: async () => (await import("./claude-code-rule-language.js")).claudeCodeRuleLanguage,
  textOutputWithoutCalls:
    "Claude Code's `claude -p` text output holds only the final answer, no tool call: keep `--output-format stream-json --verbose` or the session files instead",
  help: {
    examples: {
      install: [
        ["toolgate install claude-code", ".claude/settings.local.json of this project (this machine only)"],
        ["toolgate install claude-code --project", ".claude/settings.json, shared with the team"],
        ["toolgate install claude-code --user", "~/.claude/settings.json"],
        ["toolgate install claude-code --dry-run", "show the diff only"],
      ],
      uninstall: ["toolgate uninstall claude-code", "toolgate uninstall claude-code --user --dry-run"],
      mcpProxy: {
        install: [["--host claude-code --server fs", ".mcp.json: the fs server runs through the proxy"]],
        uninstall: [["--host claude-code --server fs", "the entry's own command line again"]],
      },
      run: ['claude -p "fix the build" --output-format stream-json --verbose'],
      analyze: [
        "toolgate analyze ~/.claude/projects --since 7d",
        "toolgate analyze ci-logs/*.jsonl --host claude-code --json",
      ],
      hook: [
        `echo '{"hook_event_name":"PreToolUse","session_id":"s1","tool_use_id":"toolu_1","tool_name":"Bash","tool_input":{"command":"ls"}}' | toolgate hook claude-code`,
        ["toolgate install claude-code --dry-run", "shows the hook entries it would write"],
      ],
    },
    settings: {
      project: ".claude/settings.json",
      local: ".claude/settings.local.json",
      user: "~/.claude/settings.json",
    },
    uninstall: "every hook whose command ends in `hook claude-code` is removed, whatever path runs toolgate.",
    looksIn: "~/.claude, ./.claude",
    hookEntry: async () => (await import("./describe-hook-entry.js")).describeHookEntry(),
  },
};
