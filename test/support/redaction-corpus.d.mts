// Types of ./redaction-corpus.mjs (test-only data; see there).
/**
 * The corpus that measures redaction recall and false positives (`redaction-corpus.test.ts` and
 * `bench/detect.bench.mjs`). Every secret is FAKE: generated from a seeded generator and assembled from parts at run
 * time, so no secret-shaped literal sits in the source (and secret scanners stay quiet). Negatives are texts that must
 * come through unchanged: git SHAs, UUIDs, base64 images, package integrity hashes, shell commands, file paths.
 */
export interface CorpusSecret {
  /** the kind the redactor should report */
  kind: string;
  /** the text as a tool input would carry it */
  text: string;
  /** the secret values inside `text`; none may survive redaction */
  secrets: string[];
}
export interface CorpusNegative {
  label: string;
  text: string;
}
export declare function secretCorpus(seed?: number): CorpusSecret[];
export declare function negativeCorpus(seed?: number): CorpusNegative[];
export interface CorpusMeasurement {
  /** secrets found (absent from the output) / all secrets */
  recall: number;
  secretsTotal: number;
  secretsMissed: {
    kind: string;
    text: string;
    secret: string;
  }[];
  /** rows whose expected kind was not reported */
  kindMisses: {
    kind: string;
    text: string;
    reported: string[];
  }[];
  /** negatives changed / all negatives */
  falsePositiveRate: number;
  negativesTotal: number;
  falsePositives: {
    label: string;
    text: string;
    output: string;
  }[];
}
/** Run a redactor over the corpus and measure recall and false positives. */
export declare function measureCorpus(
  redact: (text: string) => {
    text: string;
    findings: Record<string, number>;
  },
  seed?: number,
): CorpusMeasurement;
