import type { OsDenialKind } from "../core/events.js";
import { classifyOsDenial } from "../detect/classify-os-denial.js";

export interface FailureInput {
  tool: string;
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  output?: string;
  sandboxed?: boolean;
}

export interface OsDenial {
  kind: OsDenialKind;
  evidence: string;
  path?: string;
}

/** detect/'s OS-denial classifier, mapped to the event's shape (`none` becomes undefined). */
export function defaultClassifyFailure(input: FailureInput): OsDenial | undefined {
  const classified = classifyOsDenial(input);
  if (classified.kind === "none") return undefined;
  return {
    kind: classified.kind,
    evidence: classified.evidence,
    ...(classified.path === undefined ? {} : { path: classified.path }),
  };
}
