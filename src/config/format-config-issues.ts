import type * as z from "zod";

/** One problem in a config file, in words a person can act on. */
export interface ConfigIssue {
  /** dotted key path: `permissions.allow[2]` */
  path: string;
  message: string;
  /** what to write instead, when known */
  suggestion?: string;
}

/** Turns zod issues into issues that name the key path and say what to write instead (with typo suggestions). */
export function formatConfigIssues(
  issues: readonly z.core.$ZodIssue[],
  knownKeys: (path: PropertyKey[]) => string[],
): ConfigIssue[] {
  const result: ConfigIssue[] = [];
  for (const issue of issues) {
    const base = formatPath(issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const path = base === "" ? key : `${base}.${key}`;
        const known = knownKeys(issue.path);
        const closest = closestWord(key, known);
        result.push({
          path,
          message: `unknown key \`${key}\``,
          suggestion:
            closest === undefined
              ? `remove it; the keys allowed here are ${known.map((name) => `\`${name}\``).join(", ")}`
              : `did you mean \`${closest}\`?`,
        });
      }
      continue;
    }
    if (issue.code === "invalid_value" && "values" in issue) {
      const values = (issue.values as unknown[]).map((value) => JSON.stringify(value));
      result.push({ path: base, message: issue.message, suggestion: `write one of ${values.join(", ")}` });
      continue;
    }
    result.push({ path: base, message: issue.message });
  }
  return result;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}

/** The known word closest to `word` (edit distance at most 3 and at most half its length), if any. */
export function closestWord(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= 3 && bestDistance <= Math.max(1, Math.floor(word.length / 2)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
