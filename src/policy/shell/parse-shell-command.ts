/**
 * A small, allocation-light shell parser: enough of POSIX sh / bash to find every simple command that a command
 * line would run. Quotes, escapes, comments, `$( )`, backticks, `<( )`, subshells, here-documents, redirections and
 * the separators `&& || ; | |& &` and newlines are understood. Anything it cannot read (an unclosed quote or
 * substitution) makes `complete` false, and callers must then fail closed (no allow, deny still checked).
 * See docs/rules.md ("Why a hand-written shell parser") for why no npm parser is used.
 */

export interface ShellWord {
  /** the word after quote removal (`"a b"` -> `a b`) */
  value: string;
  /** the word as written */
  raw: string;
}

export interface ShellRedirect {
  operator: string;
  target: string;
}

export interface ShellCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
}

export interface ShellParse {
  commands: ShellCommand[];
  /** false when the text could not be read completely (unclosed quote, substitution or subshell) */
  complete: boolean;
}

/** characters that end a word or need a closer look inside one */
const SPECIAL_IN_WORD = new Set([" ", "\t", "\n", "\r", ";", "&", "|", "(", ")", "<", ">", "\\", "'", '"', "$", "`"]);
const SEPARATORS = ["&&", "||", ";;", "|&", ";", "|", "&"];
const REDIRECTS = ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">&", "<&", ">|", "<>", ">", "<"];

interface Cursor {
  text: string;
  at: number;
  complete: boolean;
  commands: ShellCommand[];
  heredocs: { delimiter: string; stripTabs: boolean }[];
}

export function parseShellCommand(text: string): ShellParse {
  return parsePlainShellCommand(text) ?? parseFullShellCommand(text);
}

/** The full parser, for every command line (the reference the plain fast path is tested against). */
export function parseFullShellCommand(text: string): ShellParse {
  const cursor: Cursor = { text, at: 0, complete: true, commands: [], heredocs: [] };
  parseList(cursor, undefined);
  return { commands: cursor.commands, complete: cursor.complete };
}

/**
 * Character codes of a plain word: letters, digits and `_ - . / : = , + @ %`. None of them is special to the full
 * parser anywhere in a word (no quote, escape, expansion, comment, glob, brace, redirection or operator).
 */
const PLAIN_WORD_CODE = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:=,+@%") {
  PLAIN_WORD_CODE[char.charCodeAt(0)] = 1;
}
const SPACE = 32;
const TAB = 9;
const AMPERSAND = 38;
const BAR = 124;
const SEMICOLON = 59;

/**
 * The fast path for the commands agents send most: plain words (see `PLAIN_WORD_CODE`) separated by spaces or
 * tabs and the operators `&&`, `||`, `|` and `;`. One pass, no quote removal needed (each word's value is its
 * text). Undefined for anything else (any other character, `&`, `|&`, `;;`...): the full parser reads it. Decides
 * exactly as the full parser does (property-tested against it).
 */
export function parsePlainShellCommand(text: string): ShellParse | undefined {
  const simple = parsePlainWords(text);
  if (simple === undefined) return undefined;
  const commands: ShellCommand[] = simple.map((words) => ({
    words: words.map((word) => ({ value: word, raw: word })),
    redirects: [],
  }));
  return { commands, complete: true };
}

/**
 * `parsePlainShellCommand` as word texts only: each simple command's words (each word its own value), without a
 * word object per word. Undefined for a line that is not plain. When `spans` is given, each command's place in
 * `text` is written to it: the index of its first word's first character and the index after its last word, command
 * `k`'s at `spans[2k]` and `spans[2k + 1]`. Entries after the last command's are left as they were, so a caller may
 * pass the same array every time (no array grown per line).
 */
export function parsePlainWords(text: string, spans?: number[]): string[][] | undefined {
  if (isSingleSpacedLine(text)) return splitSingleSpaced(text, spans);
  const commands: string[][] = [];
  let words: string[] = [];
  const length = text.length;
  let index = 0;
  /** where the next span goes in `spans` */
  let spanAt = 0;
  /** where the command being read begins, and where its last word read so far ends */
  let first = 0;
  let last = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === SPACE || code === TAB) {
      index++;
      continue;
    }
    if (code < 128 && PLAIN_WORD_CODE[code] === 1) {
      const start = index;
      index++;
      while (index < length) {
        const next = text.charCodeAt(index);
        if (next >= 128 || PLAIN_WORD_CODE[next] !== 1) break;
        index++;
      }
      if (words.length === 0) first = start;
      words.push(text.slice(start, index));
      last = index;
      continue;
    }
    if (code === AMPERSAND || code === BAR) {
      const next = text.charCodeAt(index + 1);
      if (next === code) index += 2;
      else if (code === BAR && next !== AMPERSAND) index++;
      else return undefined;
    } else if (code === SEMICOLON && text.charCodeAt(index + 1) !== SEMICOLON) {
      index++;
    } else {
      return undefined;
    }
    if (words.length > 0) {
      commands.push(words);
      if (spans !== undefined) {
        spans[spanAt++] = first;
        spans[spanAt++] = last;
      }
    }
    words = [];
  }
  if (words.length > 0) {
    commands.push(words);
    if (spans !== undefined) {
      spans[spanAt] = first;
      spans[spanAt + 1] = last;
    }
  }
  return commands;
}

/**
 * The plain lines agents send most, in their simplest form: plain words and the operators `&&`, `||`, `|` and `;`
 * as tokens of their own, one space between tokens, none before the first or after the last. The pattern's compiled
 * scan and a native `split` cost far fewer instructions per character than the `charCodeAt` loop of
 * `parsePlainWords` (callgrind, Node 20), which still reads every other line.
 */
export const SINGLE_SPACED_LINE = /^[A-Za-z0-9_\-./:=,+@%]+(?: (?:[A-Za-z0-9_\-./:=,+@%]+|&&|\|\||\||;))*$/;

/** the last line `isSingleSpacedLine` found single-spaced (a shell call's line is asked about twice, see there) */
let lastSingleSpaced: string | undefined;

/**
 * Whether `SINGLE_SPACED_LINE` matches `text`. Such a line holds only printable ASCII, so it also holds no control
 * character: the command reader asks this first (`hasUnreadableCharacter`), and the tokeniser's question about the
 * same line that follows is answered from the last line found (one pattern test per plain line, not two).
 */
export function isSingleSpacedLine(text: string): boolean {
  if (text === lastSingleSpaced) return true;
  if (!SINGLE_SPACED_LINE.test(text)) return false;
  lastSingleSpaced = text;
  return true;
}

/**
 * `parsePlainWords` for a line `SINGLE_SPACED_LINE` matches: its tokens are the words and operators between single
 * spaces, and an operator (no word begins with `&`, `|` or `;`) ends a command, as the loop reads it (property-tested
 * against the full parser through `parsePlainWords`). The tokens are cut at each space with `indexOf` and `slice`,
 * about half the cost of `text.split(" ")` on an agent's command (Node 20), each word pushed to its command's array.
 */
function splitSingleSpaced(text: string, spans: number[] | undefined): string[][] {
  const length = text.length;
  let words: string[] = [];
  /** where in `text` the command being read begins */
  let first = 0;
  /** where the token being read begins in `text` */
  let offset = 0;
  let commands: string[][] | undefined;
  /** where the next span goes in `spans` */
  let spanAt = 0;
  while (offset <= length) {
    let end = text.indexOf(" ", offset);
    if (end < 0) end = length;
    const code = text.charCodeAt(offset);
    if (code === AMPERSAND || code === BAR || code === SEMICOLON) {
      commands ??= [];
      if (words.length > 0) {
        commands.push(words);
        // the command's last word ends before the space in front of this operator
        if (spans !== undefined) {
          spans[spanAt++] = first;
          spans[spanAt++] = offset - 1;
        }
        words = [];
      }
      first = end + 1;
    } else {
      words.push(text.slice(offset, end));
    }
    offset = end + 1;
  }
  // the last command, if any, ends with the line
  if (commands === undefined) {
    if (spans !== undefined) {
      spans[0] = 0;
      spans[1] = length;
    }
    return [words];
  }
  if (words.length > 0) {
    commands.push(words);
    if (spans !== undefined) {
      spans[spanAt] = first;
      spans[spanAt + 1] = length;
    }
  }
  return commands;
}

/** Parses commands until `closer` (`)` for a subshell) or the end of the text. */
function parseList(cursor: Cursor, closer: string | undefined): void {
  let current: ShellCommand = { words: [], redirects: [] };
  const flush = () => {
    if (current.words.length > 0 || current.redirects.length > 0) cursor.commands.push(current);
    current = { words: [], redirects: [] };
  };
  const { text } = cursor;
  while (cursor.at < text.length) {
    const char = text[cursor.at] as string;
    if (char === " " || char === "\t" || char === "\r") {
      cursor.at++;
      continue;
    }
    if (char === "\n") {
      cursor.at++;
      flush();
      skipHeredocBodies(cursor);
      continue;
    }
    if (char === "\\" && text[cursor.at + 1] === "\n") {
      cursor.at += 2;
      continue;
    }
    if (char === "#") {
      while (cursor.at < text.length && text[cursor.at] !== "\n") cursor.at++;
      continue;
    }
    if (char === ")" && closer === ")") {
      cursor.at++;
      flush();
      return;
    }
    if (char === "(" || char === ")") {
      // a subshell `( ... )` or a stray parenthesis: both end the current command
      cursor.at++;
      flush();
      if (char === "(") parseList(cursor, ")");
      continue;
    }
    const separator =
      char === "&" || char === "|" || char === ";" ? startsWithAny(text, cursor.at, SEPARATORS) : undefined;
    if (separator !== undefined && !(separator === "&" && text[cursor.at + 1] === ">")) {
      cursor.at += separator.length;
      flush();
      continue;
    }
    const redirect = mayStartRedirect(char) ? readRedirectOperator(text, cursor.at) : undefined;
    if (redirect !== undefined) {
      cursor.at += redirect.length;
      skipBlanks(cursor);
      if (redirect.operator === "<<" || redirect.operator === "<<-") {
        const word = readWord(cursor);
        cursor.heredocs.push({ delimiter: word.value, stripTabs: redirect.operator === "<<-" });
        current.redirects.push({ operator: redirect.operator, target: word.value });
      } else if (redirect.operator.endsWith("&") && /^[0-9-]/.test(text[cursor.at] ?? "")) {
        const word = readWord(cursor);
        current.redirects.push({ operator: redirect.operator, target: `&${word.value}` });
      } else {
        current.redirects.push({ operator: redirect.operator, target: readWord(cursor).value });
      }
      continue;
    }
    current.words.push(readWord(cursor));
  }
  flush();
  if (closer !== undefined) cursor.complete = false;
}

function skipBlanks(cursor: Cursor): void {
  while (cursor.text[cursor.at] === " " || cursor.text[cursor.at] === "\t") cursor.at++;
}

function startsWithAny(text: string, at: number, options: string[]): string | undefined {
  for (const option of options) if (text.startsWith(option, at)) return option;
  return undefined;
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

function mayStartRedirect(char: string): boolean {
  return char === "<" || char === ">" || char === "&" || isDigit(char);
}

/** `>`, `2>>`, `&>`...; a leading file-descriptor number only counts when it is its own word so far. */
function readRedirectOperator(text: string, at: number): { operator: string; length: number } | undefined {
  let index = at;
  while (isDigit(text[index])) index++;
  const digits = index - at;
  if (digits > 0 && !(text[index] === ">" || text[index] === "<")) return undefined;
  if (text.startsWith("<(", index) || text.startsWith(">(", index)) return undefined;
  const operator = startsWithAny(text, index, REDIRECTS);
  if (operator === undefined) return undefined;
  return { operator, length: digits + operator.length };
}

/** Reads one word, handling quotes, escapes and substitutions (whose commands are parsed as well). */
function readWord(cursor: Cursor): ShellWord {
  const { text } = cursor;
  const start = cursor.at;
  let value = "";
  while (cursor.at < text.length) {
    const char = text[cursor.at] as string;
    if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === ";" || char === "&") break;
    if (char === "|" || char === ")" || char === "(") break;
    if ((char === "<" || char === ">") && text[cursor.at + 1] !== "(") break;
    if (char === "\\") {
      value += text[cursor.at + 1] ?? "";
      cursor.at += 2;
      continue;
    }
    if (char === "'") {
      const end = text.indexOf("'", cursor.at + 1);
      if (end < 0) {
        cursor.complete = false;
        value += text.slice(cursor.at + 1);
        cursor.at = text.length;
        break;
      }
      value += text.slice(cursor.at + 1, end);
      cursor.at = end + 1;
      continue;
    }
    if (char === '"') {
      value += readDoubleQuoted(cursor);
      continue;
    }
    if ((char === "$" || char === "<" || char === ">") && text[cursor.at + 1] === "(") {
      value += readSubstitution(cursor, cursor.at + 2);
      continue;
    }
    if (char === "`") {
      value += readBackticks(cursor);
      continue;
    }
    // a run of ordinary characters at once
    let end = cursor.at + 1;
    while (end < text.length && !SPECIAL_IN_WORD.has(text[end] as string)) end++;
    value += text.slice(cursor.at, end);
    cursor.at = end;
  }
  return { value, raw: text.slice(start, cursor.at) };
}

function readDoubleQuoted(cursor: Cursor): string {
  const { text } = cursor;
  let value = "";
  cursor.at++;
  while (cursor.at < text.length) {
    const char = text[cursor.at] as string;
    if (char === '"') {
      cursor.at++;
      return value;
    }
    if (char === "\\" && '"\\$`\n'.includes(text[cursor.at + 1] ?? "")) {
      value += text[cursor.at + 1];
      cursor.at += 2;
      continue;
    }
    if (char === "$" && text[cursor.at + 1] === "(") {
      value += readSubstitution(cursor, cursor.at + 2);
      continue;
    }
    if (char === "`") {
      value += readBackticks(cursor);
      continue;
    }
    value += char;
    cursor.at++;
  }
  cursor.complete = false;
  return value;
}

/** `$( ... )`, `<( ... )`, `>( ... )`; `$(( ... ))` is arithmetic and not parsed as commands. */
function readSubstitution(cursor: Cursor, innerStart: number): string {
  const start = cursor.at;
  const arithmetic = cursor.text[innerStart] === "(";
  cursor.at = innerStart;
  if (arithmetic) {
    let depth = 2;
    while (cursor.at < cursor.text.length && depth > 0) {
      const char = cursor.text[cursor.at];
      if (char === "(") depth++;
      else if (char === ")") depth--;
      cursor.at++;
    }
    if (depth > 0) cursor.complete = false;
    return cursor.text.slice(start, cursor.at);
  }
  parseList(cursor, ")");
  return cursor.text.slice(start, cursor.at);
}

function readBackticks(cursor: Cursor): string {
  const { text } = cursor;
  const start = cursor.at;
  let index = start + 1;
  let inner = "";
  while (index < text.length && text[index] !== "`") {
    if (text[index] === "\\" && index + 1 < text.length) {
      inner += text[index + 1];
      index += 2;
      continue;
    }
    inner += text[index];
    index++;
  }
  if (index >= text.length) cursor.complete = false;
  cursor.at = Math.min(index + 1, text.length);
  const nested = parseShellCommand(inner);
  cursor.commands.push(...nested.commands);
  if (!nested.complete) cursor.complete = false;
  return text.slice(start, cursor.at);
}

function skipHeredocBodies(cursor: Cursor): void {
  const { text } = cursor;
  while (cursor.heredocs.length > 0) {
    const heredoc = cursor.heredocs.shift() as { delimiter: string; stripTabs: boolean };
    let found = false;
    while (cursor.at < text.length) {
      const lineEnd = text.indexOf("\n", cursor.at);
      const end = lineEnd < 0 ? text.length : lineEnd;
      let line = text.slice(cursor.at, end);
      if (heredoc.stripTabs) line = line.replace(/^\t+/, "");
      cursor.at = lineEnd < 0 ? text.length : lineEnd + 1;
      if (line === heredoc.delimiter) {
        found = true;
        break;
      }
    }
    if (!found) cursor.complete = false;
  }
}
