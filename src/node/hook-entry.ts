import { hookCacheDirectory, type LoadedHookBundle, loadHookBundle } from "./load-hook-bundle.js";
import { writeAll } from "./write-hook-answer.js";

/**
 * The launcher a host's settings run (`dist/hook/toolgate-hook.cjs`, a few kB): loads the bundled hook through the
 * code cache, runs it for this process's arguments, saves a fresh code cache when there was none (after the answer
 * and the drain, so it never delays a decision), and exits with the hook's code: exiting also ends any delivery
 * still hanging after the drain budget. A failure before the hook could answer (a broken bundle, an exception
 * nothing caught) exits 2, which every command-hook host treats as blocking: a broken install never lets a call
 * through. One after the answer exits with the answer's own code, so it cannot change the outcome either.
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
  let answered: number | undefined;
  const crashed = (error: unknown) => {
    if (answered === undefined) return failed(error);
    writeAll(2, `toolgate hook: ${error instanceof Error ? error.message : String(error)} (after the answer)\n`);
    exit(answered);
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  try {
    const loaded = loadHookBundle({ bundlePath: options.bundlePath, cacheDirectory: hookCacheDirectory(process.env) });
    const hookMain = loaded.exports["hookMain"] as (
      argv: readonly string[],
      onAnswered: (exitCode: number) => void,
    ) => Promise<number>;
    hookMain(process.argv.slice(2), (exitCode) => {
      answered = exitCode;
    }).then((code) => exit(code, loaded), crashed);
  } catch (error) {
    failed(error);
  }
}
