import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without declarations
import { vendoredPath, vendoredTypes } from "../../scripts/vendor-types.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("types/ (the declarations the root compiles against)", () => {
  for (const [name, files] of Object.entries(vendoredTypes as Record<string, string[]>)) {
    it(`matches the installed ${name} in test/e2e/node_modules`, () => {
      const installed = join(root, "test", "e2e", "node_modules", name);
      const manifest = JSON.parse(readFileSync(join(root, "test", "e2e", "package.json"), "utf8"));
      const { version } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
      expect(version).toBe(manifest.dependencies[name]);
      for (const file of files) {
        const vendored = readFileSync(join(root, "types", name, vendoredPath(file)), "utf8");
        expect(vendored, `types/${name}/${file}: run node scripts/vendor-types.mjs`).toBe(
          readFileSync(join(installed, file), "utf8"),
        );
      }
    });
  }
});
