import type { HostPolicyRules } from "../hosts/common/host-policy-rules.js";
import { hostDescriptor } from "../hosts/registry.js";

export type { HostPolicyRules } from "../hosts/common/host-policy-rules.js";

/**
 * The host's own permission rules (its descriptor's `permissionRules`), by the host name the composition root
 * serves; undefined for a host that has none or a name no host has (Claude Code's settings are read by
 * `buildPolicy` itself). Throws CONFIG_INVALID for a file it cannot read.
 */
export async function hostPolicyRules(options: {
  host: string;
  homeDir: string;
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
}): Promise<HostPolicyRules | undefined> {
  const host = await hostDescriptor(options.host);
  const load = host?.permissionRules;
  if (load === undefined) return undefined;
  return (await load())({
    homeDir: options.homeDir,
    cwd: options.cwd,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}
