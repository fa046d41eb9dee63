// CommonJS copies of the package's entry points, for `require("toolgate")` (the "require" condition of each export
// in package.json). The package is ESM; Node >= 20.19 can require() ESM, but not when a loader with async hooks is
// registered and the requiring file was itself loaded through it: tsx does that for .cts files and for TypeScript
// compiled to CommonJS, and `require("toolgate")` failed with ERR_VM_MODULE_LINK_FAILURE (issue 25, item 16). A
// CommonJS entry needs no ESM loader at all. Each entry is dist/cjs/<entry>.cjs: its compiled modules bundled by
// esbuild from dist/, every package external (required from node_modules: each has a CommonJS build), a dynamic
// import() of the package's own modules kept lazy (esbuild wraps it). `import.meta.url` is the URL of the module's
// file in dist/, so paths built from it (package.json, the hook launcher, dashboard assets) are the ESM build's.
import { readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

export default async function ({ root, dist }) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const out = join(dist, "cjs");
  rmSync(out, { recursive: true, force: true });
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== "object" || target.require === undefined) continue;
    const source = resolve(root, target.default);
    const output = resolve(root, target.require);
    if (dirname(output) !== out) throw new Error(`${subpath}: its "require" entry must be in dist/cjs/`);
    entries.push({ subpath, source, output });
  }
  const fileUrlOf = {
    name: "import-meta-url",
    setup(builder) {
      builder.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(dist)) return undefined;
        const contents = readFileSync(args.path, "utf8");
        if (!contents.includes("import.meta")) return { contents, loader: "js" };
        // a function of the banner: a module may shadow `require` (createRequire(import.meta.url))
        const url = `__toolgate_file_url(${JSON.stringify(relative(out, args.path))})`;
        return { contents: contents.replaceAll("import.meta.url", url), loader: "js" };
      });
    },
  };
  await build({
    entryPoints: Object.fromEntries(
      entries.map((entry) => [relative(out, entry.output).replace(/\.cjs$/, ""), entry.source]),
    ),
    outdir: out,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [fileUrlOf],
    banner: {
      js: 'function __toolgate_file_url(path) { return require("node:url").pathToFileURL(require("node:path").join(__dirname, path)).href; }',
    },
    logLevel: "error",
    // a module's import.meta left as {} would build paths from undefined: fail the build instead
    logOverride: { "empty-import-meta": "error", "import-is-undefined": "error" },
  });
  const bytes = entries.reduce((sum, entry) => sum + statSync(entry.output).size, 0);
  console.log(`require: ${entries.length} CommonJS entries in dist/cjs/, ${(bytes / 1024).toFixed(0)} KB`);
}
