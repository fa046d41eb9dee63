import type { CoreOptions } from "../core/config.js";
import type { HostDenialTable } from "../detect/denial-text-rule.js";
import type { RuleLanguage } from "../policy/grants/allow-rule-suggestion.js";
import type { DoctorCheck, DoctorContext } from "./common/doctor-check.js";
import type { HookHost } from "./common/hook-host.js";
import type { HostPolicyRules } from "./common/host-policy-rules.js";
import type { HostStreamDetector, StreamDenial } from "./common/host-stream.js";
import type { ImportedConfig, ImportSourceOptions } from "./common/imported-config.js";
import type { McpServersConfig } from "./common/mcp-servers.js";
import type { TranscriptFormat } from "./common/reader-event.js";
import type { ReadSettingsHierarchy } from "./common/settings-hierarchy.js";

/**
 * One agent host as toolgate knows it: everything host-specific, in one value exported by the host folder's
 * `host.ts` and listed once in `src/hosts/registry.ts`. Every command reads hosts through the registry: `install`,
 * `uninstall`, `doctor`, `hook`, `run`, `analyze` and the composition root (the host's own permission rules).
 *
 * The descriptor itself is small plain data plus loaders: each part is imported only when a command reaches it, so
 * `toolgate hook <name>` loads that host's hook host and nothing of the other hosts.
 */
export interface HostDescriptor {
  /** the name written on the command line and recorded with sessions (`toolgate hook <name>`) */
  readonly name: string;
  /** how people call it, for messages ("Claude Code") */
  readonly displayName: string;
  /**
   * How toolgate sits in the host: a command hook the host runs per event (`toolgate hook <name>`), code the host
   * loads in its own process (a plugin, an SDK wrapper), or a proxy between the host and its tools.
   */
  readonly kind: "hook" | "in-process" | "proxy";
  /** the host's own tool names (their family and canonical name come from core/tool-families.ts) */
  readonly toolNames: readonly string[];
  /** `toolgate hook <name>`: parse, answer and fail-closed answer of the host's hook events */
  readonly hookHost?: () => Promise<HookHost<unknown>>;
  /** `toolgate install <name>` / `toolgate uninstall <name>` */
  readonly installer?: () => Promise<HostInstaller>;
  /**
   * The scope `install` / `uninstall` use when none of `--project`, `--local`, `--user` is given, and why (printed
   * with the result). Absent: `project`.
   */
  readonly defaultInstallScope?: { readonly scope: HostInstallOptions["scope"]; readonly why: string };
  /** `toolgate doctor`: whether the host is on this machine, and its checks when it is */
  readonly doctor?: () => Promise<HostDoctor>;
  /** `toolgate run -- <agent>`: recognises the host's command line and reads the stream it writes */
  readonly stream?: () => Promise<HostStreamDetector>;
  /**
   * `toolgate run -- <agent>`: the denied calls the host's stream does not show, read after the run from the host's
   * own session files (its session id from the stream); `run` adds those the stream did not already have
   */
  readonly runDenials?: () => Promise<
    (options: { env: Readonly<Record<string, string | undefined>>; sessionId: string }) => StreamDenial[]
  >;
  /** `toolgate analyze`: the host's transcript formats (each says where it is sniffed among all hosts') */
  readonly transcriptFormats?: () => Promise<readonly TranscriptFormat[]>;
  /**
   * Where the host keeps its sessions by default (`toolgate analyze` with no path reads them all); `env` may move
   * them (a host's own home variable, `XDG_DATA_HOME`).
   */
  readonly transcriptLocations?: (options: {
    homeDir: string;
    env: Readonly<Record<string, string | undefined>>;
  }) => string[];
  /**
   * Why a plain text file of this host is skipped: its text output shows no tool call at all (`analyze --host`).
   */
  readonly textOutputWithoutCalls?: string;
  /**
   * The host's own permission files read as policy rules beside toolgate's (the stricter answer wins:
   * `buildPolicy`), so the host's refusals are decided in the same reducer step as toolgate's own. `env` locates
   * them where the host reads it (a `<HOST>_HOME` variable). Absent: toolgate's rules and the shared settings hierarchy
   * (`settingsHierarchy`) only.
   */
  readonly permissionRules?: () => Promise<
    (options: { homeDir: string; cwd: string; env?: Readonly<Record<string, string | undefined>> }) => HostPolicyRules
  >;
  /**
   * A settings hierarchy written in toolgate's own rule language, read into the policy for every host, not only
   * this one, unless the config turns it off (`claudeSettings.enabled: false`). At most one host has it. Not a
   * loader: the policy reads it synchronously on every build (`createPolicy`).
   */
  readonly settingsHierarchy?: ReadSettingsHierarchy;
  /**
   * `toolgate import <name>`: the host's permission files as a toolgate `permissions` section, with what cannot be
   * expressed; `describe` says which files it reads, for `toolgate import --help`.
   */
  readonly importRules?: {
    describe: string;
    example: string;
    load: () => Promise<(options: ImportSourceOptions) => ImportedConfig>;
  };
  /**
   * What the host shows the model when it refuses a call (`recognizeDenial` reads it: `toolgate analyze`, the
   * host's own transcript readers). The table is named as the host; a host whose tool results read as another's (the
   * Agent SDK runs Claude Code) has none and is an alias in that host's table.
   */
  readonly denialTexts?: () => Promise<HostDenialTable>;
  /**
   * Where the host keeps its MCP server entries per scope, and how they are rewritten to run through toolgate's MCP
   * proxy and restored, when the proxy is installed with `--host <name>` (absent: the proxy cannot be installed there)
   */
  readonly mcpServers?: () => Promise<McpServersConfig>;
  /**
   * How the host's own allow rules are written (`analyze`, `report` and the dashboard suggest rules in it). Absent:
   * toolgate's own `permissions.allow`, which every host toolgate guards obeys.
   */
  readonly ruleLanguage?: () => Promise<RuleLanguage>;
  /**
   * This install target puts toolgate in front of another host's MCP servers: `toolgate install <name> --host <host>
   * [--server <entry>]` rewrites that host's entries (its `mcpServers` part) instead of installing hooks
   */
  readonly wrapsMcpServers?: true;
  /**
   * This install target puts toolgate in front of the agents an editor starts: `toolgate install <name> --editor
   * <editor> [--server <agent>]` rewrites the editor's agent entries instead of installing hooks
   */
  readonly wrapsEditorAgents?: true;
  /** what the commands' `--help` say of this host, so the CLI itself names no host */
  readonly help?: HostHelp;
  /**
   * the host's own older environment variable for the nudge threshold, read after `TOOLGATE_NUDGE_THRESHOLD` in
   * every toolgate process (the config's environment overrides)
   */
  readonly nudgeThresholdVariable?: string;
  /** escalation defaults for the host, applied under the config (a config file and the environment still decide) */
  readonly escalationDefaults?: CoreOptions;
}

/**
 * One `--help` example: a whole `toolgate ...` command line, or the line and what it does (printed after `#`, the
 * comments of one command's examples aligned).
 */
export type HelpExample = string | readonly [command: string, comment: string];

/** What the commands' `--help` (and a few of their messages) say of one host; every part optional. */
export interface HostHelp {
  /** examples per command, listed in registry order after or among the command's own */
  readonly examples?: {
    readonly install?: readonly HelpExample[];
    readonly uninstall?: readonly HelpExample[];
    /**
     * the arguments after `toolgate install|uninstall <the MCP proxy target>` for this host (`--host <this host>
     * ...`), listed after the hosts' own install examples
     */
    readonly mcpProxy?: { readonly install?: readonly HelpExample[]; readonly uninstall?: readonly HelpExample[] };
    /** agent command lines `toolgate run --` runs whose stream toolgate reads (`claude -p ...`), without the prefix */
    readonly run?: readonly string[];
    readonly analyze?: readonly HelpExample[];
    readonly hook?: readonly HelpExample[];
  };
  /** the file `toolgate install` writes per scope, for the `--project`, `--local` and `--user` descriptions */
  readonly settings?: { readonly project?: string; readonly local?: string; readonly user?: string };
  /** what `--command` replaces in the host's settings when it is not the hook command ("the plugin URL") */
  readonly command?: string;
  /** how `toolgate uninstall` finds toolgate's entries in the host's settings (`uninstall --help`) */
  readonly uninstall?: string;
  /** what `toolgate uninstall --command` also removes for this host, when the host needs it */
  readonly uninstallCommand?: string;
  /** where `toolgate doctor` looks for the host (`doctor --help`) */
  readonly looksIn?: string;
  /** `toolgate hook --help`: the hook entry `toolgate install <name>` writes, described for this toolgate and node */
  readonly hookEntry?: () => Promise<string>;
}

/** What `toolgate doctor` asks of one host. */
export interface HostDoctor {
  /** whether the host is installed or configured here (its settings folder, its binary) */
  found(context: DoctorContext): boolean;
  /** where `found` looked, for the message when no host is found */
  locations?(context: DoctorContext): string[];
  check(context: DoctorContext): DoctorCheck[] | Promise<DoctorCheck[]>;
}

/** What `toolgate install <host>` / `toolgate uninstall <host>` call. */
export interface HostInstaller {
  install(options: HostInstallOptions): Promise<HostInstallOutcome> | HostInstallOutcome;
  uninstall(options: HostInstallOptions): Promise<HostInstallOutcome> | HostInstallOutcome;
}

export interface HostInstallOptions {
  scope: "project" | "local" | "user";
  dryRun: boolean;
  command?: string;
  /** a `wrapsMcpServers` target only: the host whose MCP server entries to rewrite, and which entry (absent: every stdio one) */
  mcpHost?: string;
  server?: string;
  /** a `wrapsEditorAgents` target only: the editor whose agent entries to rewrite (`server` then names one agent entry) */
  editor?: string;
  /** the project directory (default: the process's working directory) */
  cwd?: string;
  /** the environment that locates the host's files (`HOME`, a host's own home variable, ...; default: the process's) */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The options of an installer that takes a home directory: `env.HOME` when the environment is given. */
export function withHome<Options extends HostInstallOptions>(options: Options): Options & { home?: string } {
  const home = options.env?.["HOME"];
  return home === undefined ? options : { ...options, home };
}

export interface HostInstallOutcome {
  path: string;
  changed: boolean;
  diff: string[];
  written: boolean;
  /** the file was deleted: it held nothing but what install wrote into a new file */
  removed?: boolean;
  /** what the person should know or do next (a host's trust step), printed after the diff */
  notes?: string[];
}
