import { timeOf } from "./read-lines.js";

const DIGIT_ZERO = 48;

/** the number the `count` digits at `from` spell, or -1 when one of them is not a digit */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index++) {
    const digit = text.charCodeAt(index) - DIGIT_ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** whether the separators of `YYYY-MM-DDTHH:MM:SS.sssZ` are where they belong */
function isoShape(text: string): boolean {
  return (
    text.length === 24 &&
    text.charCodeAt(4) === 45 /* - */ &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 /* T */ &&
    text.charCodeAt(13) === 58 /* : */ &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(19) === 46 /* . */ &&
    text.charCodeAt(23) === 90 /* Z */
  );
}

/**
 * `timeOf`, with the UTC time a host writes (`2026-11-27T12:51:54.608Z`, JavaScript's `toISOString`) read digit by
 * digit instead of by `Date.parse` (the same number: its fields as `Date.UTC` counts them; a year before 1970, a day
 * past the 28th, a leap second or any other text goes to `timeOf`).
 */
export function timeOfIso(value: unknown, fallback: number): number {
  if (typeof value !== "string" || !isoShape(value)) return timeOf(value, fallback);
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  const millisecond = digitsAt(value, 20, 3);
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 28 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    millisecond < 0
  ) {
    return timeOf(value, fallback);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
}
