let lastText: string | undefined;
let lastLower = "";

/**
 * `text.toLowerCase()`, remembered for the last text: several detectors test one text case-insensitively in a row,
 * and lower-casing a long text once is cheaper than compiling a case-insensitive regular expression for each.
 */
export function lowerCase(text: string): string {
  if (text !== lastText) {
    lastLower = text.toLowerCase();
    lastText = text;
  }
  return lastLower;
}
