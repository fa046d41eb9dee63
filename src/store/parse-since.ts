import { ToolgateError } from "../core/errors.js";

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d`, `12h`, `90m`, `2w` → milliseconds. Throws INPUT_INVALID for anything else. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+)\s*([mhdw])$/.exec(text.trim());
  if (!match) {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: `${flag} takes a duration like 30m, 12h, 7d or 2w (got "${text}").`,
    });
  }
  return Number(match[1]) * UNITS[match[2]!]!;
}

/** the furthest a JavaScript date reaches either side of 1970 (100 million days) */
const LATEST_DATE_MS = 8.64e15;

/** A `--since` value: a duration back from `now` (`7d`) or a date (`2026-11-01`, ISO-8601). Epoch ms. */
export function parseSince(text: string, now: number): number {
  if (/^\d+\s*[mhdw]$/.test(text.trim())) {
    const since = now - parseDuration(text, "--since");
    if (since < -LATEST_DATE_MS) {
      throw new ToolgateError({
        code: "INPUT_INVALID",
        message: `--since reaches back further than a date can (got "${text}"); use a duration up to 100000000d, or a date like 2026-11-01.`,
      });
    }
    return since;
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: `--since takes a duration like 7d or a date like 2026-11-01 (got "${text}").`,
    });
  }
  return parsed;
}
