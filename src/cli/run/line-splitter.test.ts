import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.js";

function split(chunks: Buffer[], maxLineLength?: number) {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), maxLineLength);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, skipped: splitter.skipped };
}

describe("LineSplitter (toolgate run's stream reader)", () => {
  it("splits lines across chunks and flushes the last one", () => {
    const { lines } = split([Buffer.from('{"a":1}\n{"b"'), Buffer.from(':2}\n\n{"c":3}')]);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', "", '{"c":3}']);
  });

  it("keeps a multi-byte character whole when a chunk boundary cuts it", () => {
    const bytes = Buffer.from("é€😀\n");
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(split(chunks).lines).toEqual(["é€😀"]);
  });

  it("reads a 48 MB single line in linear time", () => {
    // before (pending += chunk; pending.split("\n") on every chunk): 13 s for 48 MB in 64 KB chunks, quadratic;
    // each chunk is now searched once, so this finishes well inside the test's default timeout
    const chunk = Buffer.alloc(64 * 1024, "x");
    const chunks = Array.from({ length: 768 }, () => chunk);
    chunks.push(Buffer.from("\nnext\n"));
    const { lines } = split(chunks, 64 * 1024 * 1024);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveLength(768 * 64 * 1024);
    expect(lines[1]).toBe("next");
  });

  it("drops a line longer than the bound, counts it, and reads the next one", () => {
    const { lines, skipped } = split(
      [Buffer.from("x".repeat(100)), Buffer.from("y".repeat(100)), Buffer.from("\nok\n")],
      150,
    );
    expect(lines).toEqual(["ok"]);
    expect(skipped).toBe(1);
  });
});
