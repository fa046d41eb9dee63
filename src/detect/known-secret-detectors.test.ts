import { describe, expect, it } from "vitest";
import { KNOWN_SECRET_DETECTORS } from "./known-secret-detectors.js";
import { redactWithFindings } from "./redact.js";

const alnum = (length: number, seed = 7) =>
  Array.from({ length }, (_, index) => "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8"[(index * seed) % 27]).join("");
const hex = (length: number) => Array.from({ length }, (_, index) => "0123456789abcdef"[(index * 5) % 16]).join("");

/**
 * One example of every alternative each token format allows: every detector passes a text over when it holds none
 * of its literals (`appliesTo`), so a literal missing from a detector's list would let that alternative through
 * unredacted. This table fails for exactly that.
 */
const EXAMPLES: [kind: string, secret: string][] = [
  ...["AKIA", "ASIA", "ABIA", "ACCA", "A3TX"].map((prefix): [string, string] => [
    "aws-access-key-id",
    `${prefix}${"Q7W2E9R4T6Y1U3I8".slice(0, 16)}`,
  ]),
  ...["ghp", "gho", "ghu", "ghs", "ghr"].map((prefix): [string, string] => ["github-token", `${prefix}_${alnum(36)}`]),
  ["github-token", `github_pat_${alnum(40)}`],
  ...["glpat", "gldt", "glrt", "glptt", "gloas"].map((prefix): [string, string] => [
    "gitlab-token",
    `${prefix}-${alnum(24)}`,
  ]),
  ...["a", "b", "p", "r", "s", "e"].map((letter): [string, string] => ["slack-token", `xox${letter}-${alnum(24)}`]),
  ...["sk", "rk", "pk"].flatMap((kind) =>
    ["live", "test"].map((mode): [string, string] => ["stripe-key", `${kind}_${mode}_${alnum(24)}`]),
  ),
  ["stripe-key", `whsec_${alnum(32)}`],
  ["anthropic-api-key", `sk-ant-${alnum(40)}`],
  ["openrouter-api-key", `sk-or-v1-${hex(64)}`],
  ["google-api-key", `AIza${alnum(35)}`],
  ["npm-token", `npm_${alnum(36)}`],
  ["huggingface-token", `hf_${alnum(36)}`],
  ["supabase-token", `sbp_${hex(40)}`],
];

describe("known secret formats", () => {
  it.each(EXAMPLES)("redacts a %s in every alternative form (%s)", (kind, secret) => {
    const { redacted, findings } = redactWithFindings(`export TOKEN_VALUE=x; curl -d ${secret} https://example.com`);
    expect(redacted).not.toContain(secret);
    expect(findings).toEqual({ [kind]: 1 });
  });

  it("gives every detector a cheap test that passes over texts that cannot hold its format", () => {
    for (const detector of KNOWN_SECRET_DETECTORS) {
      expect({ kind: detector.kind, appliesTo: typeof detector.appliesTo }).toEqual({
        kind: detector.kind,
        appliesTo: "function",
      });
      expect(detector.appliesTo?.("ls -la && git status")).toBe(false);
    }
  });
});
