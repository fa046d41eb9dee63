import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseObject, readLines, sniffingHead } from "./read-lines.js";

const directory = mkdtempSync(join(tmpdir(), "toolgate-read-lines-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function collect(content: string, keep?: (line: string) => boolean, keepBytes?: (bytes: Buffer) => boolean) {
  const file = join(directory, "lines.txt");
  writeFileSync(file, content);
  const lines: string[] = [];
  const lengths: number[] = [];
  for (const line of readLines(file, {
    onLine: (length) => lengths.push(length),
    ...(keep === undefined ? {} : { keep }),
    ...(keepBytes === undefined ? {} : { keepBytes }),
  }))
    lines.push(line);
  return { lines, lengths };
}

describe("readLines", () => {
  test("splits on \\n, drops a trailing \\r, yields the last line without a newline", async () => {
    const { lines } = await collect('{"a":1}\r\n\nplain\n{"é":"ü"}');
    expect(lines).toEqual(['{"a":1}', "", "plain", '{"é":"ü"}']);
  });

  test("lines cut by the 1 MB chunk boundaries, a \\r\\n split across one, come out whole", async () => {
    const long = "x".repeat(1024 * 1024 - 1);
    const longer = "y".repeat(1024 * 1024 + 10);
    const { lines } = await collect(`${long}\r\nshort\n${longer}\nz\n`);
    expect(lines.map((line) => line.length)).toEqual([long.length, 5, longer.length, 1]);
    expect(lines[0]).toBe(long);
    expect(lines[2]).toBe(longer);
  });

  test("a line `keep` rejects is not yielded, but still counted for progress", async () => {
    const keep = (line: string) => !line.includes("skip");
    const { lines, lengths } = await collect("one\nskip me\n\ntwo\nlast skip", keep);
    expect(lines).toEqual(["one", "", "two"]);
    expect(lengths).toEqual([3, 7, 0, 3, 9]);
  });

  test("a line `keepBytes` rejects is neither decoded nor yielded, but still counted for progress", async () => {
    const keepBytes = (bytes: Buffer) => !bytes.includes(Buffer.from("skip"));
    const { lines, lengths } = await collect("one\nskip me\n\ntwo\nlast skip", undefined, keepBytes);
    expect(lines).toEqual(["one", "", "two"]);
    expect(lengths).toEqual([3, 7, 0, 3, 9]);
  });

  test("with small chunks, every line comes out whole: carried bytes are copied before the chunk is read into again", () => {
    // multi-byte characters and \r\n cut at every offset of a 7-byte chunk
    const expected = Array.from({ length: 200 }, (_, index) => `{"n":${index},"t":"é€😀${"ab".repeat(index % 9)}"}`);
    const file = join(directory, "small-chunks.txt");
    writeFileSync(file, `${expected.join("\r\n")}\n`);
    expect([...readLines(file, { chunkBytes: 7 })]).toEqual(expected);
  });

  test("a caller that stops early closes the file", () => {
    const file = join(directory, "early.txt");
    writeFileSync(file, "a\nb\nc\n");
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (const line of readLines(file)) {
      expect(open()).toBe(before + 1);
      if (line === "a") break;
    }
    expect(open()).toBe(before);
  });
});

describe("sniffingHead", () => {
  test("while sniffing, a line is parsed once: every sniff gets the same record; outside, each parse is fresh", () => {
    const line = '{"type":"session_meta","payload":{"id":"x"}}';
    const [first, second, other] = sniffingHead(() => [parseObject(line), parseObject(line), parseObject("[1]")]);
    expect(first).toEqual({ type: "session_meta", payload: { id: "x" } });
    expect(second).toBe(first);
    expect(other).toBeUndefined();
    // a later sniff (another file) and a reader's parse never see an earlier file's records
    expect(sniffingHead(() => parseObject(line))).not.toBe(first);
    expect(parseObject(line)).not.toBe(parseObject(line));
  });
});
