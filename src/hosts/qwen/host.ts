import { type HostDescriptor, withHome } from "../host-descriptor.js";

/** Qwen Code: command hooks in `.qwen/settings.json` (`toolgate hook qwen`). */
export const qwenHost: HostDescriptor = {
  name: "qwen",
  displayName: "Qwen Code",
  kind: "hook",
  toolNames: [
    "run_shell_command",
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "grep_search",
    "write_file",
    "edit",
    "web_fetch",
  ],
  hookHost: async () => (await import("./qwen-hook-host.js")).qwenHookHost,
  installer: async () => {
    const module = await import("./install-qwen.js");
    return {
      install: (options) => module.installQwen(withHome(options)),
      uninstall: (options) => module.uninstallQwen(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.qwen/settings.json is this machine's own file, and the hook command names this machine's node and toolgate, which a shared project file must not carry; --project writes the project's .qwen/settings.json instead",
  },
  importRules: {
    describe: "Qwen Code's `permissions` and `tools.exclude` (.qwen/settings.json, ~/.qwen/settings.json)",
    example: "toolgate import qwen",
    load: async () => (await import("./import-qwen.js")).importQwen,
  },
  doctor: async () => {
    const module = await import("./check-qwen.js");
    return { found: module.qwenFound, check: module.checkQwen };
  },
  stream: async () => (await import("./qwen-stream.js")).qwenStreamDetector,
  transcriptLocations: (options) => [`${options.homeDir}/.qwen/projects`],
  transcriptFormats: async () => [
    (await import("./qwen-chat.js")).qwenChat,
    (await import("./qwen-stream-json.js")).qwenStreamJson,
    (await import("./qwen-text.js")).qwenText,
  ],
  denialTexts: async () => (await import("./qwen-denial-texts.js")).QWEN_DENIAL_TEXTS,
  help: {
    examples: {
      install: [
        ["toolgate install qwen --user", "~/.qwen/settings.json (the default; .qwen/settings.json with --project)"],
      ],
    },
    settings: { project: ".qwen/settings.json", user: "~/.qwen/settings.json" },
  },
};
