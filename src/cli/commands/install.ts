import { ToolgateError } from "../../core/errors.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

/** What `toolgate install <host>` / `toolgate uninstall <host>` call. One entry per host, loaded lazily. */
export interface HostInstaller {
  install(options: HostInstallOptions): Promise<HostInstallOutcome> | HostInstallOutcome;
  uninstall(options: HostInstallOptions): Promise<HostInstallOutcome> | HostInstallOutcome;
}

export interface HostInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  command?: string;
  /** `mcp-proxy` only: the host whose MCP server entries to rewrite, and which entry (absent: every stdio one) */
  mcpHost?: string;
  server?: string;
}

export interface HostInstallOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  /** what the person should know or do next (a host's trust step), printed after the diff */
  notes?: string[];
}

export const hostInstallers: Record<string, () => Promise<HostInstaller>> = {
  "claude-code": async () => {
    const module = await import("../../adapters/claude-code/install-claude-code.js");
    return { install: module.installClaudeCode, uninstall: module.uninstallClaudeCode };
  },
  codex: async () => (await import("../codex/codex-installer.js")).codexInstaller,
  opencode: async () => {
    const module = await import("../../adapters/opencode/install-opencode.js");
    return { install: module.installOpencode, uninstall: module.uninstallOpencode };
  },
  qwen: async () => {
    const module = await import("../../adapters/qwen/install-qwen.js");
    return { install: module.installQwen, uninstall: module.uninstallQwen };
  },
  gemini: async () => {
    const module = await import("../../adapters/gemini/install-gemini.js");
    return { install: module.installGemini, uninstall: module.uninstallGemini };
  },
  "mcp-proxy": async () => {
    const { installMcpProxy } = await import("../../adapters/mcp/install/install-mcp-proxy.js");
    const mcp = (options: HostInstallOptions) => ({
      host: options.mcpHost,
      scope: options.scope,
      dryRun: options.dryRun,
      ...(options.server === undefined ? {} : { server: options.server }),
      ...(options.command === undefined ? {} : { command: options.command }),
    });
    return {
      install: (options) => installMcpProxy(mcp(options), "install"),
      uninstall: (options) => installMcpProxy(mcp(options), "uninstall"),
    };
  },
};

export const installArgs = {
  target: {
    type: "positional",
    required: true,
    description: "the agent host, or mcp-proxy (an MCP server entry of --host runs through toolgate mcp-proxy)",
    options: Object.keys(hostInstallers),
  },
  host: {
    type: "enum",
    description: "mcp-proxy only: the host whose MCP server entry to rewrite",
    options: ["claude-code", "codex", "gemini", "opencode"],
  },
  server: {
    type: "string",
    description: "mcp-proxy only: the MCP server entry (default: every stdio server in that config)",
    valueHint: "name",
  },
  project: {
    type: "boolean",
    description: "the project's shared settings (.claude/settings.json, ./opencode.json; the default)",
  },
  local: { type: "boolean", description: "the project's local settings (.claude/settings.local.json, not committed)" },
  user: {
    type: "boolean",
    description: "your user settings (~/.claude/settings.json, ~/.config/opencode/opencode.json): every project",
  },
  "dry-run": { type: "boolean", description: "show the change without writing it" },
  command: {
    type: "string",
    description:
      "what the settings should run: the Claude Code hook command, the opencode plugin URL, or for mcp-proxy the toolgate command line (e.g. `npx toolgate`) (default: this toolgate, run by this node)",
    valueHint: "command",
  },
} as const;

/** Runs install or uninstall for the parsed arguments; prints the diff; returns the exit code. */
export async function runInstaller(options: {
  action: "install" | "uninstall";
  args: {
    target: string;
    host?: string | undefined;
    server?: string | undefined;
    project?: boolean;
    local?: boolean;
    user?: boolean;
    "dry-run"?: boolean;
    command?: string | undefined;
  };
}): Promise<number> {
  const { action, args } = options;
  const load = hostInstallers[args.target];
  if (load === undefined) {
    process.stderr.write(
      `toolgate ${action}: unknown host "${args.target}". Supported: ${Object.keys(hostInstallers).join(", ")}. Example: toolgate ${action} claude-code --project\n`,
    );
    return EXIT.usage;
  }
  if (args.target !== "mcp-proxy" && (args.host !== undefined || args.server !== undefined)) {
    process.stderr.write(
      `toolgate ${action}: --host and --server belong to the mcp-proxy target, e.g. toolgate ${action} mcp-proxy --host ${args.host ?? "claude-code"} --server fs\n`,
    );
    return EXIT.usage;
  }
  const scopes = (["project", "local", "user"] as const).filter((scope) => args[scope] === true);
  if (scopes.length > 1) {
    process.stderr.write(`toolgate ${action}: choose one of --project, --local or --user.\n`);
    return EXIT.usage;
  }
  const installer = await load();
  const installOptions: HostInstallOptions = {
    scope: scopes[0] ?? "project",
    dryRun: args["dry-run"] === true,
    ...(args.command === undefined ? {} : { command: args.command }),
    ...(args.host === undefined ? {} : { mcpHost: args.host }),
    ...(args.server === undefined ? {} : { server: args.server }),
  };
  try {
    const outcome = await installer[action](installOptions);
    for (const note of outcome.notes ?? []) process.stderr.write(`${note}\n`);
    if (!outcome.changed) {
      const state = action === "install" ? "already installed" : "not installed";
      process.stdout.write(`toolgate is ${state} in ${outcome.path}; nothing to change.\n`);
      return EXIT.ok;
    }
    process.stdout.write(`${outcome.path}\n${outcome.diff.join("\n")}\n`);
    const verb = action === "install" ? "installed in" : "removed from";
    process.stdout.write(
      outcome.written
        ? `${args.target === "mcp-proxy" ? "toolgate mcp-proxy" : "toolgate hooks"} ${verb} ${outcome.path}.\n`
        : "Dry run: nothing was written.\n",
    );
    return EXIT.ok;
  } catch (error) {
    if (ToolgateError.is(error)) {
      process.stderr.write(`toolgate ${action}: ${error.message}\n`);
      return error.code === "CONFIG_INVALID" ? EXIT.usage : EXIT.error;
    }
    throw error;
  }
}

export default defineCommand({
  meta: {
    name: "install",
    summary: "Add toolgate's hooks, plugin or MCP proxy to an agent host's settings, showing the change.",
    details:
      "Idempotent: installing twice changes nothing, and an older toolgate entry (another path) is replaced.\n" +
      "Every other setting stays as it was. `toolgate uninstall <host>` removes exactly what this adds.",
    exitCodes: "0 installed or already installed, 2 bad usage or a settings file that is not valid JSON.",
    examples: [
      "toolgate install claude-code              # .claude/settings.json of this project",
      "toolgate install claude-code --user       # ~/.claude/settings.json",
      "toolgate install claude-code --dry-run    # show the diff only",
      "toolgate install opencode                 # a plugin entry in ./opencode.json",
      "toolgate install opencode --user          # ~/.config/opencode/opencode.json",
      "toolgate install gemini --user            # ~/.gemini/settings.json (or .gemini/settings.json without --user)",
      "toolgate install codex --user             # $CODEX_HOME/hooks.json, trusted through codex app-server",
      "toolgate install qwen --user              # ~/.qwen/settings.json (or .qwen/settings.json without --user)",
      "toolgate install mcp-proxy --host claude-code --server fs   # .mcp.json: the fs server runs through the proxy",
      "toolgate install mcp-proxy --host codex --dry-run           # every stdio server in $CODEX_HOME/config.toml",
    ],
  },
  args: installArgs,
  async run({ args }) {
    process.exitCode = await runInstaller({ action: "install", args });
  },
});
