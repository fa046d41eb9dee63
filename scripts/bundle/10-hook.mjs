// The hook entry (issue 13): dist/hook-runtime/hook-main.js and everything it reaches, bundled by esbuild into ONE CommonJS
// file, dist/hook/hook-bundle.cjs, plus the small launcher a host's settings run, dist/hook/toolgate-hook.cjs, which
// loads the bundle through a V8 code cache (src/hook-runtime/load-hook-bundle.ts). No ESM loader, and a dynamic import()
// stays lazy: the module it names is evaluated only when reached (esbuild wraps it), so an event pays only for the
// host and the modules it uses. Native modules and optional peers stay external (required from node_modules).
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";

/**
 * Node built-ins that cost time to load and that most events never use (node:crypto for hook ids and keyed hashes,
 * node:child_process for command hooks, node:os for the home directory when HOME is unset): the bundle imports them
 * through a stand-in whose functions load the real module on first call.
 */
const LAZY_BUILTINS = ["node:crypto", "node:child_process", "node:os"];

/**
 * Packages the hook reaches only for rare inputs, imported through a stand-in whose listed functions require the
 * real package from node_modules on their first call: picomatch compiles only globs the built-in automaton cannot
 * (extglobs, POSIX classes). The policy code imports it statically (it imports nothing from node:*).
 */
const LAZY_PACKAGES = { "picomatch/posix.js": ["makeRe"] };

/**
 * Code few events reach, left out of the bundle in parts beside it (`hook-part-<name>.cjs`): a part is read, and
 * deserialised from its own code cache, only by a process that reaches it, so the events that never do (every
 * PreToolUse without a config file) do not pay for its bytes. Each part bundles its entry modules with what they
 * import (modules also in the main bundle are copied: parts must only hold code whose module state nothing else
 * shares). The main bundle must reach an entry module through import() only, and must not hold what `excluded` names.
 */
const PARTS = [
  // the config file's loader and its schemas (zod is most of the bundle's bytes), only when a config file applies
  { name: "config", entries: ["root/load-config.js", "config/audit-schema.js"], excluded: /node_modules\/zod\// },
  // the stores the spool drains into: only at a session's end, or when a session's state cannot tell what is recorded
  // better-sqlite3's JavaScript goes in too (its addon stays in node_modules, named by the driver): Node would
  // otherwise resolve, read and compile its dozen files one by one, about 3 ms of the drain, with no code cache
  {
    name: "sqlite",
    entries: ["store/sqlite/sqlite-store.js"],
    replace: {
      "store/sqlite/load-better-sqlite3.js": `const Database = require("better-sqlite3");
export function loadBetterSqlite3() { return { Database, main: require.resolve("better-sqlite3") }; }`,
    },
    bundled: ["better-sqlite3"],
  },
  { name: "postgres", entries: ["store/postgres/postgres-store.js"] },
  // the hosts' transcript readers, only while a wasted call waits for its tokens (src/hosts/common/call-tokens.ts)
  {
    name: "transcript-tokens",
    entries: [
      "hosts/codex/codex-rollout.js",
      "hosts/gemini/gemini-session.js",
      "hosts/gemini/gemini-refusal-tokens.js",
      "hosts/qwen/qwen-chat.js",
    ],
  },
  // the resident hook server (docs/resident-hook.md), only for `--serve`: no hook event loads it
  { name: "server", entries: ["hook-runtime/hook-server-process.js"] },
  // Gemini CLI's policy files (TOML), only for `hook gemini`
  { name: "gemini-policy", entries: ["hosts/gemini/gemini-policy-rules.js"], excluded: /node_modules\/smol-toml\// },
];

/** What a hook process loads through a host descriptor: its hook host and its permission-rule reader. */
const HOOK_HOST_PARTS = /(hook-host|policy-rules)\.js$/;

/** Never bundled: native modules, optional peers and what they pull in (loaded from node_modules when reached). */
const EXTERNAL = ["better-sqlite3", "pg", "pg-native", "@opentelemetry/api", "pino", "thread-stream", "pino-*"];

export default async function ({ root, dist }) {
  const out = join(dist, "hook");
  mkdirSync(out, { recursive: true });
  const lazyBuiltins = standIns("lazy-builtin", LAZY_BUILTINS, lazyModule);
  const common = {
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // import() of a bundled module becomes a lazy init call; of an external one, a require() (a vm.Script has no
    // dynamic-import callback on Node 20)
    supported: { "dynamic-import": false },
    external: EXTERNAL,
    legalComments: "none",
    // no comments or layout: fewer bytes to read, check and scan (identifiers stay, so stack traces stay readable)
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
    // an import of a name the module does not export is a build error here (esbuild would otherwise bundle it as
    // undefined, and the hook would fail closed on every event instead of the build failing)
    logOverride: { "import-is-undefined": "error" },
  };
  // the bundle sits in dist/hook/, one level under dist/ like every source folder: URLs built from import.meta.url
  // ("../cli/main.js", "../../package.json") resolve as they do from dist/<folder>/
  // computed when read (most events never read it): node:url's pathToFileURL costs a few tenths of a millisecond
  const importMetaUrl = {
    define: { "import.meta.url": "__toolgate_import_meta.url" },
    banner: {
      js: 'var __toolgate_import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
    },
  };
  const lazyPackages = standIns("lazy-package", Object.keys(LAZY_PACKAGES), (name) =>
    [
      `let loaded; const load = () => (loaded ??= require(${JSON.stringify(name)}));`,
      `export default { ${LAZY_PACKAGES[name].map((key) => `${key}: (...args) => load().${key}(...args)`).join(", ")} };`,
    ].join("\n"),
  );
  // every part's entry module, by absolute path: the main bundle requires the part instead
  const partOf = new Map(PARTS.flatMap((part) => part.entries.map((entry) => [join(dist, entry), part])));
  const parts = {
    name: "hook-parts",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const part = partOf.get(join(args.resolveDir, args.path));
        if (part === undefined) return undefined;
        if (args.kind !== "dynamic-import") {
          return {
            errors: [{ text: `${args.path} is in the hook part "${part.name}": import it with import() only` }],
          };
        }
        return { path: `./hook-part-${part.name}.cjs`, external: true };
      });
    },
  };
  // a host descriptor (dist/hosts/<host>/host.js) loads every part of its host lazily; a hook process reaches only
  // its hook host and its permission rules, so the rest (installer, doctor check, stream reader, transcript readers)
  // stays out of the bundle (esbuild turns such an import() into a require() of the dist/ file, which no hook event
  // reaches: a process that did would fail, and a failing hook answers closed)
  const hostParts = {
    name: "host-parts",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== "dynamic-import" || !/[\\/]hosts[\\/][^\\/]+[\\/]host\.js$/.test(args.importer))
          return undefined;
        if (HOOK_HOST_PARTS.test(args.path)) return undefined;
        const file = join(args.resolveDir, args.path);
        return { path: `../${relative(dist, file).split("\\").join("/")}`, external: true };
      });
    },
  };
  const main = await build({
    ...common,
    ...importMetaUrl,
    entryPoints: [join(dist, "hook-runtime", "hook-main.js")],
    outfile: join(out, "hook-bundle.cjs"),
    plugins: [lazyBuiltins, lazyPackages, parts, hostParts],
    metafile: true,
  });
  const inputs = Object.keys(main.metafile.inputs);
  for (const part of PARTS) {
    const leaked = part.excluded === undefined ? undefined : inputs.find((input) => part.excluded.test(input));
    if (leaked !== undefined) throw new Error(`hook bundle: ${leaked} belongs in the part "${part.name}" only`);
    await build({
      ...common,
      ...importMetaUrl,
      external: [
        ...EXTERNAL.filter((name) => !part.bundled?.includes(name)),
        ...(part.bundled === undefined ? [] : ["bindings"]),
      ],
      stdin: {
        contents: part.entries.map((entry) => `export * from ${JSON.stringify(join(dist, entry))};`).join("\n"),
        resolveDir: root,
        loader: "js",
      },
      outfile: join(out, `hook-part-${part.name}.cjs`),
      plugins: [lazyBuiltins, replaceModules(dist, part.replace ?? {})],
      // a bundled package's require.resolve is meant: it finds the installed package (its addon), not the code
      logOverride: { ...common.logOverride, "require-resolve-not-external": "silent" },
    });
    asciiOnly(join(out, `hook-part-${part.name}.cjs`));
  }
  await build({
    ...common,
    stdin: {
      contents: `require(${JSON.stringify(join(dist, "hook-runtime", "hook-entry.js"))}).runHookEntry({ bundlePath: require("node:path").join(__dirname, "hook-bundle.cjs"), require });`,
      resolveDir: root,
      loader: "js",
    },
    outfile: join(out, "toolgate-hook.cjs"),
  });
  asciiOnly(join(out, "hook-bundle.cjs"));
  // the resident hook's client (docs/resident-hook.md): a bash script beside the launcher it falls back to
  copyFileSync(join(root, "src", "hook-runtime", "toolgate-hook.sh"), join(out, "toolgate-hook.sh"));
  chmodSync(join(out, "toolgate-hook.sh"), 0o755);
  const size = (name) => `${Math.round(statSync(join(out, name)).size / 1024)} kB`;
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  const partSizes = PARTS.map((part) => `${part.name} ${size(`hook-part-${part.name}.cjs`)}`).join(", ");
  console.log(
    `bundle: dist/hook/hook-bundle.cjs (${size("hook-bundle.cjs")}) + dist/hook/toolgate-hook.cjs (${size("toolgate-hook.cjs")}) + dist/hook/toolgate-hook.sh, parts: ${partSizes}; toolgate ${version}`,
  );
}

/**
 * A plugin that imports each of `names` through the module `contentsFor(name)` builds instead; inside it, the name
 * itself is left to `require` at run time (external), so the stand-in can load the real module when first used.
 */
function standIns(namespace, names, contentsFor) {
  const filter = new RegExp(`^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`);
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.namespace === namespace ? { path: args.path, external: true } : { path: args.path, namespace },
      );
      build.onLoad({ filter: /.*/, namespace }, (args) => ({ contents: contentsFor(args.path), loader: "js" }));
    },
  };
}

/** Builds a module of `dist` (by its path there) from the text given instead of its file. */
function replaceModules(dist, replacements) {
  const byPath = new Map(Object.entries(replacements).map(([path, contents]) => [join(dist, path), contents]));
  return {
    name: "replace-modules",
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const contents = byPath.get(args.path);
        return contents === undefined ? undefined : { contents, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * An ES module exporting every function of a built-in, each loading the real module on its first call (and working
 * with `new`). A name the code imports that is not a function fails the build ("No matching export"), never a run.
 */
function lazyModule(name) {
  const real = createRequire(import.meta.url)(name);
  const functions = Object.keys(real).filter(
    (key) => typeof real[key] === "function" && /^[A-Za-z_$][\w$]*$/.test(key),
  );
  const lines = [`let loaded; const load = () => (loaded ??= require(${JSON.stringify(name)}));`];
  for (const key of functions) {
    lines.push(
      `export function ${key}(...args) { const real = load().${key}; return new.target ? Reflect.construct(real, args, new.target) : real.apply(this, args); }`,
    );
  }
  return lines.join("\n");
}

/**
 * Escapes what esbuild leaves non-ASCII (inside regular expression literals) as \uXXXX, which means the same
 * character in every place it can occur in this bundle; the loader then reads the file as one-byte text, which V8
 * decodes, scans and stores at half the cost of UTF-16. Fails the build when a String.raw template holds one
 * (there an escape would change the value).
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  if (!/[\u0080-\uffff]/.test(text)) return;
  for (const [raw] of text.matchAll(/String\.raw`(?:[^`\\]|\\.)*`/g)) {
    if (/[\u0080-\uffff]/.test(raw))
      throw new Error(`${file}: non-ASCII text in ${raw.slice(0, 60)}: cannot escape it`);
  }
  const escaped = text.replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  writeFileSync(file, escaped);
}
