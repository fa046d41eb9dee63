/** What the opencode plugin reads from its environment, with the problems it found (logged as warnings). */
export interface OpencodeSettings {
  /** consecutive denials or OS-permission failures before a nudge; undefined keeps the core's default (2) */
  nudgeThreshold?: number;
  /** whether a person can answer asks: false under `opencode run` */
  interactive: boolean;
  /** false when `TOOLGATE_DB=off`: records stay in memory (the store otherwise follows TOOLGATE_DB / the config) */
  records: boolean;
  warnings: { code: string; message: string }[];
}

/**
 * Reads `TOOLGATE_NUDGE_THRESHOLD` (wins) and the seed plugin's `OPENCODE_DENY_THRESHOLD`; a value that is not a
 * positive integer is ignored with a warning (the seed plugin's `parseInt` turned "abc" into NaN and nudged on the
 * first failure). `TOOLGATE_INTERACTIVE=1|0` overrides the headless detection (`opencode run` is headless).
 * `TOOLGATE_DB=off` keeps records in memory only.
 */
export function readOpencodeSettings(
  environment: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): OpencodeSettings {
  const warnings: OpencodeSettings["warnings"] = [];
  let nudgeThreshold: number | undefined;
  for (const name of ["OPENCODE_DENY_THRESHOLD", "TOOLGATE_NUDGE_THRESHOLD"]) {
    const raw = environment[name];
    if (raw === undefined || raw.trim() === "") continue;
    const value = Number(raw.trim());
    if (Number.isInteger(value) && value > 0) {
      nudgeThreshold = value;
    } else {
      warnings.push({
        code: "OPENCODE_THRESHOLD_INVALID",
        message: `${name}=${JSON.stringify(raw)} is not a positive whole number; it is ignored. Set it to a number such as 2.`,
      });
    }
  }
  const override = environment.TOOLGATE_INTERACTIVE;
  const interactive =
    override === "1" || override === "true"
      ? true
      : override === "0" || override === "false"
        ? false
        : !isHeadlessRun(argv);
  return {
    interactive,
    warnings,
    records: environment.TOOLGATE_DB !== "off",
    ...(nudgeThreshold === undefined ? {} : { nudgeThreshold }),
  };
}

/** `opencode run ...` answers asks by auto-rejecting them: nobody is there to ask. */
export function isHeadlessRun(argv: readonly string[]): boolean {
  const subcommand = argv.slice(1).find((argument) => !argument.startsWith("-") && !argument.includes("/"));
  return subcommand === "run";
}
