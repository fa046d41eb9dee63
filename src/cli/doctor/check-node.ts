import { type DoctorCheck, fail, ok } from "../../hosts/common/doctor-check.js";

/** The oldest Node toolgate supports (package.json `engines`). */
export const MINIMUM_NODE = [20, 19] as const;

/** Node is new enough: `version` is `process.versions.node`. */
export function checkNode(version: string): DoctorCheck {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const needed = `${MINIMUM_NODE[0]}.${MINIMUM_NODE[1]}`;
  const newEnough = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
  return newEnough
    ? ok("node", `Node ${version} (toolgate needs ${needed} or newer)`)
    : fail("node", `Node ${version} is older than ${needed}`, {
        fix: `Install Node ${needed} or newer (nodejs.org, or nvm install 22).`,
      });
}
