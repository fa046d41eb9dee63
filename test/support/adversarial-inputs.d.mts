// Types of ./adversarial-inputs.mjs (test-only data; see there).
/**
 * Inputs built to make a backtracking regex engine take quadratic or exponential time on the redaction patterns:
 * long runs of each pattern's prefix, unterminated quotes and blocks, and separator soup. Used by the adversarial test
 * and the benchmark. Each is about `size` characters.
 */
export declare function adversarialInputs(size?: number): {
  label: string;
  text: string;
}[];
