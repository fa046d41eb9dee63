import { hookCacheDirectory, type LoadedHookBundle, loadHookBundle } from "./load-hook-bundle.js";
import { writeAll } from "./write-hook-answer.js";

/**
 * The launcher a host's settings run (`dist/hook/toolgate-hook.cjs`, a few kB): loads the bundled hook through the
 * code cache, runs it for this process's arguments, saves a fresh code cache when there was none (after the answer
 * and the drain, so it never delays a decision), and exits with the hook's code: exiting also ends any delivery
 * still hanging after the drain budget. A failure before the hook could answer exits 2, which every command-hook
 * host treats as blocking: a broken install never lets a call through.
 */
export function runHookEntry(options: { bundlePath: string }): void {
  const exit = (code: number, loaded?: LoadedHookBundle) => {
    loaded?.saveCache();
    process.exit(code);
  };
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    writeAll(
      2,
      `toolgate hook: could not run (${message}); the call is blocked. Reinstall toolgate, then run \`toolgate doctor\`.\n`,
    );
    exit(2);
  };
  let loaded: LoadedHookBundle;
  try {
    loaded = loadHookBundle({ bundlePath: options.bundlePath, cacheDirectory: hookCacheDirectory(process.env) });
  } catch (error) {
    failed(error);
    return;
  }
  const hookMain = loaded.exports["hookMain"] as (argv: readonly string[]) => Promise<number>;
  hookMain(process.argv.slice(2)).then((code) => exit(code, loaded), failed);
}
