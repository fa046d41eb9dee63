import { ToolgateError } from "../core/errors.js";

/** A rule string split into its tool part and optional specifier: `Bash(npm run test *)`. */
export interface ParsedRule {
  /** the tool name or tool-name glob, as written */
  tool: string;
  /** the text between the parentheses with `\(` and `\)` unescaped; undefined for a bare `Tool` */
  specifier: string | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_*?.-]+$/;

/**
 * Parses `Tool` or `Tool(specifier)`. Throws a `RULE_SYNTAX` ToolgateError that says how to write the rule.
 */
export function parseRule(rule: string): ParsedRule {
  const text = rule.trim();
  const open = text.indexOf("(");
  if (open < 0) {
    if (!TOOL_NAME.test(text)) throw syntaxError(rule, "a tool name may contain letters, digits, _ - . and * only");
    return { tool: text, specifier: undefined };
  }
  const tool = text.slice(0, open).trim();
  if (!text.endsWith(")")) throw syntaxError(rule, "the specifier must end with `)`");
  if (tool === "" || !TOOL_NAME.test(tool)) throw syntaxError(rule, "the rule must start with a tool name");
  const specifier = text
    .slice(open + 1, -1)
    .replace(/\\([()])/g, "$1")
    .trim();
  return { tool, specifier };
}

/** Formats a tool and specifier back into rule syntax (parsing splits at the first `(` and the last `)`). */
export function formatRule(tool: string, specifier?: string): string {
  return specifier === undefined ? tool : `${tool}(${specifier})`;
}

function syntaxError(rule: string, problem: string): ToolgateError {
  return new ToolgateError({
    code: "RULE_SYNTAX",
    message: `Cannot read the permission rule ${JSON.stringify(rule)}: ${problem}. Write it as \`Tool\` or \`Tool(specifier)\`, for example \`Bash(npm run test *)\` or \`Read(./.env)\`.`,
    data: { rule },
  });
}
