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

describe("what the README tells a new user (issue 25, item 16)", () => {
  it("counts the packages `npm ci` installs here within 15% (the lock's packages for this platform)", () => {
    const [, stated] = readme.match(/installs \(about (\d+) packages/) ?? [];
    expect(stated, "README: 'installs (about N packages'").toBeDefined();
    const lock = JSON.parse(readFileSync(resolve(root, "package-lock.json"), "utf8")) as {
      packages: Record<string, { os?: string[]; cpu?: string[]; libc?: string[] }>;
    };
    const fits = (allowed: string[] | undefined, value: string) =>
      allowed === undefined || (allowed.includes(value) && !allowed.includes(`!${value}`));
    const installed = Object.entries(lock.packages).filter(
      ([path, entry]) =>
        path !== "" &&
        fits(entry.os, process.platform) &&
        fits(entry.cpu, process.arch) &&
        (entry.libc === undefined || entry.libc.includes("glibc")),
    ).length;
    expect(Math.abs(Number(stated) - installed) / installed).toBeLessThanOrEqual(0.15);
  });

  it("says the library examples are ES modules and what a CommonJS project (npm init -y) does instead", () => {
    const section = readme.slice(readme.indexOf("## Use it as a library"));
    expect(section).toContain('"type": "module"');
    expect(section).toContain("npm init -y");
    expect(section).toContain('require("toolgate")');
  });

  it("explains npm 11's install-scripts warning for every dependency script the clone approves", () => {
    const manifest = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
      allowScripts: Record<string, boolean>;
    };
    for (const [name, allowed] of Object.entries(manifest.allowScripts)) {
      if (allowed) expect(readme).toContain(`npm install-scripts approve ${name}`);
    }
  });
});
