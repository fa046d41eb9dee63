/**
 * Six spellings of the same deletion, one per step of a stubborn model: a host's own loop detector (identical calls,
 * as Qwen Code and Gemini CLI have) does not end the run early, so toolgate's threshold is what stops it.
 */
export const STUBBORN_RM = [
  "rm -rf victim",
  "rm -rf ./victim",
  "rm -r victim",
  "rm -rf victim/",
  "rm -fr victim",
  "rm -r -f victim",
];
