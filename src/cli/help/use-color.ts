/**
 * Whether help text may carry ANSI styling: `FORCE_COLOR` (any value but 0/false) forces it, `NO_COLOR` (any
 * non-empty value) or `TERM=dumb` turns it off, and otherwise only a terminal gets it, never a pipe or a file.
 */
export function useColor(options: {
  stream: { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}): boolean {
  const { env } = options;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
  if (force === "0" || force === "false") return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return options.stream.isTTY === true;
}

export type Style = (text: string) => string;

/** Bold for headings when colour is on; the identity otherwise. */
export function headingStyle(color: boolean): Style {
  return color ? (text) => `\u001b[1m${text}\u001b[22m` : (text) => text;
}
