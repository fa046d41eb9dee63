import type { ImportResult } from "../../policy/import/imported-rules.js";
import type { ExecpolicyDecision, ParsedExecpolicy } from "./execpolicy-rules.js";

const BEHAVIOR = { forbidden: "deny", prompt: "ask", allow: "allow" } as const satisfies Record<
  ExecpolicyDecision,
  string
>;
/** A pattern with alternatives expands to one rule per combination, at most this many. */
const MAX_EXPANSION = 64;

function expand(pattern: readonly (string | string[])[]): string[][] | undefined {
  let prefixes: string[][] = [[]];
  for (const part of pattern) {
    const options = typeof part === "string" ? [part] : part;
    prefixes = prefixes.flatMap((prefix) => options.map((option) => [...prefix, option]));
    if (prefixes.length > MAX_EXPANSION) return undefined;
  }
  return prefixes;
}

/** A word as it can stand in a `Bash(...)` rule: words with spaces, globs or parentheses cannot. */
function plainWord(word: string): boolean {
  return word !== "" && !/[\s*?()[\]\\"'`$]/.test(word);
}

/**
 * Converts Codex execpolicy rules into toolgate rules: `prefix_rule(pattern = ["git", "push"], decision =
 * "forbidden")` becomes `Bash(git push *)` with behavior deny (`prompt` -> ask, `allow` -> allow). Alternatives
 * expand to one rule each. Forms toolgate could not read, and words a `Bash(...)` rule cannot hold, are reported.
 */
export function importCodexRules(parsed: ParsedExecpolicy): ImportResult {
  const result: ImportResult = { rules: [], unsupported: [], notes: [] };
  for (const problem of parsed.problems) result.unsupported.push({ entry: problem.source, reason: problem.message });
  for (const rule of parsed.rules) {
    const prefixes = expand(rule.pattern);
    if (prefixes === undefined) {
      result.unsupported.push({
        entry: rule.source,
        reason: `more than ${MAX_EXPANSION} combinations of alternatives`,
      });
      continue;
    }
    const words = prefixes.flat();
    if (!words.every(plainWord)) {
      result.unsupported.push({
        entry: rule.source,
        reason: "a pattern word holds a space, quote, glob or parenthesis, which a Bash(...) rule cannot express",
      });
      continue;
    }
    for (const prefix of prefixes) {
      const rule_ = `Bash(${prefix.join(" ")} *)`;
      if (!result.rules.some((existing) => existing.rule === rule_ && existing.behavior === BEHAVIOR[rule.decision])) {
        result.rules.push({ rule: rule_, behavior: BEHAVIOR[rule.decision] });
      }
    }
  }
  if (parsed.rules.some((rule) => rule.decision === "prompt")) {
    result.notes.push(
      "`prompt` rules became `ask`: in `codex exec` (approval never) toolgate counts them as headless denials, as Codex refuses them.",
    );
  }
  return result;
}
