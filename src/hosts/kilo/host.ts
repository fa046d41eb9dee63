import { type HostDescriptor, withHome } from "../host-descriptor.js";

/**
 * Kilo CLI (`@kilocode/cli`): a fork that kept its parent's plugin system. toolgate's plugin for that system loads in
 * Kilo as it is, named `kilo` through its plugin options; Kilo's own `permission` rules decide. Its refusal texts are
 * its parent's, word for word: `kilo` is an alias in that host's denial table, so Kilo has no table of its own.
 */
export const kiloHost: HostDescriptor = {
  name: "kilo",
  displayName: "Kilo CLI",
  kind: "in-process",
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
    const module = await import("./install-kilo.js");
    return {
      install: (options) => module.installKilo(withHome(options)),
      uninstall: (options) => module.uninstallKilo(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.config/kilo/kilo.json is this machine's own file, and the plugin entry names this machine's toolgate, which a shared project file must not carry; --project writes the project's kilo.json instead",
  },
  doctor: async () => {
    const module = await import("./check-kilo.js");
    return { found: module.kiloFound, locations: module.kiloLocations, check: module.checkKilo };
  },
  stream: async () => (await import("./kilo-stream.js")).kiloStreamDetector,
  transcriptLocations: (options) => [
    `${options.env["XDG_DATA_HOME"] || `${options.homeDir}/.local/share`}/kilo/kilo.db`,
  ],
  transcriptFormats: async () => {
    const module = await import("./kilo-db.js");
    return [module.kiloDb, module.kiloRunJson];
  },
  help: {
    examples: {
      install: [
        ["toolgate install kilo", "a plugin entry in ~/.config/kilo/kilo.json (the default, --user)"],
        ["toolgate install kilo --project", "./kilo.json, for this project only"],
      ],
      run: ['kilo run --auto --format json "fix the build"'],
      analyze: [
        ["toolgate analyze ~/.local/share/kilo", "Kilo's session database (kilo.db)"],
        ["toolgate analyze --host kilo kilo-run.jsonl", "a `kilo run --format json` log"],
      ],
    },
    settings: { project: "./kilo.json", user: "~/.config/kilo/kilo.json" },
    command: "the plugin URL",
    uninstall: "every plugin entry that points at toolgate's plugin module is removed.",
    uninstallCommand: "also remove this plugin entry, if you installed one with --command",
    looksIn: "~/.config/kilo, ./kilo.json",
  },
};
