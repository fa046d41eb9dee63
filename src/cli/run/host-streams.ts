import type { HostStreamDetector } from "../../hosts/common/host-stream.js";
import { hostsWith } from "../../hosts/registry.js";

/** Every registered host whose stream `toolgate run` understands, in registry order. */
export function hostStreams(): Promise<HostStreamDetector[]> {
  return Promise.all(hostsWith("stream").map((host) => host.stream()));
}
