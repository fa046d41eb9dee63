import { type HostDescriptor, withHome } from "../host-descriptor.js";

/** Gemini CLI: command hooks in `.gemini/settings.json` (`toolgate hook gemini`), its policy TOML read beside. */
export const geminiHost: HostDescriptor = {
  name: "gemini",
  displayName: "Gemini CLI",
  kind: "hook",
  toolNames: [
    "run_shell_command",
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "grep_search",
    "search_file_content",
    "write_file",
    "replace",
    "web_fetch",
    "google_web_search",
  ],
  hookHost: async () => (await import("./gemini-hook-host.js")).geminiHookHost,
  installer: async () => {
    const module = await import("./install-gemini.js");
    return {
      install: (options) => module.installGemini(withHome(options)),
      uninstall: (options) => module.uninstallGemini(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.gemini/settings.json is this machine's own file, and the hook command names this machine's node and toolgate, which a shared project file must not carry; --project writes the project's .gemini/settings.json instead",
  },
  importRules: {
    describe: "Gemini CLI's policies (.gemini/policies/*.toml, ~/.gemini/policies/*.toml)",
    example: "toolgate import gemini ~/.gemini/policies/my-rules.toml",
    load: async () => (await import("./import-gemini.js")).importGemini,
  },
  // `.gemini/settings.json` (`--project`) or `~/.gemini/settings.json` (`--user`) `mcpServers`
  mcpServers: async () =>
    (await import("../common/rewrite-json-servers.js")).jsonMcpServers({
      shape: "command-args",
      location: ({ scope, cwd, home }) => ({
        file: [scope === "user" ? home : cwd, ".gemini", "settings.json"],
        key: ["mcpServers"],
      }),
    }),
  doctor: async () => {
    const module = await import("./check-gemini.js");
    return { found: module.geminiFound, locations: module.geminiLocations, check: module.checkGemini };
  },
  stream: async () => (await import("./gemini-stream.js")).geminiStreamDetector,
  transcriptLocations: (options) => [`${options.homeDir}/.gemini/tmp`],
  transcriptFormats: async () => [
    (await import("./gemini-session.js")).geminiSession,
    (await import("./gemini-stream-json.js")).geminiStreamJson,
    (await import("./gemini-output-log.js")).geminiOutputLog,
  ],
  denialTexts: async () => (await import("./gemini-denial-texts.js")).GEMINI_DENIAL_TEXTS,
  permissionRules: async () => (await import("./gemini-policy-rules.js")).geminiPolicyRules,
  help: {
    examples: {
      install: [
        ["toolgate install gemini --user", "~/.gemini/settings.json (or .gemini/settings.json without --user)"],
      ],
      run: ['gemini -p "fix the build" -o stream-json'],
    },
    settings: { project: ".gemini/settings.json", user: "~/.gemini/settings.json" },
    looksIn: "~/.gemini, ./.gemini/settings.json",
  },
};
