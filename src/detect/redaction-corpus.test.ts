import { describe, expect, it } from "vitest";
import { measureCorpus, negativeCorpus, secretCorpus } from "../../test/support/redaction-corpus.mjs";
import { redactWithFindings } from "./redact.js";

const redactor = (text: string) => {
  const { redacted, findings } = redactWithFindings(text);
  return { text: redacted, findings };
};

describe("redaction corpus", () => {
  it("covers every format the redactor promises", () => {
    const kinds = new Set(secretCorpus().map((row) => row.kind));
    for (const kind of [
      "aws-access-key-id",
      "aws-secret-access-key",
      "github-token",
      "gitlab-token",
      "slack-token",
      "stripe-key",
      "openai-api-key",
      "anthropic-api-key",
      "google-api-key",
      "npm-token",
      "jwt",
      "private-key",
      "url-password",
      "authorization",
      "bearer-token",
      "password",
      "secret",
      "api-key",
      "token",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(negativeCorpus().length).toBeGreaterThanOrEqual(40);
  });

  it("finds every secret (recall 100%) and reports the expected kind", () => {
    const measurement = measureCorpus(redactor);
    expect(measurement.secretsMissed).toEqual([]);
    expect(measurement.kindMisses).toEqual([]);
    expect(measurement.recall).toBe(1);
  });

  it("changes none of the negatives (zero false positives)", () => {
    const measurement = measureCorpus(redactor);
    expect(measurement.falsePositives).toEqual([]);
    expect(measurement.falsePositiveRate).toBe(0);
  });

  it("holds for other generated secrets too (seeds 1..100)", () => {
    for (let seed = 1; seed <= 100; seed += 1) {
      const measurement = measureCorpus(redactor, seed);
      expect({ seed, missed: measurement.secretsMissed, fp: measurement.falsePositives }).toEqual({
        seed,
        missed: [],
        fp: [],
      });
    }
  });

  it("measures honestly: a redactor that does nothing scores recall 0", () => {
    const measurement = measureCorpus((text) => ({ text, findings: {} }));
    expect(measurement.recall).toBe(0);
    expect(measurement.falsePositiveRate).toBe(0);
  });
});
