import type { HostStreamSummary } from "../../hosts/common/host-stream.js";
import type { HostDescriptor } from "../../hosts/host-descriptor.js";
import { hostDescriptor } from "../../hosts/registry.js";

/**
 * Adds to a run's stream summary the denied calls its host's stream does not show, which the host's `runDenials`
 * part reads after the run from the host's own session files; a call the stream already has is not added twice.
 */
export async function addRunDenials(options: {
  stream: HostStreamSummary | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** the registered host of a stream (default: the registry's) */
  host?: (name: string) => HostDescriptor | undefined;
}): Promise<void> {
  const { stream } = options;
  if (stream?.sessionId === undefined) return;
  const load = (options.host ?? hostDescriptor)(stream.host)?.runDenials;
  if (load === undefined) return;
  const read = await load();
  const seen = new Set(stream.denials.map((denial) => denial.toolUseId));
  for (const denial of read({ env: options.env, sessionId: stream.sessionId })) {
    if (!seen.has(denial.toolUseId)) stream.denials.push(denial);
  }
}
