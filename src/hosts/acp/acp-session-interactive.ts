import { interactiveOverride } from "../common/host-environment.js";

/**
 * Whether an ACP proxy session has a person to ask (grants are offered in their editor) or is headless (toolgate's
 * headless strategy applies at the threshold: abort cancels the session). First match wins:
 * 1. `--interactive` / `--headless`;
 * 2. `TOOLGATE_INTERACTIVE=1|0` in the environment;
 * 3. `TOOLGATE_RUN=1`: a `toolgate run` job, headless by definition;
 * 4. otherwise interactive: an editor that launches an ACP agent shows its permission requests to a person.
 */
export function acpSessionInteractive(options: {
  flag: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): boolean {
  if (options.flag !== undefined) return options.flag;
  return interactiveOverride(options.env) ?? options.env["TOOLGATE_RUN"] !== "1";
}
