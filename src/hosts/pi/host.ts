import { type HostDescriptor, withHome } from "../host-descriptor.js";

/**
 * pi (`@earendil-works/pi-coding-agent`, formerly `@mariozechner/pi-coding-agent`): an extension in pi's own
 * process. pi has no permission system of its own, so toolgate's policy is the only policy.
 */
export const piHost: HostDescriptor = {
  name: "pi",
  displayName: "pi",
  kind: "in-process",
  // `powershell`: pi on Windows or `--tools powershell`; rules read it as `Bash`
  toolNames: ["bash", "powershell", "read", "edit", "write", "grep", "find", "ls"],
  installer: async () => {
    const module = await import("./install-pi.js");
    return {
      install: (options) => module.installPi(withHome(options)),
      uninstall: (options) => module.uninstallPi(withHome(options)),
    };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: ~/.pi/agent/settings.json applies in every project and names this machine's toolgate; pi reads a project's .pi/settings.json (--project) only once the project is trusted",
  },
  doctor: async () => {
    const module = await import("./check-pi.js");
    return { found: module.piFound, locations: module.piLocations, check: module.checkPi };
  },
  stream: async () => (await import("./pi-stream.js")).piStreamDetector,
  transcriptLocations: (options) => [
    `${options.env["PI_CODING_AGENT_DIR"] || `${options.homeDir}/.pi/agent`}/sessions`,
  ],
  transcriptFormats: async () => [(await import("./pi-session.js")).piSession],
  denialTexts: async () => (await import("./pi-denial-texts.js")).PI_DENIAL_TEXTS,
  help: {
    examples: {
      install: [
        ["toolgate install pi", "an extensions entry in ~/.pi/agent/settings.json (the default, --user)"],
        ["toolgate install pi --project", "./.pi/settings.json (pi reads it in a trusted project only)"],
      ],
      run: ['pi -p --mode json "fix the build"'],
      analyze: [["toolgate analyze --host pi", "every session in ~/.pi/agent/sessions"]],
    },
    settings: { project: "./.pi/settings.json", user: "~/.pi/agent/settings.json" },
    command: "the extension file to list",
    uninstall: "every extensions entry that points at toolgate's pi extension is removed.",
    uninstallCommand: "also remove this extensions entry, if you installed one with --command",
    looksIn: "~/.pi/agent, ./.pi",
  },
};
