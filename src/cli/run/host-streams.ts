import { hostsWith } from "../../hosts/registry.js";
import type { HostStreamDetector } from "../../hosts/shared/host-stream.js";

/** Every registered host whose stream `toolgate run` understands, in registry order. */
export function hostStreams(): Promise<HostStreamDetector[]> {
  return Promise.all(hostsWith("stream").map((host) => host.stream()));
}
