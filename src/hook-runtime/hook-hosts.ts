import type { HookHost } from "../hosts/common/hook-host.js";
import { hostDescriptor, hostsWith } from "../hosts/registry.js";

/** The loader of the command-hook host `toolgate hook <name>` answers (a registered host with a `hookHost`). */
export function hookHostLoader(name: string): (() => Promise<HookHost<unknown>>) | undefined {
  return hostDescriptor(name)?.hookHost;
}

/** The names `toolgate hook` accepts, in registry order. */
export const HOOK_HOST_NAMES: readonly string[] = hostsWith("hookHost").map((host) => host.name);
