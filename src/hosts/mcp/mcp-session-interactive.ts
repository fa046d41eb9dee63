import { interactiveOverride } from "../common/host-environment.js";

/**
 * Whether an MCP proxy session is interactive (a person can answer an elicitation: grants are offered) or headless
 * (toolgate's headless strategy applies at the threshold). First match wins:
 * 1. `--interactive` / `--headless` (or the servers file's `interactive`);
 * 2. `TOOLGATE_INTERACTIVE=1|0` in the environment;
 * 3. `TOOLGATE_RUN=1`: a `toolgate run` job, headless by definition (hosts pass their environment to MCP servers);
 * 4. the client declared the `elicitation` capability.
 */
export function mcpSessionInteractive(options: {
  flag: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
  clientCanElicit: boolean;
}): boolean {
  if (options.flag !== undefined) return options.flag;
  const override = interactiveOverride(options.env);
  if (override !== undefined) return override;
  if (options.env["TOOLGATE_RUN"] === "1") return false;
  return options.clientCanElicit;
}
