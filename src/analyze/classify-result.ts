import type { DenialSource, OsDenialKind } from "../core/events.js";
import { classifyOsDenial } from "../detect/classify-os-denial.js";
import type { HostDenialTable } from "../detect/denial-text-rule.js";
import { recognizeDenial } from "../detect/recognize-denial.js";
import type { AnalyzeHost, ResultFact } from "../hosts/common/reader-event.js";

export interface ClassifiedDenial {
  source: DenialSource;
  reason: string;
  rule?: string;
  /** set when the OS or a sandbox refused the call (the core counts it as a `sandbox` denial) */
  osDenial?: { kind: OsDenialKind; evidence: string; path?: string };
}

/**
 * Whether a tool result was a denial, and whose: the host's structured verdict says that it was (the host's
 * metadata and text, read by `recognizeDenial`, say whose when they can), then the host's denial texts, then the
 * OS-denial classifier for a failure.
 * Undefined for a success or an ordinary failure.
 */
export function classifyResult(options: {
  fact: ResultFact;
  tool: string;
  host: AnalyzeHost;
  /** the denial-text tables to read with (`host` selects its own: `denialTexts()` in formats.ts loads them) */
  denialTexts: readonly HostDenialTable[];
  /** whether a person could answer; `false` turns a person's rejection into `headless`; undefined: unknown */
  interactive: boolean | undefined;
}): ClassifiedDenial | undefined {
  const { fact, tool, host } = options;
  const tables = options.denialTexts;
  const metadata =
    options.interactive === undefined ? { ...fact.metadata } : { ...fact.metadata, interactive: options.interactive };
  const text = fact.text.slice(0, 20_000);
  if (fact.denial !== undefined) {
    const recognized = text === "" ? undefined : recognizeDenial({ tables, host, text, isError: true, metadata });
    // the host's text and metadata name the source more precisely than a bare refusal flag (Claude's
    // `permission_denied` says `rule` for an ask rule too; its `tool_result_meta` says the ask was not answered)
    return {
      source: recognized?.source ?? fact.denial.source ?? "rule",
      reason: fact.denial.reason ?? recognized?.reason ?? text,
      ...(fact.denial.rule === undefined ? {} : { rule: fact.denial.rule }),
    };
  }
  if (fact.outcome !== "error") return undefined;
  const recognized = recognizeDenial({ tables, host, text, isError: true, metadata });
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
