/**
 * Whether a person can answer in this Qwen Code session. Qwen 0.24.4 gives hooks no marker of `-p` runs (its env
 * has `QWEN_CODE_SESSION_ID`, `QWEN_PROJECT_DIR`, no entrypoint), so: `TOOLGATE_INTERACTIVE=1|0` decides when set;
 * a run under `toolgate run` (`TOOLGATE_RUN=1`) or in CI (`CI` set) is headless; otherwise interactive.
 */
export function isInteractiveQwenSession(environment: Readonly<Record<string, string | undefined>>): boolean {
  const override = environment["TOOLGATE_INTERACTIVE"];
  if (override === "1" || override === "true") return true;
  if (override === "0" || override === "false") return false;
  if (environment["TOOLGATE_RUN"] === "1") return false;
  const ci = environment["CI"];
  if (ci !== undefined && ci !== "" && ci !== "0" && ci !== "false") return false;
  return true;
}
