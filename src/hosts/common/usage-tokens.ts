import { asRecord } from "./read-lines.js";

/**
 * Tokens of one model request from the usage object a host records (the Anthropic and OpenAI
 * spellings and the hosts' own): input (cached or not) plus output. 0 when there is no usage.
 */
export function usageTokens(usage: unknown): number {
  const record = asRecord(usage);
  if (record === undefined) return 0;
  let total = 0;
  for (const key of [
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "promptTokenCount",
    "candidatesTokenCount",
    "input",
    "output",
    "reasoning",
  ]) {
    const value = record[key];
    if (typeof value === "number" && Number.isFinite(value)) total += value;
  }
  if (total === 0 && typeof record["total_tokens"] === "number") total = record["total_tokens"];
  if (total === 0 && typeof record["total"] === "number") total = record["total"];
  return total;
}
