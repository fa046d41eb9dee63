import { classifyOsDenial } from "../../detect/classify-os-denial.js";
import type { GuardOptions } from "../../guard/create-guard.js";

type ClassifyFailure = NonNullable<GuardOptions["classifyFailure"]>;

/** detect/'s OS-denial classifier in the guard's shape (`none` becomes undefined). No bare "not allowed" regex. */
export const classifyOutput: ClassifyFailure = (input) => {
  const verdict = classifyOsDenial(input);
  if (verdict.kind === "none") return undefined;
  return {
    kind: verdict.kind,
    evidence: verdict.evidence,
    ...(verdict.path === undefined ? {} : { path: verdict.path }),
  };
};
