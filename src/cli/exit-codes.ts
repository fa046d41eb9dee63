/**
 * Exit codes of the `toolgate` command. Documented in docs/cli.md; scripts depend on them, so never renumber.
 */
export const EXIT = {
  /** success; for `check`: the call is allowed */
  ok: 0,
  /** a generic failure toolgate could not classify */
  error: 1,
  /** bad usage or bad input (unknown flag, invalid JSON, invalid config) */
  usage: 2,
  /** `check`: the call would prompt (ask) */
  ask: 3,
  /** `check`: the call is denied */
  deny: 4,
  /** `run`: a denial blocked the job per policy (denials happened and the agent could not finish its work) */
  denied: 5,
  /** `run`: toolgate aborted the run (escalation, loop stop, tree budget) */
  aborted: 6,
  /** the store could not be opened (corrupt, wrong version, unreachable) */
  store: 7,
  /** `run`: the agent command is not executable (the shell's code for it) */
  notExecutable: 126,
  /** `run`: the agent command was not found (the shell's code for it) */
  notFound: 127,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
