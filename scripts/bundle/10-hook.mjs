// The hook entry (issue 13): dist/node/hook-main.js and everything it reaches, bundled by esbuild into ONE CommonJS
// file, dist/hook/hook-bundle.cjs, plus the small launcher a host's settings run, dist/hook/toolgate-hook.cjs, which
// loads the bundle through a V8 code cache (src/node/load-hook-bundle.ts). No ESM loader, and a dynamic import()
// stays lazy: the module it names is evaluated only when reached (esbuild wraps it), so an event pays only for the
// host and the modules it uses. Native modules and optional peers stay external (required from node_modules).
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** Never bundled: native modules, optional peers and what they pull in (loaded from node_modules when reached). */
const EXTERNAL = ["better-sqlite3", "pg", "pg-native", "@opentelemetry/api", "pino", "thread-stream", "pino-*"];

export default async function ({ root, dist }) {
  const out = join(dist, "hook");
  mkdirSync(out, { recursive: true });
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
    logLevel: "warning",
    // the bundle sits in dist/hook/, one level under dist/ like every source folder: URLs built from import.meta.url
    // ("../cli/main.js", "../../package.json") resolve as they do from dist/<folder>/
    define: { "import.meta.url": "__toolgate_import_meta_url" },
    banner: { js: 'var __toolgate_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  };
  await build({
    ...common,
    entryPoints: [join(dist, "node", "hook-main.js")],
    outfile: join(out, "hook-bundle.cjs"),
  });
  await build({
    ...common,
    stdin: {
      contents: `require(${JSON.stringify(join(dist, "node", "hook-entry.js"))}).runHookEntry({ bundlePath: require("node:path").join(__dirname, "hook-bundle.cjs") });`,
      resolveDir: root,
      loader: "js",
    },
    outfile: join(out, "toolgate-hook.cjs"),
  });
  const size = (name) => `${Math.round(statSync(join(out, name)).size / 1024)} kB`;
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  console.log(
    `bundle: dist/hook/hook-bundle.cjs (${size("hook-bundle.cjs")}) + dist/hook/toolgate-hook.cjs (${size("toolgate-hook.cjs")}), toolgate ${version}`,
  );
}
