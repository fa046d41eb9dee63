// Bundles the dashboard's page (src/dashboard/web/main.ts + uPlot + the stylesheets) into one script and one
// stylesheet under dist/dashboard/assets/, served by `toolgate dashboard` and inlined by `toolgate analyze --html`.
// uPlot is a devDependency: it ships inside these files, never from a CDN.
import { statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export default async function ({ root, dist }) {
  const outdir = join(dist, "dashboard", "assets");
  await build({
    entryPoints: { dashboard: join(root, "src", "dashboard", "web", "main.ts") },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["chrome110", "firefox110", "safari16"],
    minify: true,
    legalComments: "none",
    outdir,
    logLevel: "warning",
  });
  const size = (name) => (statSync(join(outdir, name)).size / 1024).toFixed(1);
  console.log(
    `dashboard: dist/dashboard/assets/dashboard.js ${size("dashboard.js")} KB, dashboard.css ${size("dashboard.css")} KB`,
  );
}
