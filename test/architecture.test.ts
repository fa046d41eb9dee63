import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The pure folders (core, policy, detect) import nothing from node:*, no driver, no logger, no zod, and read no
 * clock or randomness; imports point only to the folders each may use. This test is the enforcement.
 */
const root = resolve(import.meta.dirname, "..");
const pureFolders = { core: ["core"], policy: ["policy", "core"], detect: ["detect", "core"] } as const;

function sourceFiles(directory: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g;
  for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
    specifiers.push((match[1] ?? match[2] ?? match[3]) as string);
  }
  return specifiers;
}

const forbiddenCalls: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, "Date.now()"],
  [/new\s+Date\s*\(\s*\)/, "new Date() without an argument"],
  [/\bperformance\.now\s*\(/, "performance.now()"],
  [/\bMath\.random\s*\(/, "Math.random()"],
  [/\bprocess\./, "process.*"],
  [/\bconsole\./, "console.*"],
  [/\bsetTimeout\s*\(|\bsetInterval\s*\(/, "timers"],
];

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("architecture", () => {
  for (const [folder, allowed] of Object.entries(pureFolders)) {
    const directory = join(root, "src", folder);
    it(`src/${folder} stays pure`, () => {
      const problems: string[] = [];
      for (const file of sourceFiles(directory)) {
        const source = readFileSync(file, "utf8");
        const name = relative(root, file);
        for (const specifier of importsOf(source)) {
          if (specifier.startsWith(".")) {
            const target = relative(join(root, "src"), resolve(file, "..", specifier)).split(/[\\/]/)[0];
            if (!allowed.includes(target as never)) problems.push(`${name} imports ${specifier} (src/${target})`);
          } else if (specifier.startsWith("node:") || builtinModules.includes(specifier)) {
            problems.push(`${name} imports the Node built-in ${specifier}`);
          } else if (/^(zod|pino|pg|better-sqlite3|@opentelemetry\/)/.test(specifier)) {
            problems.push(`${name} imports ${specifier} (driver, logger or validator)`);
          }
        }
        const code = stripComments(source);
        for (const [pattern, label] of forbiddenCalls) {
          if (pattern.test(code)) problems.push(`${name} uses ${label}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it("the built root entry loads no native module, driver, logger or node: built-in (run `npm run build` first)", () => {
    const entry = join(root, "dist", "index.js");
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of importsOf(readFileSync(file, "utf8"))) {
        if (specifier.startsWith(".")) visit(resolve(file, "..", specifier));
        else external.add(specifier);
      }
    };
    visit(entry);
    expect(seen.size).toBeGreaterThan(10);
    const forbidden = [...external].filter(
      (specifier) =>
        specifier.startsWith("node:") ||
        builtinModules.includes(specifier) ||
        /^(pg|better-sqlite3|pino|@opentelemetry\/|zod)/.test(specifier),
    );
    expect(forbidden).toEqual([]);
  });

  it("the checker itself catches a violation", () => {
    expect(importsOf('import { readFileSync } from "node:fs";')).toEqual(["node:fs"]);
    expect(importsOf('const x = await import("pg");')).toEqual(["pg"]);
    expect(forbiddenCalls.some(([pattern]) => pattern.test(stripComments("const t = Date.now();")))).toBe(true);
    expect(forbiddenCalls.some(([pattern]) => pattern.test(stripComments("// Date.now() in a comment")))).toBe(false);
  });
});
