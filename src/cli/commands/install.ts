import { homedir } from "node:os";
import { ToolgateError } from "../../core/errors.js";
import { stopHookServer } from "../../hook-runtime/hook-server-client.js";
import { residentServerFile } from "../../hook-runtime/hook-server-start.js";
import { bundledHookDirectory, residentHookCommand } from "../../hosts/common/hook-command.js";
import type { HostInstaller, HostInstallOptions } from "../../hosts/host-descriptor.js";
import { hostDescriptor, hostsWith } from "../../hosts/registry.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { examplesOf, formatExamples, hostExamples, hostsWithHelp, listOf } from "../help/host-help.js";

export type { HostInstaller, HostInstallOptions, HostInstallOutcome } from "../../hosts/host-descriptor.js";

/** The hosts `toolgate install` / `toolgate uninstall` know: every registered host with an installer. */
const INSTALL_TARGETS: readonly string[] = hostsWith("installer").map((host) => host.name);

/** The hosts whose MCP server entries a proxy target (`toolgate install <proxy> --host <host>`) rewrites. */
const MCP_SERVER_HOSTS: readonly string[] = hostsWith("mcpServers").map((host) => host.name);

/** The targets that put toolgate in front of another host's MCP servers (`--host`, `--server`). */
const PROXY_TARGETS: readonly string[] = hostsWith("wrapsMcpServers").map((host) => host.name);

/** The targets that put toolgate in front of an editor's agents (`--editor`, `--server`). */
const EDITOR_TARGETS: readonly string[] = hostsWith("wrapsEditorAgents").map((host) => host.name);

/** Each host's settings file for a scope, from the hosts' help, in registry order. */
function settingsFiles(scope: "project" | "local" | "user"): string[] {
  return hostsWithHelp("settings").flatMap(({ value }) => (value[scope] === undefined ? [] : [value[scope]]));
}

/** Each host's default scope, grouped (`--local` for Claude Code, `--user` for ...), for the scope flags' help. */
function defaultScopes(): string {
  const byScope = new Map<string, string[]>();
  for (const host of hostsWith("installer")) {
    const scope = host.defaultInstallScope?.scope ?? "project";
    byScope.set(scope, [...(byScope.get(scope) ?? []), host.name]);
  }
  return [...byScope].map(([scope, names]) => `--${scope} for ${names.join(", ")}`).join("; ");
}

/** What `--command` replaces: the hook hosts' hook command, then each other host's own (a plugin URL, ...). */
function commandMeanings(): string {
  const hookHosts = hostsWith("installer").filter((host) => host.kind === "hook");
  const hook =
    hookHosts.length === 0
      ? []
      : [
          `the ${listOf(
            hookHosts.map((host) => host.displayName),
            "or",
          )} hook command`,
        ];
  return listOf([...hook, ...hostsWithHelp("command").map(({ value }) => value)], "or");
}

export const installArgs = {
  target: {
    type: "positional",
    required: true,
    description: `the agent host, or ${listOf([...PROXY_TARGETS, ...EDITOR_TARGETS], "or")} (an MCP server entry of --host, or an editor's ACP agents of --editor, run through toolgate's proxy)`,
    options: INSTALL_TARGETS,
  },
  host: {
    type: "enum",
    description: `${listOf(PROXY_TARGETS, "and")} only: the host whose MCP server entry to rewrite`,
    options: MCP_SERVER_HOSTS,
  },
  server: {
    type: "string",
    description: `${listOf([...PROXY_TARGETS, ...EDITOR_TARGETS], "and")} only: the MCP server entry, or the editor's agent entry (default: every stdio server, or every agent with a command)`,
    valueHint: "name",
  },
  editor: {
    type: "string",
    description: `${listOf(EDITOR_TARGETS, "and")} only: the editor whose ACP agent entries to rewrite (zed, jetbrains)`,
    valueHint: "editor",
  },
  project: {
    type: "boolean",
    description: `the project's shared settings (${settingsFiles("project").join(", ")}). Without a scope flag: ${defaultScopes()}`,
  },
  local: {
    type: "boolean",
    description: `the project's local settings (${[...settingsFiles("local"), "not committed"].join(", ")})`,
  },
  user: {
    type: "boolean",
    description: `your user settings (${settingsFiles("user").join(", ")}): every project`,
  },
  "dry-run": { type: "boolean", description: "show the change without writing it" },
  command: {
    type: "string",
    description: `what the settings should run: ${commandMeanings()} (default: this toolgate, run by this node)`,
    valueHint: "command",
  },
  resident: {
    type: "boolean",
    description: `${listOf(
      hostsWith("installer")
        .filter((host) => host.kind === "hook")
        .map((host) => host.name),
      "and",
    )} only: answer hook events through toolgate's resident hook server, a bash client instead of a Node process per event (bash 4+; see docs/resident-hook.md)`,
  },
} as const;

/** Runs install or uninstall for the parsed arguments; prints the diff; returns the exit code. */
export async function runInstaller(options: {
  action: "install" | "uninstall";
  args: {
    target: string;
    host?: string | undefined;
    server?: string | undefined;
    editor?: string | undefined;
    project?: boolean;
    local?: boolean;
    user?: boolean;
    "dry-run"?: boolean;
    command?: string | undefined;
    resident?: boolean;
  };
}): Promise<number> {
  const { action, args } = options;
  const descriptor = hostDescriptor(args.target);
  const load = descriptor?.installer;
  if (load === undefined) {
    process.stderr.write(
      `toolgate ${action}: unknown host "${args.target}". Supported: ${INSTALL_TARGETS.join(", ")}. Example: toolgate ${action} ${INSTALL_TARGETS[0]} --project\n`,
    );
    return EXIT.usage;
  }
  const editorTarget = descriptor?.wrapsEditorAgents === true;
  if (!editorTarget && args.editor !== undefined) {
    process.stderr.write(
      `toolgate ${action}: --editor belongs to the ${listOf(EDITOR_TARGETS, "and")} target, e.g. toolgate ${action} ${EDITOR_TARGETS[0]} --editor ${args.editor} --user\n`,
    );
    return EXIT.usage;
  }
  const mcpTarget = descriptor?.wrapsMcpServers === true;
  const proxy = mcpTarget || editorTarget;
  if ((!mcpTarget && args.host !== undefined) || (!proxy && args.server !== undefined)) {
    process.stderr.write(
      `toolgate ${action}: --host and --server belong to the ${listOf(PROXY_TARGETS, "and")} target, e.g. toolgate ${action} ${PROXY_TARGETS[0]} --host ${args.host ?? MCP_SERVER_HOSTS[0]} --server fs\n`,
    );
    return EXIT.usage;
  }
  const scopes = (["project", "local", "user"] as const).filter((scope) => args[scope] === true);
  if (scopes.length > 1) {
    process.stderr.write(`toolgate ${action}: choose one of --project, --local or --user.\n`);
    return EXIT.usage;
  }
  if (args.resident === true && action === "install") {
    const hookHosts = hostsWith("installer").filter((host) => host.kind === "hook");
    if (descriptor?.kind !== "hook") {
      process.stderr.write(
        `toolgate install: --resident belongs to the hook hosts (${hookHosts.map((host) => host.name).join(", ")}), e.g. toolgate install ${hookHosts[0]?.name ?? "<host>"} --resident\n`,
      );
      return EXIT.usage;
    }
    if (args.command !== undefined) {
      process.stderr.write("toolgate install: choose one of --resident and --command.\n");
      return EXIT.usage;
    }
  }
  const installer = await load();
  let command = args.command;
  try {
    if (args.resident === true && action === "install") command = residentHookCommand(args.target);
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    process.stderr.write(`toolgate install: ${error.message}\n`);
    return EXIT.usage;
  }
  const installOptions: HostInstallOptions = {
    scope: scopes[0] ?? descriptor?.defaultInstallScope?.scope ?? "project",
    dryRun: args["dry-run"] === true,
    ...(command === undefined ? {} : { command }),
    ...(args.host === undefined ? {} : { mcpHost: args.host }),
    ...(args.server === undefined ? {} : { server: args.server }),
    ...(args.editor === undefined ? {} : { editor: args.editor }),
  };
  try {
    const outcome = await installer[action](installOptions);
    for (const note of outcome.notes ?? []) process.stderr.write(`${note}\n`);
    const scopeNote =
      scopes.length === 0 && descriptor?.defaultInstallScope !== undefined
        ? `${outcome.path}: ${descriptor.defaultInstallScope.why}.\n`
        : "";
    if (!outcome.changed) {
      const state = action === "install" ? "already installed" : "not installed";
      process.stdout.write(`toolgate is ${state} in ${outcome.path}; nothing to change.\n${scopeNote}`);
      if (action === "uninstall" && scopeNote !== "")
        await nameOtherScopes({ installer, installOptions, target: args.target });
      return EXIT.ok;
    }
    process.stdout.write(`${outcome.path}\n${outcome.diff.join("\n")}\n`);
    const verb = action === "install" ? "installed in" : "removed from";
    const what = proxy ? `toolgate ${args.target}` : "toolgate hooks";
    const deleted =
      outcome.removed === true
        ? ` It held nothing else, so the file ${outcome.written ? "was" : "would be"} deleted.`
        : "";
    process.stdout.write(
      outcome.written ? `${what} ${verb} ${outcome.path}.${deleted}\n` : `Dry run: nothing was written.${deleted}\n`,
    );
    process.stdout.write(scopeNote);
    if (action === "uninstall" && outcome.written && descriptor?.kind === "hook") await stopResidentServer();
    return EXIT.ok;
  } catch (error) {
    if (ToolgateError.is(error)) {
      process.stderr.write(`toolgate ${action}: ${error.message}\n`);
      // a scope the host does not have, a settings file toolgate will not edit: the command line or the file is wrong
      return error.code === "CONFIG_INVALID" || error.code === "INPUT_INVALID" ? EXIT.usage : EXIT.error;
    }
    throw error;
  }
}

/**
 * After a hook host's uninstall: this install's resident hook server, when one runs, is asked to stop
 * (docs/resident-hook.md), so no toolgate process stays behind. A host still installed with `--resident` starts a
 * new one at its next event (that event is answered by the Node hook).
 */
async function stopResidentServer(): Promise<void> {
  const file = residentServerFile(homedir(), bundledHookDirectory());
  const pid = await stopHookServer(file);
  if (pid !== undefined) {
    process.stdout.write(
      `Stopped toolgate's resident hook server (pid ${pid}); a host still installed with --resident starts it again at its next hook event.\n`,
    );
  }
}

/**
 * After an uninstall with the host's default scope found nothing: the other scopes where toolgate is installed (an
 * install made before the default changed), each with the command that removes it there.
 */
async function nameOtherScopes(options: {
  installer: HostInstaller;
  installOptions: HostInstallOptions;
  target: string;
}): Promise<void> {
  for (const scope of ["project", "local", "user"] as const) {
    if (scope === options.installOptions.scope) continue;
    try {
      const there = await options.installer.uninstall({ ...options.installOptions, scope, dryRun: true });
      if (there.changed) {
        process.stdout.write(
          `toolgate is installed in ${there.path}: toolgate uninstall ${options.target} --${scope}\n`,
        );
      }
    } catch {
      // a scope the host does not have, or a file it cannot read: nothing to name there
    }
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
    examples: examplesOf(
      [
        ...formatExamples(hostExamples("install"), { align: true }),
        ...formatExamples(hostExamples("mcpProxy.install"), { align: true }),
      ],
      "toolgate install <host>",
    ),
  },
  args: installArgs,
  async run({ args }) {
    process.exitCode = await runInstaller({ action: "install", args });
  },
});
