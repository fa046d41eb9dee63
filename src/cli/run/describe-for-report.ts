import { defaultPorts } from "../../guard/default-ports.js";

/** Redacted summary, signature, pattern and minimal allow rule of a call, with toolgate's default redaction. */
export function describeForReport(): (
  tool: string,
  input: unknown,
) => {
  summary: string;
  signature: string;
  allowRule: string;
  pattern: string;
} {
  const ports = defaultPorts();
  return (tool, input) => {
    const described = ports.describeCall(tool, input);
    return {
      summary: described.summary,
      signature: described.signature,
      allowRule: ports.suggestRule(tool, input),
      pattern: described.pattern,
    };
  };
}
