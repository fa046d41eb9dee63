import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Where the real opencode binary lives. `opencode-ai` ships a placeholder `bin/opencode.exe` that its postinstall
 * replaces with a hard link to the platform package; npm 11 may skip that postinstall, so this resolves the platform
 * package (an optional dependency of `opencode-ai`) directly: `opencode-<platform>-<arch>[-baseline][-musl]/bin/opencode`.
 */
export function opencodeBinary(): string {
  // resolve from opencode-ai's own location, where npm puts its optional dependencies
  const require = createRequire(createRequire(import.meta.url).resolve("opencode-ai/package.json"));
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const executable = platform === "windows" ? "opencode.exe" : "opencode";
  const candidates = [`opencode-${platform}-${process.arch}`, `opencode-${platform}-${process.arch}-baseline`];
  if (platform === "linux") candidates.push(`opencode-linux-${process.arch}-musl`);
  for (const name of candidates) {
    try {
      const file = join(dirname(require.resolve(`${name}/package.json`)), "bin", executable);
      if (existsSync(file)) return file;
    } catch {
      // not installed for this platform; try the next candidate
    }
  }
  throw new Error(
    `No opencode platform binary found (looked for ${candidates.join(", ")}). Run \`npm ci\` with optional dependencies enabled.`,
  );
}
