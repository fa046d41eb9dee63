import {
  applyEdits,
  type FormattingOptions,
  findNodeAtLocation,
  type JSONPath,
  modify,
  type Node,
  type ParseError,
  parse,
  parseTree,
} from "jsonc-parser";

/**
 * Edits a user's JSON or JSONC settings file in place of rewriting it: only the values that change are touched,
 * so indentation, key order, comments, line endings and the trailing newline of everything else stay as the user
 * wrote them (jsonc-parser's `modify`/`applyEdits`, the library VS Code uses for its settings files).
 */

/** Parses JSON with comments and trailing commas; throws with the first error's offset. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    const line = text.slice(0, first.offset).split("\n").length;
    throw new Error(`syntax error at line ${line}`);
  }
  return value;
}

/** The indentation and line ending the file already uses (2 spaces and \n when it has none). */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

type ArrayStep =
  | { op: "keep"; from: number }
  | { op: "remove"; from: number }
  | { op: "insert"; at: number; value: unknown }
  | { op: "change"; from: number; value: unknown };

/** Aligns two arrays by their longest common run of equal elements; a removed object followed by an inserted one is a change. */
function alignArrays(before: unknown[], after: unknown[]): ArrayStep[] {
  const table = Array.from({ length: before.length + 1 }, () => new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      const row = table[i] as number[];
      row[j] = same(before[i], after[j])
        ? (table[i + 1]?.[j + 1] ?? 0) + 1
        : Math.max(table[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const steps: ArrayStep[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && same(before[i], after[j])) {
      steps.push({ op: "keep", from: i });
      i += 1;
      j += 1;
    } else if (i < before.length && (j >= after.length || (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))) {
      steps.push({ op: "remove", from: i });
      i += 1;
    } else {
      steps.push({ op: "insert", at: i, value: after[j] });
      j += 1;
    }
  }
  const merged: ArrayStep[] = [];
  for (const step of steps) {
    const previous = merged.at(-1);
    if (step.op === "insert" && previous?.op === "remove" && isObject(before[previous.from]) && isObject(step.value)) {
      merged[merged.length - 1] = { op: "change", from: previous.from, value: step.value };
    } else merged.push(step);
  }
  return merged;
}

/** The whitespace that starts the line `offset` is on, when only whitespace precedes `offset` on it. */
function lineIndent(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** `value` as JSON in the file's style, its continuation lines indented under `indent`. */
function printValue(value: unknown, indent: string, formatting: FormattingOptions): string {
  const unit = formatting.insertSpaces ? " ".repeat(formatting.tabSize ?? 2) : "\t";
  return JSON.stringify(value, null, unit).split("\n").join(`${formatting.eol}${indent}`);
}

/**
 * Inserts a property (`key` set) or an element (`key` undefined) at `index` of the container at `path`, in the
 * style of its siblings, without touching them: after the previous sibling (`,<eol><indent>value`) or before the
 * next one. Returns undefined when the siblings do not each start a line (then jsonc-parser's own formatting,
 * limited to that line, is used).
 */
function insertBySiblings(
  text: string,
  options: { path: JSONPath; index: number; key?: string; value: unknown; formatting: FormattingOptions },
): string | undefined {
  const container = findNodeAtLocation(parseTree(text) as Node, options.path);
  const children = container?.children ?? [];
  if (children.length === 0) return undefined;
  const sibling = children[Math.min(options.index, children.length - 1)] as Node;
  const indent = lineIndent(text, sibling.offset);
  if (indent === undefined) return undefined;
  const printed =
    (options.key === undefined ? "" : `${JSON.stringify(options.key)}: `) +
    printValue(options.value, indent, options.formatting);
  if (options.index >= children.length) {
    const end = sibling.offset + sibling.length;
    // a line comment after the last sibling stays on its line: the new entry goes on the next line
    const rest = /^[ \t]*(\/\/[^\r\n]*)?(?=\r?\n)/.exec(text.slice(end));
    const at = rest === null ? end : end + rest[0].length;
    const between = text.slice(end, at);
    return `${text.slice(0, end)},${between}${options.formatting.eol}${indent}${printed}${text.slice(at)}`;
  }
  return `${text.slice(0, sibling.offset)}${printed},${options.formatting.eol}${indent}${text.slice(sibling.offset)}`;
}

/**
 * Removes the property or element at `path`. One that starts its own line goes with its whole lines (its comma,
 * and a comment after it on its last line); when it was the last one, the comma before it goes too. Otherwise the
 * separator before it (or after it, for the first one) goes with it.
 */
function removeBySiblings(text: string, path: JSONPath): string | undefined {
  const target = findNodeAtLocation(parseTree(text) as Node, path);
  const node = target?.parent?.type === "property" ? target.parent : target;
  const siblings = node?.parent?.children ?? [];
  const index = siblings.indexOf(node as Node);
  if (node === undefined || index < 0 || siblings.length < 2) return undefined;
  const previous = siblings[index - 1];
  if (lineIndent(text, node.offset) !== undefined) {
    const lineStart = text.lastIndexOf("\n", node.offset - 1) + 1;
    let end = node.offset + node.length;
    if (text[end] === ",") end += 1;
    const rest = /^[ \t]*(\/\/[^\n]*)?\r?\n/.exec(text.slice(end));
    if (rest !== null) end += rest[0].length;
    let kept = text.slice(0, lineStart) + text.slice(end);
    if (index === siblings.length - 1 && previous !== undefined) {
      const comma = text.indexOf(",", previous.offset + previous.length);
      if (comma >= 0 && comma < lineStart) kept = kept.slice(0, comma) + kept.slice(comma + 1);
    }
    return kept;
  }
  if (previous !== undefined) {
    return text.slice(0, previous.offset + previous.length) + text.slice(node.offset + node.length);
  }
  return text.slice(0, node.offset) + text.slice((siblings[1] as Node).offset);
}

/**
 * Returns `text` changed so that it parses to `after` (it parses to `before` now), touching only what differs:
 * removed keys and elements are deleted, new keys appended to their object, new elements inserted where they go,
 * changed containers edited inside. An empty `text` becomes `after` printed with 2-space indentation.
 */
export function editJsonText(options: { text: string; before: unknown; after: unknown }): string {
  if (options.text.trim() === "") return `${JSON.stringify(options.after, null, 2)}\n`;
  const formatting = formattingOf(options.text);
  let text = options.text;
  const viaJsonc = (path: JSONPath, value: unknown, isArrayInsertion = false) => {
    text = applyEdits(text, modify(text, path, value, { formattingOptions: formatting, isArrayInsertion }));
  };
  const remove = (path: JSONPath) => {
    const next = removeBySiblings(text, path);
    if (next === undefined) viaJsonc(path, undefined);
    else text = next;
  };
  const insert = (path: JSONPath, index: number, value: unknown, key?: string) => {
    const next = insertBySiblings(text, { path, index, value, formatting, ...(key === undefined ? {} : { key }) });
    if (next !== undefined) text = next;
    else if (key === undefined) viaJsonc([...path, index], value, true);
    else viaJsonc([...path, key], value);
  };
  const edit = (path: JSONPath, before: unknown, after: unknown): void => {
    if (same(before, after)) return;
    if (isObject(before) && isObject(after)) {
      for (const key of Object.keys(before)) if (!(key in after)) remove([...path, key]);
      for (const [key, value] of Object.entries(after)) {
        if (key in before) edit([...path, key], before[key], value);
        else insert(path, Number.POSITIVE_INFINITY, value, key);
      }
    } else if (Array.isArray(before) && Array.isArray(after)) {
      // from the end, so the indices of the elements still to edit do not move
      for (const step of alignArrays(before, after).reverse()) {
        if (step.op === "remove") remove([...path, step.from]);
        else if (step.op === "insert") insert(path, step.at, step.value);
        else if (step.op === "change") edit([...path, step.from], before[step.from], step.value);
      }
    } else viaJsonc(path, after);
  };
  edit([], options.before, options.after);
  return text;
}
