import type { CorePorts } from "../core/config.js";
import { callSignature } from "../core/signature.js";
import type { RedactOptions } from "../detect/redact.js";
import { createRedactor } from "../detect/redact.js";
import { summarizeInput } from "../detect/summarize-input.js";
import { commandPattern } from "../policy/command-pattern.js";
import { minimumGrantScope } from "../policy/grants/minimum-grant-scope.js";
import { suggestRule } from "../policy/grants/suggest-rule.js";
import { analyzeShellCommand, type ShellAnalysis } from "../policy/shell/analyze-shell-command.js";
import { canonicalToolName, commandOf, toolFamily } from "../policy/tool-families.js";

/** The core's ports plus the one shell analysis per call they share. */
export interface CallPorts extends CorePorts {
  /**
   * The analysis of a shell call's command, computed once per input object and shared by the pattern, the policy's
   * evaluation and the suggested rule (undefined for other tools). Kept in a WeakMap owned by this guard, so it
   * lives exactly as long as the call's input.
   */
  shellOf(tool: string, input: unknown): ShellAnalysis | undefined;
}

/**
 * The real pure functions behind the core's ports: redaction and summaries from detect/, escalation patterns,
 * grant scopes and suggested rules from policy/. The signature is computed from the *redacted* input, so no
 * signature is a plain hash of a secret.
 */
export function defaultPorts(options: { redaction?: RedactOptions } = {}): CallPorts {
  const redactor = createRedactor(options.redaction);
  const analyses = new WeakMap<object, ShellAnalysis>();
  const shellOf = (tool: string, input: unknown): ShellAnalysis | undefined => {
    if (toolFamily(canonicalToolName(tool)) !== "shell") return undefined;
    if (typeof input !== "object" || input === null) return analyzeShellCommand(commandOf(input) ?? "");
    let analysis = analyses.get(input);
    if (analysis === undefined) {
      analysis = analyzeShellCommand(commandOf(input) ?? "");
      analyses.set(input, analysis);
    }
    return analysis;
  };
  return {
    describeCall(tool, input) {
      // one walk over the input and the pattern derived from it, so a secret found in the input also goes from the
      // pattern when the pattern quotes it in a form no detector recognises (a normalised path)
      const [redacted, pattern] = redactor.redactValue([
        input,
        commandPattern(tool, input, { shell: shellOf(tool, input) }),
      ]) as [unknown, string];
      return {
        signature: callSignature(tool, redacted),
        pattern,
        summary: summarizeInput(tool, redacted, options.redaction),
        redactedInput: redacted,
      };
    },
    redactValue: redactor.redactValue,
    redactText: redactor.redactText,
    grantScope: (request) => minimumGrantScope(request),
    suggestRule: (tool, input) =>
      (
        redactor.redactValue([input, suggestRule(tool, input, { shell: shellOf(tool, input) })]) as [unknown, string]
      )[1],
    shellOf,
  };
}
