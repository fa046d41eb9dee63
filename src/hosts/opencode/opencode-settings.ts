import { interactiveOverride } from "../common/host-environment.js";

/** What the opencode plugin reads from its environment (thresholds and the store come from the composition root). */
export interface OpencodeSettings {
  /** whether a person can answer asks: false under `opencode run` */
  interactive: boolean;
}

/** `TOOLGATE_INTERACTIVE=1|0` overrides the headless detection (`opencode run` is headless). */
export function readOpencodeSettings(
  environment: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): OpencodeSettings {
  return { interactive: interactiveOverride(environment) ?? !isHeadlessRun(argv) };
}

/** `opencode run ...` answers asks by auto-rejecting them: nobody is there to ask. */
export function isHeadlessRun(argv: readonly string[]): boolean {
  const subcommand = argv.slice(1).find((argument) => !argument.startsWith("-") && !argument.includes("/"));
  return subcommand === "run";
}
