import type { HostDescriptor } from "../host-descriptor.js";

/**
 * GitHub Copilot CLI (`@github/copilot`): command hooks in `$COPILOT_HOME/hooks/toolgate.json` or the project's
 * `.github/hooks/toolgate.json` (`toolgate hook copilot <event>`). Its allow/deny rules exist only as command-line
 * flags (`--allow-tool`, `--deny-tool`): there are no permission files to import or read as policy, so Copilot's own
 * refusals are counted from its session events (`runDenials`, and before each call in the hook).
 */
export const copilotHost: HostDescriptor = {
  name: "copilot",
  displayName: "GitHub Copilot CLI",
  kind: "hook",
  toolNames: ["bash", "view", "create", "edit", "glob", "grep"],
  hookHost: async () => (await import("./copilot-hook-host.js")).copilotHookHost,
  installer: async () => {
    const module = await import("./install-copilot.js");
    return { install: module.installCopilot, uninstall: module.uninstallCopilot };
  },
  defaultInstallScope: {
    scope: "user",
    why: "the default, --user: $COPILOT_HOME/hooks/toolgate.json (~/.copilot) is this machine's own file and Copilot always loads it, while a project's .github/hooks load only in a folder the person trusted, and the hook command names this machine's node and toolgate, which a shared project file must not carry; --project writes .github/hooks/toolgate.json instead",
  },
  doctor: async () => {
    const module = await import("./check-copilot.js");
    return { found: module.copilotFound, locations: module.copilotLocations, check: module.checkCopilot };
  },
  stream: async () => (await import("./copilot-stream.js")).copilotStreamDetector,
  // a run without --output-format json shows no refused call: the session's events.jsonl does
  runDenials: async () => (await import("./copilot-session-files.js")).copilotRunDenials,
  transcriptLocations: (options) => [`${options.env["COPILOT_HOME"] || `${options.homeDir}/.copilot`}/session-state`],
  transcriptFormats: async () => {
    const module = await import("./copilot-transcript.js");
    return [module.copilotEventsFormat, module.copilotJsonFormat];
  },
  denialTexts: async () => (await import("./copilot-denial-texts.js")).COPILOT_DENIAL_TEXTS,
  help: {
    examples: {
      install: [["toolgate install copilot --user", "$COPILOT_HOME/hooks/toolgate.json (~/.copilot)"]],
      run: ['copilot -p "fix the build" --output-format json --allow-tool=shell'],
      analyze: [["toolgate analyze ~/.copilot/session-state", "every Copilot CLI session's events.jsonl"]],
      hook: [["toolgate hook copilot preToolUse < event.json", "Copilot's payloads do not name their event"]],
    },
    settings: { project: ".github/hooks/toolgate.json", user: "$COPILOT_HOME/hooks/toolgate.json" },
    looksIn: "$COPILOT_HOME (~/.copilot), ./.github/hooks",
  },
};
