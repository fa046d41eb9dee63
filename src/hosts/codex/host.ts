import type { HostDescriptor } from "../host-descriptor.js";

/** Codex CLI: command hooks in `hooks.json` (`toolgate hook codex`), Codex's own `.rules` in the policy beside toolgate's. */
export const codexHost: HostDescriptor = {
  name: "codex",
  displayName: "Codex CLI",
  kind: "hook",
  toolNames: [
    "shell",
    "shell_command",
    "exec_command",
    "local_shell",
    "container_exec",
    "container.exec",
    "view_image",
    "apply_patch",
    "web_search",
  ],
  hookHost: async () => (await import("./codex-hook-host.js")).codexHookHost,
  installer: async () => (await import("./codex-installer.js")).codexInstaller,
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: $CODEX_HOME/hooks.json is this machine's own file, and the hook command names this machine's node and toolgate, which a shared project file must not carry; --project writes the project's .codex/hooks.json instead",
  },
  importRules: {
    describe:
      "Codex's execpolicy .rules files ($CODEX_HOME/rules/*.rules, the trusted project's .codex/rules/*.rules; literal prefix_rule calls only)",
    example: "toolgate import codex",
    load: async () => (await import("./import-codex.js")).importCodex,
  },
  // `$CODEX_HOME/config.toml` (default `~/.codex`) `[mcp_servers.<name>]`, every scope
  mcpServers: async () => (await import("./rewrite-codex-servers.js")).codexMcpServers,
  doctor: async () => {
    const module = await import("./check-codex.js");
    return { found: module.codexFound, locations: module.codexLocations, check: module.checkCodex };
  },
  stream: async () => (await import("./codex-stream.js")).codexStreamDetector,
  // `codex exec --json` shows no denied call: the session's rollout does
  runDenials: async () => (await import("./codex-rollout-denials.js")).codexRolloutDenials,
  transcriptLocations: (options) => [`${options.env["CODEX_HOME"] || `${options.homeDir}/.codex`}/sessions`],
  transcriptFormats: async () => [
    (await import("./codex-rollout.js")).codexRollout,
    (await import("./codex-exec-json.js")).codexExecJson,
    (await import("./codex-text.js")).codexText,
  ],
  permissionRules: async () => (await import("./codex-policy-rules.js")).codexPolicyRules,
  denialTexts: async () => (await import("./codex-denial-texts.js")).CODEX_DENIAL_TEXTS,
  ruleLanguage: async () => (await import("./codex-rule-language.js")).codexRuleLanguage,
  help: {
    examples: {
      install: [["toolgate install codex --user", "$CODEX_HOME/hooks.json, trusted through codex app-server"]],
      mcpProxy: {
        install: [["--host codex --dry-run", "every stdio server in $CODEX_HOME/config.toml"]],
      },
      run: ['codex exec "fix the build"'],
      analyze: [["toolgate analyze ~/.codex/sessions --save", "then: toolgate report"]],
    },
    settings: { project: ".codex/hooks.json", user: "$CODEX_HOME/hooks.json" },
    looksIn: "$CODEX_HOME, ./.codex",
  },
};
