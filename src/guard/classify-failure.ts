import type { OsDenialKind } from "../core/events.js";

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

/** detect/'s OS-denial classifier, mapped to the event's shape (`none` → undefined). */
export function defaultClassifyFailure(_input: FailureInput): OsDenial | undefined {
  return undefined;
}
