import type { CoreOptions } from "../core/config.js";
import type { DoctorCheck, DoctorContext } from "./common/doctor-check.js";
import type { HookHost } from "./common/hook-host.js";
import type { HostPolicyRules } from "./common/host-policy-rules.js";
import type { HostStreamDetector } from "./common/host-stream.js";
import type { ImportedConfig, ImportSourceOptions } from "./common/imported-config.js";
import type { TranscriptFormat } from "./common/reader-event.js";

/**
 * One agent host as toolgate knows it: everything host-specific, in one value exported by the host folder's
 * `host.ts` and listed once in `src/hosts/registry.ts`. Every command reads hosts through the registry: `install`,
 * `uninstall`, `doctor`, `hook`, `run`, `analyze` and the composition root (the host's own permission rules).
 *
 * The descriptor itself is small plain data plus loaders: each part is imported only when a command reaches it, so
 * `toolgate hook codex` loads Codex's hook host and nothing of the other hosts.
 */
export interface HostDescriptor {
  /** the name written on the command line and recorded with sessions (`claude-code`, `codex`, ...) */
  readonly name: string;
  /** how people call it, for messages ("Claude Code", "Codex CLI") */
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
  /** `toolgate doctor`: whether the host is on this machine, and its checks when it is */
  readonly doctor?: () => Promise<HostDoctor>;
  /** `toolgate run -- <agent>`: recognises the host's command line and reads the stream it writes */
  readonly stream?: () => Promise<HostStreamDetector>;
  /** `toolgate analyze`: the host's transcript formats (each says where it is sniffed among all hosts') */
  readonly transcriptFormats?: () => Promise<readonly TranscriptFormat[]>;
  /**
   * Where the host keeps its sessions by default (`toolgate analyze` with no path reads them all); `env` may move
   * them (`CODEX_HOME`, `XDG_DATA_HOME`).
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
   * them where the host reads it (`CODEX_HOME`). Absent: toolgate's rules and the Claude Code settings hierarchy only.
   */
  readonly permissionRules?: () => Promise<
    (options: { homeDir: string; cwd: string; env?: Readonly<Record<string, string | undefined>> }) => HostPolicyRules
  >;
  /**
   * `toolgate import <name>`: the host's permission files as a toolgate `permissions` section, with what cannot be
   * expressed; `describe` says which files it reads, for `toolgate import --help`.
   */
  readonly importRules?: {
    describe: string;
    example: string;
    load: () => Promise<(options: ImportSourceOptions) => ImportedConfig>;
  };
  /** escalation defaults for the host, applied under the config (a config file and the environment still decide) */
  readonly escalationDefaults?: CoreOptions;
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
  /** `mcp-proxy` only: the host whose MCP server entries to rewrite, and which entry (absent: every stdio one) */
  mcpHost?: string;
  server?: string;
  /** the project directory (default: the process's working directory) */
  cwd?: string;
  /** the environment that locates the host's files (`HOME`, `CODEX_HOME`, ...; default: the process's) */
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
  /** what the person should know or do next (a host's trust step), printed after the diff */
  notes?: string[];
}
