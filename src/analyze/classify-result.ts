import type { DenialSource, OsDenialKind } from "../core/events.js";
import { classifyOsDenial } from "../detect/classify-os-denial.js";
import { recognizeDenial } from "../detect/recognize-denial.js";
import type { AnalyzeHost, ResultFact } from "./reader-event.js";

export interface ClassifiedDenial {
  source: DenialSource;
  reason: string;
  rule?: string;
  /** set when the OS or a sandbox refused the call (the core counts it as a `sandbox` denial) */
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}

/**
 * Whether a tool result was a denial, and whose: the host's structured verdict first (with the text naming the
 * source when the verdict does not), then the host's denial texts, then the OS-denial classifier for a failure.
 * Undefined for a success or an ordinary failure.
 */
export function classifyResult(options: {
  fact: ResultFact;
  tool: string;
  host: AnalyzeHost;
  interactive: boolean;
}): ClassifiedDenial | undefined {
  const { fact, tool, host } = options;
  const metadata = { ...fact.metadata, interactive: options.interactive };
  const text = fact.text.slice(0, 20_000);
  if (fact.denial !== undefined) {
    const recognized = text === "" ? undefined : recognizeDenial({ host, text, isError: true, metadata });
    return {
      source: fact.denial.source ?? recognized?.source ?? "rule",
      reason: fact.denial.reason ?? recognized?.reason ?? text,
      ...(fact.denial.rule === undefined ? {} : { rule: fact.denial.rule }),
    };
  }
  if (fact.outcome !== "error") return undefined;
  const recognized = recognizeDenial({ host, text, isError: true, metadata });
  if (recognized !== undefined) return { source: recognized.source, reason: recognized.reason };
  const os = classifyOsDenial({
    tool,
    output: text,
    ...(fact.exitCode === undefined ? {} : { exitCode: fact.exitCode }),
  });
  if (os.kind === "none") return undefined;
  const osDenial = { kind: os.kind, evidence: os.evidence, ...(os.path === undefined ? {} : { path: os.path }) };
  return { source: "sandbox", reason: `${os.kind}: ${os.evidence}`, osDenial };
}
