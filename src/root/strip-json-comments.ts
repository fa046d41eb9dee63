/** Removes `//` and `/* *\/` comments and trailing commas from JSONC text (strings are left alone). */
export function stripJsonComments(text: string): string {
  let result = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      const start = index;
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
      index++;
      result += text.slice(start, index);
      continue;
    }
    if (char === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index++;
      continue;
    }
    if (char === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      index = end < 0 ? text.length : end + 2;
      continue;
    }
    result += char;
    index++;
  }
  return result.replace(/,(\s*[}\]])/g, "$1");
}
