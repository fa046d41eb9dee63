import { type HostDescriptor, withHome } from "../host-descriptor.js";

/** opencode: a plugin in opencode's own process (`toolgate/opencode`), opencode's permission rules decide. */
export const opencodeHost: HostDescriptor = {
  name: "opencode",
  displayName: "opencode",
  kind: "in-process",
  // the plugin's nudge threshold before TOOLGATE_NUDGE_THRESHOLD existed; still read, after it
  nudgeThresholdVariable: "OPENCODE_DENY_THRESHOLD",
  toolNames: [
    "bash",
    "read",
    "list",
    "grep",
    "glob",
    "codesearch",
    "edit",
    "multiedit",
    "write",
    "patch",
    "webfetch",
    "websearch",
  ],
  installer: async () => {
    const module = await import("./install-opencode.js");
    return {
      install: (options) => module.installOpencode(withHome(options)),
      uninstall: (options) => module.uninstallOpencode(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.config/opencode/opencode.json is this machine's own file, and the plugin entry names this machine's node and toolgate, which a shared project file must not carry; --project writes the project's opencode.json instead",
  },
  importRules: {
    describe: "opencode's `permission` (opencode.json[c] here or in ~/.config/opencode)",
    example: "toolgate import opencode ./opencode.json --write",
    load: async () => (await import("./import-opencode.js")).importOpencode,
  },
  // `opencode.json` (`--project`) or `~/.config/opencode/opencode.json` (`--user`) `mcp`
  mcpServers: async () =>
    (await import("../common/rewrite-json-servers.js")).jsonMcpServers({
      shape: "command-array",
      location: ({ scope, cwd, home }) => ({
        file: scope === "user" ? [home, ".config", "opencode", "opencode.json"] : [cwd, "opencode.json"],
        key: ["mcp"],
      }),
    }),
  doctor: async () => {
    const module = await import("./check-opencode.js");
    return { found: module.opencodeFound, locations: module.opencodeLocations, check: module.checkOpencode };
  },
  stream: async () => (await import("./opencode-stream.js")).opencodeStreamDetector,
  transcriptLocations: (options) => [
    `${options.env["XDG_DATA_HOME"] || `${options.homeDir}/.local/share`}/opencode/opencode.db`,
  ],
  transcriptFormats: async () => [
    (await import("./opencode-db.js")).opencodeDb,
    (await import("./opencode-run-json.js")).opencodeRunJson,
    (await import("./opencode-run-text.js")).opencodeRunText,
  ],
  denialTexts: async () => (await import("./opencode-denial-texts.js")).OPENCODE_DENIAL_TEXTS,
  help: {
    examples: {
      install: [
        ["toolgate install opencode", "a plugin entry in ~/.config/opencode/opencode.json (the default, --user)"],
        ["toolgate install opencode --project", "./opencode.json, for this project only"],
      ],
      uninstall: ["toolgate uninstall opencode --command file:///opt/toolgate/dist/hosts/opencode/opencode-plugin.js"],
    },
    settings: { project: "./opencode.json", user: "~/.config/opencode/opencode.json" },
    command: "the opencode plugin URL",
    uninstall: "every plugin entry that points at toolgate's opencode plugin is removed.",
    uninstallCommand: "also remove this plugin entry, if you installed one with --command",
    looksIn: "~/.config/opencode, ./opencode.json",
  },
};
