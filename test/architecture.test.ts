import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
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

/**
 * The layers of DESIGN.md (imports point downward only), for the folders above the pure ones. `store:types` allows
 * type-only imports of store/ports.ts (the guard's ports). A host folder (src/hosts/<host>) may import its own folder
 * and src/hosts/common, never another host's folder; only its edge files (installer, doctor check, entries that bind
 * the composition root, transcript and rule-file readers: `HOST_EDGE_FILE`) may import the root, config or node:*.
 */
const LAYERS: Record<string, readonly string[]> = {
  config: ["core", "policy", "detect"],
  "detect-node": ["core", "detect", "config"],
  store: ["core", "policy", "detect", "config"],
  audit: ["core", "policy", "detect", "config", "store"],
  guard: ["core", "policy", "detect", "store:types"],
  hosts: ["core", "policy", "detect", "guard"],
  root: ["core", "policy", "detect", "detect-node", "config", "store", "audit", "guard", "hosts"],
  "hook-runtime": ["core", "policy", "detect", "detect-node", "config", "store", "audit", "guard", "hosts", "root"],
  demo: ["core", "policy", "detect", "guard"],
  analyze: ["core", "policy", "detect", "detect-node", "config", "store", "audit", "guard", "hosts", "root"],
  dashboard: [
    "core",
    "policy",
    "detect",
    "detect-node",
    "config",
    "store",
    "audit",
    "guard",
    "root",
    "analyze",
    "hosts",
  ],
  cli: [
    "core",
    "policy",
    "detect",
    "detect-node",
    "config",
    "store",
    "audit",
    "guard",
    "hosts",
    "root",
    "hook-runtime",
    "demo",
    "analyze",
    "dashboard",
  ],
};

/** The layers a host's edge files may use besides `LAYERS.hosts`. */
const HOST_EDGE_LAYERS: readonly string[] = ["root", "config"];

/**
 * A host's edge files: where it meets the file system, a process or the composition root. Everything else in a host
 * folder translates (no node:*, no root, no config).
 */
const HOST_EDGE_FILE =
  /\/(install-[^/]+|[^/]+-installer|check-[^/]+|import-[^/]+|[^/]+-entry|[^/]+-plugin|mcp-proxy[^/]*|[^/]+-app-server|[^/]+-execpolicy|[^/]+-environment|[^/]+-stream|stream-parser|[^/]+-policy-rules|[^/]+-rollout-denials|[^/]+-db|settings-file|[^/]+-settings-hierarchy|hook-command|read-lines|read-transcript|run-hook-command|proxy-command-line|rewrite-[^/]+)\.ts$/;

function layerProblems(file: string, folder: string, allowed: readonly string[], source?: string): string[] {
  const problems: string[] = [];
  const text = source ?? readFileSync(file, "utf8");
  const name = relative(root, file);
  const ownHost = folder === "hosts" ? relative(join(root, "src", "hosts"), file).split(/[\\/]/)[0] : undefined;
  const edge = folder === "hosts" && HOST_EDGE_FILE.test(file.replaceAll("\\", "/"));
  const typeOnly = new Set<string>();
  for (const match of text.matchAll(/import\s+type\s[^'"]*?from\s*["']([^"']+)["']/g)) typeOnly.add(match[1] as string);
  for (const specifier of importsOf(text)) {
    if (folder === "hosts" && !edge && (specifier.startsWith("node:") || builtinModules.includes(specifier))) {
      problems.push(`${name} imports ${specifier}: only a host's edge files (installer, entry, readers) use node:*`);
    }
    if (!specifier.startsWith(".")) continue;
    const target = relative(join(root, "src"), resolve(file, "..", specifier)).split(/[\\/]/);
    const [top] = target;
    if (top === folder) {
      // a host may use its own folder and src/hosts/common, not another host's folder (the registry lists them all)
      const shared = target[1] === "common" || target[1] === "host-descriptor.js";
      // the files directly in src/hosts (the registry, the descriptor type) reach a host only through its host.ts
      const topLevel = ownHost?.endsWith(".ts") === true;
      const descriptor = target.length === 3 && target[2] === "host.js";
      if (topLevel && target.length > 2 && !shared && !descriptor) {
        problems.push(`${name} imports more of a host than its descriptor: ${specifier}`);
      } else if (ownHost !== undefined && !topLevel && target.length > 2 && target[1] !== ownHost && !shared) {
        problems.push(`${name} imports another host's folder: ${specifier}`);
      }
      continue;
    }
    if (allowed.includes(top as string)) continue;
    if (edge && HOST_EDGE_LAYERS.includes(top as string)) continue;
    if (allowed.includes(`${top}:types`) && typeOnly.has(specifier) && target[1] === "ports.js") continue;
    problems.push(`${name} imports ${specifier} (src/${top}), which src/${folder} may not use`);
  }
  return problems;
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

  const presentLayers = Object.entries(LAYERS).filter(([folder]) => existsSync(join(root, "src", folder)));
  it.each(presentLayers)("src/%s imports only the layers below it", (folder, allowed) => {
    const directory = join(root, "src", folder);
    const problems: string[] = [];
    for (const file of sourceFiles(directory)) {
      problems.push(...layerProblems(file, folder, allowed));
    }
    expect(problems).toEqual([]);
  });

  it("every folder under src/ has its place in the layer table", () => {
    const folders = readdirSync(join(root, "src")).filter((name) => statSync(join(root, "src", name)).isDirectory());
    expect(folders.filter((name) => !(name in LAYERS) && !(name in pureFolders))).toEqual([]);
  });

  it("the layer check catches a host that opens a store, reads files outside its edge, or uses another host", () => {
    const adapter = join(root, "src", "hosts", "codex", "x.ts");
    const allowed = LAYERS["hosts"] as readonly string[];
    expect(
      layerProblems(adapter, "hosts", allowed, 'import { openStore } from "../../store/open-store.js";'),
    ).toHaveLength(1);
    expect(layerProblems(adapter, "hosts", allowed, 'import { x } from "../claude-code/handle-hook.js";')).toHaveLength(
      1,
    );
    expect(layerProblems(adapter, "hosts", allowed, 'import { readFileSync } from "node:fs";')).toHaveLength(1);
    expect(layerProblems(adapter, "hosts", allowed, 'import { x } from "../../root/open-toolgate.js";')).toHaveLength(
      1,
    );
    const installer = join(root, "src", "hosts", "codex", "install-codex.ts");
    expect(layerProblems(installer, "hosts", allowed, 'import { readFileSync } from "node:fs";')).toEqual([]);
    expect(layerProblems(adapter, "hosts", allowed, 'import type { HookHost } from "../common/hook-host.js";')).toEqual(
      [],
    );
    const guard = join(root, "src", "guard", "x.ts");
    const guardAllowed = LAYERS["guard"] as readonly string[];
    expect(
      layerProblems(guard, "guard", guardAllowed, 'import { openStore } from "../store/open-store.js";'),
    ).toHaveLength(1);
    expect(
      layerProblems(guard, "guard", guardAllowed, 'import type { SessionStateStore } from "../store/ports.js";'),
    ).toEqual([]);
  });

  it("the checker itself catches a violation", () => {
    expect(importsOf('import { readFileSync } from "node:fs";')).toEqual(["node:fs"]);
    expect(importsOf('const x = await import("pg");')).toEqual(["pg"]);
    expect(forbiddenCalls.some(([pattern]) => pattern.test(stripComments("const t = Date.now();")))).toBe(true);
    expect(forbiddenCalls.some(([pattern]) => pattern.test(stripComments("// Date.now() in a comment")))).toBe(false);
  });
});

/** The static value imports of a file (type-only imports and lazy `import()` cannot make a load-order cycle). */
function valueImportsOf(file: string, source: string): string[] {
  const targets: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?!type\b)([^;]*?)\s+from\s+["'](\.[^"']+)["']/gms;
  for (const match of stripComments(source).matchAll(pattern)) {
    const names = (match[1] as string).trim();
    // `import { type A, type B }` is type-only too
    if (/^\{\s*(?:type\s+\w+(?:\s+as\s+\w+)?\s*,?\s*)+\}$/.test(names)) continue;
    targets.push(resolve(dirname(file), match[2] as string).replace(/\.js$/, ".ts"));
  }
  return targets;
}

/** The strongly connected groups of more than one file (Tarjan): each is an import cycle. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(relative(root, member));
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}

/**
 * Exported functions take at most two positional parameters; more go into an options object (a third parameter
 * is allowed only as that object, named `options`). The exceptions keep a signature every caller knows: the
 * reducer's `(state, event, config)` (also its owned-state variants) and the hyperscript `h(tag, attributes, ...children)`, and `plural(count,
 * one, many)`.
 */
const POSITIONAL_EXCEPTIONS = new Set([
  "src/core/step.ts:step",
  "src/core/step.ts:stepGeneral",
  "src/core/step.ts:stepOwned",
  "src/core/fast-step.ts:fastStep",
  "src/core/fast-step.ts:fastStepOwned",
  "src/dashboard/web/dom.ts:h",
  "src/core/plural.ts:plural",
]);

function positionalProblems(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  const check = (name: string, parameters: ts.NodeArray<ts.ParameterDeclaration>, node: ts.Node): void => {
    if (parameters.length <= 2) return;
    const third = parameters[2];
    if (parameters.length === 3 && third !== undefined && third.name.getText(sourceFile) === "options") return;
    const where = `${relative(root, file)}:${name}`;
    if (POSITIONAL_EXCEPTIONS.has(where)) return;
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
    problems.push(`${relative(root, file)}:${line} ${name} takes ${parameters.length} positional parameters`);
  };
  for (const statement of sourceFile.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) {
      check(statement.name.text, statement.parameters, statement);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (value !== undefined && (ts.isArrowFunction(value) || ts.isFunctionExpression(value))) {
          check(declaration.name.getText(sourceFile), value.parameters, statement);
        }
      }
    }
  }
  return problems;
}

describe("shape of the code", () => {
  const files = sourceFiles(join(root, "src")).filter((file) => !file.endsWith(".d.ts"));

  it("no import cycles among the source files (static value imports)", () => {
    const graph = new Map(files.map((file) => [file, valueImportsOf(file, readFileSync(file, "utf8"))] as const));
    expect(importCycles(graph)).toEqual([]);
  });

  it("the cycle check finds a cycle, and ignores type-only imports", () => {
    const a = join(root, "src", "a.ts");
    const b = join(root, "src", "b.ts");
    expect(
      importCycles(
        new Map([
          [a, valueImportsOf(a, 'import { x } from "./b.js";')],
          [b, valueImportsOf(b, 'export { y } from "./a.js";')],
        ]),
      ),
    ).toEqual([["src/a.ts", "src/b.ts"]]);
    expect(valueImportsOf(a, 'import type { X } from "./b.js";\nimport { type Y } from "./b.js";')).toEqual([]);
  });

  it("exported functions take at most two positional parameters (then an options object)", () => {
    const problems = files.flatMap((file) => positionalProblems(file, readFileSync(file, "utf8")));
    expect(problems).toEqual([]);
  });

  it("the parameter check catches three positional parameters and lets an options object through", () => {
    const file = join(root, "src", "x.ts");
    expect(positionalProblems(file, "export function f(a: 1, b: 2, c: 3) {}")).toHaveLength(1);
    expect(positionalProblems(file, "export const f = (a: 1, b: 2, c: 3, d: 4) => 0;")).toHaveLength(1);
    expect(positionalProblems(file, "export function f(a: 1, b: 2, options: {}) {}")).toEqual([]);
    expect(positionalProblems(file, "function f(a: 1, b: 2, c: 3) {}")).toEqual([]);
  });
});
