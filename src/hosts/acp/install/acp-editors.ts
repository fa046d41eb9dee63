import { ToolgateError } from "../../../core/errors.js";

/** An editor that launches ACP agents from a JSON settings file: where the file is per scope. */
export interface AcpEditor {
  name: string;
  displayName: string;
  /** the settings file for a scope (path segments), or why the editor has no such file */
  file(where: {
    scope: "project" | "local" | "user";
    cwd: string;
    home: string;
    env: Readonly<Record<string, string | undefined>>;
  }): string[];
}

/** Every editor `toolgate install acp-proxy --editor <name>` knows; each keeps its agents under `agent_servers`. */
export const ACP_EDITORS: readonly AcpEditor[] = [
  {
    name: "zed",
    displayName: "Zed",
    // Zed: `agent_servers` in its settings (~/.config/zed/settings.json on Linux, `$XDG_CONFIG_HOME/zed`) or a
    // project's .zed/settings.json; each custom agent is `{ "command", "args", "env" }`
    file: ({ scope, cwd, home, env }) =>
      scope === "user"
        ? [env["XDG_CONFIG_HOME"] ?? `${home}/.config`, "zed", "settings.json"]
        : [cwd, ".zed", "settings.json"],
  },
  {
    name: "jetbrains",
    displayName: "JetBrains IDEs (AI Assistant)",
    // JetBrains AI Assistant: ~/.jetbrains/acp.json, `{ "agent_servers": { "<name>": { "command", "args", "env" } } }`
    file: ({ scope, home }) => {
      if (scope !== "user") {
        throw new ToolgateError({
          code: "CONFIG_INVALID",
          message: "JetBrains IDEs read their ACP agents from ~/.jetbrains/acp.json only: use --user.",
        });
      }
      return [home, ".jetbrains", "acp.json"];
    },
  },
];

/** The editor named `name`; a clear error naming the known ones for any other name. */
export function acpEditor(name: string | undefined, action: "install" | "uninstall"): AcpEditor {
  const editor = ACP_EDITORS.find((candidate) => candidate.name === name);
  if (editor === undefined) {
    const names = ACP_EDITORS.map((candidate) => candidate.name).join("|");
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${action} acp-proxy needs --editor ${names}: the editor whose agent entries to ${action === "install" ? "rewrite" : "restore"}. Example: toolgate ${action} acp-proxy --editor zed --user`,
    });
  }
  return editor;
}
