import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ToolgateError } from "../../core/errors.js";

/**
 * The page's bundled script and stylesheet (scripts/bundle/20-dashboard.mjs writes them to dist/dashboard/assets/
 * at build time). Looked up beside the compiled server, then in the repository's dist/ (tests run from src/).
 */
export function loadDashboardAssets(): { script: string; css: string } {
  const candidates = [
    new URL("../assets/", import.meta.url),
    new URL("../../../dist/dashboard/assets/", import.meta.url),
  ];
  for (const directory of candidates) {
    const script = fileURLToPath(new URL("dashboard.js", directory));
    const css = fileURLToPath(new URL("dashboard.css", directory));
    if (existsSync(script) && existsSync(css)) {
      return { script: readFileSync(script, "utf8"), css: readFileSync(css, "utf8") };
    }
  }
  throw new ToolgateError({
    code: "INPUT_INVALID",
    message:
      "The dashboard's page assets (dist/dashboard/assets/dashboard.js and .css) are missing: run `npm run build` in the toolgate checkout.",
  });
}
