#!/usr/bin/env node
// Copies the type declarations toolgate's adapters compile against from the real packages in test/e2e/node_modules
// into types/, so the root install (and `npm run build`) needs neither the Claude Agent SDK's ~360 MB platform
// binary nor @opencode-ai/plugin's runtime (effect, which wants Node >= 22). tsconfig.json maps the package names
// to these copies; test/e2e/vendored-types.test.ts fails when they differ from the installed packages.
// Run after changing a version in test/e2e/package.json:  npm run e2e:deps && node scripts/vendor-types.mjs
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));

/**
 * Each vendored package: the declaration files copied, relative to the package folder. They land in
 * types/<name>/ without a leading `dist/` (.gitignore ignores every dist/ folder); relative imports stay valid
 * because all of a package's files are taken from one folder.
 */
export const vendoredTypes = {
  "@anthropic-ai/claude-agent-sdk": ["sdk.d.ts", "sdk-tools.d.ts", "agentSdkTypes.d.ts", "LICENSE.md"],
  "@opencode-ai/plugin": ["dist/index.d.ts", "dist/shell.d.ts", "dist/tool.d.ts"],
};

/** Where a package file is kept under types/<name>/. */
export function vendoredPath(file) {
  return file.replace(/^dist\//, "");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, files] of Object.entries(vendoredTypes)) {
    const from = join(root, "test", "e2e", "node_modules", name);
    const { version } = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
    for (const file of files) {
      const target = join(root, "types", name, vendoredPath(file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(from, file), target);
    }
    console.log(`vendor-types: ${name}@${version}: ${files.length} files`);
  }
}
