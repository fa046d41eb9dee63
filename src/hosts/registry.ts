import type { HostDenialTable } from "../detect/denial-text-rule.js";
import { acpProxyHost } from "./acp/host.js";
import { aiSdkHost } from "./ai-sdk/host.js";
import { claudeAgentSdkHost } from "./claude-agent-sdk/host.js";
import { claudeCodeHost } from "./claude-code/host.js";
import { clineHost } from "./cline/host.js";
import { codexHost } from "./codex/host.js";
import { copilotHost } from "./copilot/host.js";
import { geminiHost } from "./gemini/host.js";
import type { HostDescriptor } from "./host-descriptor.js";
import { kiloHost } from "./kilo/host.js";
import { mcpProxyHost } from "./mcp/host.js";
import { opencodeHost } from "./opencode/host.js";
import { piHost } from "./pi/host.js";
import { qwenHost } from "./qwen/host.js";

/**
 * Every host toolgate supports, one line each. A descriptor is small data plus loaders (see `HostDescriptor`):
 * listing them loads none of their code. Adding a host is a new folder under src/hosts/ and one line here.
 */
export const HOSTS: readonly HostDescriptor[] = [
  claudeCodeHost,
  codexHost,
  geminiHost,
  qwenHost,
  opencodeHost,
  mcpProxyHost,
  acpProxyHost,
  claudeAgentSdkHost,
  aiSdkHost,
  piHost,
  kiloHost,
  copilotHost,
  clineHost,
];

/** The host registered under `name`; undefined for any other name. */
export function hostDescriptor(name: string): HostDescriptor | undefined {
  return HOSTS.find((host) => host.name === name);
}

/** The hosts that have `part` (a hook host, an installer, transcript formats, ...), in registry order. */
export function hostsWith<Part extends keyof HostDescriptor>(
  part: Part,
): (HostDescriptor & Required<Pick<HostDescriptor, Part>>)[] {
  return HOSTS.filter(
    (host): host is HostDescriptor & Required<Pick<HostDescriptor, Part>> => host[part] !== undefined,
  );
}

/** The hosts' own older variables for the nudge threshold, in registry order (`applyEnvOverrides`'s `nudgeAliases`). */
export const NUDGE_THRESHOLD_VARIABLES: readonly string[] = HOSTS.flatMap((host) =>
  host.nudgeThresholdVariable === undefined ? [] : [host.nudgeThresholdVariable],
);

/**
 * The settings hierarchy read into the policy for every host (the one host whose descriptor has
 * `settingsHierarchy`), with the host's display name for messages; undefined when no host has one.
 */
export function sharedSettingsHierarchy():
  | { displayName: string; read: NonNullable<HostDescriptor["settingsHierarchy"]> }
  | undefined {
  const host = HOSTS.find((candidate) => candidate.settingsHierarchy !== undefined);
  return host?.settingsHierarchy === undefined
    ? undefined
    : { displayName: host.displayName, read: host.settingsHierarchy };
}

/**
 * Every registered host's denial texts, in registry order: the tables `recognizeDenial` reads with. Loads each
 * host's table module (small data) and nothing else of the host.
 */
export function hostDenialTables(): Promise<readonly HostDenialTable[]> {
  return Promise.all(hostsWith("denialTexts").map((host) => host.denialTexts()));
}
