import type { CorePorts } from "../core/config.js";
import { callSignature } from "../core/signature.js";
import type { RedactOptions } from "../detect/redact.js";
import { createRedactor } from "../detect/redact.js";
import { summarizeInput } from "../detect/summarize-input.js";
import { commandPattern } from "../policy/command-pattern.js";
import { minimumGrantScope } from "../policy/grants/minimum-grant-scope.js";
import { suggestRule } from "../policy/grants/suggest-rule.js";

/**
 * The real pure functions behind the core's ports: redaction and summaries from detect/, escalation patterns,
 * grant scopes and suggested rules from policy/. The signature is computed from the *redacted* input, so no
 * signature is a plain hash of a secret.
 */
export function defaultPorts(options: { redaction?: RedactOptions } = {}): CorePorts {
  const redactor = createRedactor(options.redaction);
  return {
    describeCall(tool, input) {
      const redacted = redactor.redactValue(input);
      return {
        signature: callSignature(tool, redacted),
        pattern: redactor.redactText(commandPattern(tool, input)),
        summary: summarizeInput(tool, redacted, options.redaction),
        redactedInput: redacted,
      };
    },
    redactValue: redactor.redactValue,
    redactText: redactor.redactText,
    grantScope: (request) => minimumGrantScope(request),
    suggestRule: (tool, input) => redactor.redactText(suggestRule(tool, input)),
  };
}
