/**
 * Every `--json` document has one shape per command: every key is always present (null when there is no value,
 * [] for an empty list), and problems the text output prints as `warning:` lines are in `warnings`. The shapes are
 * documented in docs/cli.md and pinned by test/cli/json-shapes.test.ts.
 */
export interface CliWarning {
  /** stable: scripts may match on it */
  code: string;
  /** one sentence that says what happened and how to fix it */
  message: string;
}

export function toCliWarnings(warnings: readonly { code: string; message: string }[]): CliWarning[] {
  return warnings.map((warning) => ({ code: warning.code, message: warning.message }));
}

/** Writes one JSON document (pretty when `pretty`) followed by a newline. */
export function writeJson(document: object, options: { pretty?: boolean } = {}): void {
  process.stdout.write(`${JSON.stringify(document, null, options.pretty === true ? 2 : undefined)}\n`);
}
