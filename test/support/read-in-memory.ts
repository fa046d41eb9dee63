import { readFileSync } from "node:fs";
import type { ReaderFact, ReaderSource } from "../../src/hosts/common/reader-event.js";

export interface InMemoryRead {
  facts: ReaderFact[];
  skipped: number;
  /** lines handed to the reader (not left unparsed by its `keep` or `keepBytes`) */
  kept: number;
}

/**
 * A transcript reader run over in-memory lines, for the differential tests of the readers that leave lines unparsed:
 * with `useKeep` the reader's `keepBytes` and `keep` are honoured as `readLines` honours them (a non-empty line
 * either rejects is not handed over), without it every line is handed over.
 */
export async function readInMemory(
  reader: (source: ReaderSource) => Iterable<ReaderFact>,
  options: { lines: readonly string[]; useKeep: boolean },
): Promise<InMemoryRead> {
  const { lines, useKeep } = options;
  const result: InMemoryRead = { facts: [], skipped: 0, kept: 0 };
  const source: ReaderSource = {
    file: "memory.jsonl",
    fallbackAt: 1_700_000_000_000,
    fallbackSessionId: "fallback-session",
    skip() {
      result.skipped += 1;
    },
    *lines(keep, keepBytes) {
      for (const line of lines) {
        if (useKeep && keepBytes !== undefined && line.length > 0 && !keepBytes(Buffer.from(line))) continue;
        if (useKeep && keep !== undefined && line.length > 0 && !keep(line)) continue;
        result.kept += 1;
        yield line;
      }
    },
  };
  for (const fact of reader(source)) result.facts.push(fact);
  return result;
}

/**
 * Each built line of `variants` put in place of each recorded JSON line of `files`, and before it: `expectSame` is
 * called with the changed lines and a label naming the file, the line and the variant. Returns how many cases ran.
 */
export async function eachLineReplaced(
  files: readonly string[],
  options: {
    variants: (line: string) => Iterable<string>;
    expectSame: (lines: string[], label: string) => Promise<unknown>;
  },
): Promise<number> {
  let cases = 0;
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split(/\r?\n/);
    for (const [index, line] of lines.entries()) {
      if (!line.startsWith("{")) continue;
      for (const variant of options.variants(line)) {
        const label = `${file}:${index + 1} ${variant}`;
        await options.expectSame(
          lines.map((each, at) => (at === index ? variant : each)),
          label,
        );
        await options.expectSame([...lines.slice(0, index), variant, ...lines.slice(index)], label);
        cases += 2;
      }
    }
  }
  return cases;
}
