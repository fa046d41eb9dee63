import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * README code blocks that start with `// examples/<file>` must be that file, verbatim (minus its leading comment
 * lines), so every snippet a reader copies is type-checked by `npm run typecheck`.
 */
const root = resolve(import.meta.dirname, "..");
const readme = readFileSync(resolve(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n\/\/ (examples\/[^\n]+)\n([\s\S]*?)```/g)];

describe("README examples", () => {
  it("has at least one example block", () => {
    expect(blocks.length).toBeGreaterThan(0);
  });
  for (const [, file, body] of blocks) {
    it(`quotes ${file} verbatim`, () => {
      const source = readFileSync(resolve(root, file as string), "utf8")
        .split("\n")
        .filter(
          (line, index, lines) => !(line.startsWith("//") && lines.slice(0, index).every((l) => l.startsWith("//"))),
        )
        .join("\n");
      expect(body).toBe(source);
    });
  }
});
