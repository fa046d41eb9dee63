import { type HostDescriptor, withHome } from "../host-descriptor.js";

/**
 * Cline (the `cline` CLI, 3.0.x): a plugin in Cline's plugin sandbox (`toolgate/cline`), toolgate's policy decides.
 * Cline has no per-command permission rules of its own (approval is per tool, and `cline` auto-approves by default).
 */
export const clineHost: HostDescriptor = {
  name: "cline",
  displayName: "Cline",
  kind: "in-process",
  toolNames: ["run_commands", "read_files", "search_codebase", "editor", "fetch_web_content"],
  installer: async () => {
    const module = await import("./install-cline.js");
    return {
      install: (options) => module.installCline(withHome(options)),
      uninstall: (options) => module.uninstallCline(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.cline/plugins/toolgate.js names this machine's toolgate, which a shared project folder must not carry; --project writes ./.cline/plugins/toolgate.js instead",
  },
  doctor: async () => {
    const module = await import("./check-cline.js");
    return { found: module.clineFound, locations: module.clineLocations, check: module.checkCline };
  },
  stream: async () => (await import("./cline-stream.js")).clineStreamDetector,
  transcriptLocations: (options) => [
    `${options.env["CLINE_DATA_DIR"] || `${options.env["CLINE_DIR"] || `${options.homeDir}/.cline`}/data`}/sessions`,
  ],
  transcriptFormats: async () => {
    const module = await import("./cline-session.js");
    return [module.clineSession, module.clineSessionSummary];
  },
  denialTexts: async () => (await import("./cline-denial-texts.js")).CLINE_DENIAL_TEXTS,
  help: {
    examples: {
      install: [
        ["toolgate install cline", "a plugin file in ~/.cline/plugins/ (the default, --user)"],
        ["toolgate install cline --project", "./.cline/plugins/toolgate.js, for this project only"],
      ],
      uninstall: ["toolgate uninstall cline"],
      run: ['cline --json "fix the build"'],
      analyze: [["toolgate analyze ~/.cline/data/sessions", "every Cline session on this machine"]],
    },
    settings: { project: "./.cline/plugins/toolgate.js", user: "~/.cline/plugins/toolgate.js" },
    command: "the Cline plugin module URL the plugin file imports",
    uninstall: "the plugin file toolgate wrote is removed (a file it set aside is put back).",
    looksIn: "~/.cline, ./.cline",
  },
};
