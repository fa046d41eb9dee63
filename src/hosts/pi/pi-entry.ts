/**
 * `toolgate/pi`: the pi extension. pi loads a module's default export from `~/.pi/agent/extensions/` (and, in a
 * trusted project, `.pi/extensions/`), or from `pi -e <file>`; `toolgate install pi` writes a one-line extension
 * file there that re-exports this one. The default export is the extension with toolgate's config, wired through
 * the composition root; `createToolgateExtension(options)` builds one with custom options.
 */
import { homedir } from "node:os";
import { openToolgate } from "../../root/open-toolgate.js";
import { noteRunSession } from "../../root/run-sessions.js";
import { interactiveOverride } from "../common/host-environment.js";
import {
  createPiExtension,
  type PiExtensionOptions,
  type PiGuard,
  type PiGuardRequest,
} from "./create-pi-extension.js";
import type { PiExtension } from "./pi-extension-api.js";

export type { PiExtensionApi } from "./pi-extension-api.js";

/**
 * Opens the extension's guard through the one composition root: the config's policy (pi has none of its own, so it
 * is the only policy), in-process state mirrored to the store so `toolgate run` reads the session, and the abort
 * noted for `toolgate run` (pi ends the agent run itself: the refusal carries `terminate`).
 */
function opener(environment: Readonly<Record<string, string | undefined>>) {
  return async (request: PiGuardRequest): Promise<PiGuard> => {
    const toolgate = await openToolgate({
      host: "pi",
      cwd: request.cwd,
      env: environment,
      state: "memory",
      mirrorState: true,
      claudeSettings: false,
      onError: request.onError,
    });
    return {
      guard: toolgate.guard,
      close: toolgate.close,
      noteSession: (sessionId) => noteRunSession(environment, sessionId),
    };
  };
}

/** The extension with custom options (an `onStop` of your own, an explicit `interactive`). */
export function createToolgateExtension(
  options: Omit<PiExtensionOptions, "open"> & { environment?: Readonly<Record<string, string | undefined>> } = {},
): PiExtension {
  const { environment = process.env, ...rest } = options;
  const interactive = rest.interactive ?? interactiveOverride(environment);
  return createPiExtension({
    // pi reads a tool's `~` with `os.homedir()` of its own process, this one
    paths: { platform: process.platform, homeDir: homedir() },
    ...rest,
    ...(interactive === undefined ? {} : { interactive }),
    open: opener(environment),
  });
}

/** The extension with its defaults: the config files and environment of the process pi runs in. */
const toolgateExtension: PiExtension = (pi) => createToolgateExtension()(pi);
export default toolgateExtension;
