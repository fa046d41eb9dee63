/**
 * What toolgate reads in a tool name, whatever host sends it (docs/rules.md, "Tool names"):
 *
 * - A name toolgate cannot read is refused, never allowed and never taken for another tool: one holding a control
 *   or format character (a NUL, a zero-width space, a direction override: Unicode Cc, Cf and the other default
 *   ignorable code points), a line or paragraph separator (Zl, Zp), a surrogate, private-use or unassigned code
 *   point, the replacement character U+FFFD (what is left of a character a decoder could not read), or whitespace
 *   at either end (in an MCP tool name, anywhere: its server and tool parts end inside it, and MCP names hold no
 *   whitespace). `delete_repo\u200b` and `delete_repo ` look like `delete_repo`, and a lenient server runs them as
 *   `delete_repo`.
 * - A name that mixes ASCII letters with characters that only look like ASCII letters or digits (Cyrillic `е` for
 *   `e`, Greek `ο` for `o`, fullwidth `ｅ`, mathematical `𝐞`) is refused the same way: a person cannot tell it from
 *   the name it imitates, and a server that folds compatibility forms runs the imitated tool.
 * - Rules match MCP tool names through `toolMatchKey` for deny and ask (case and look-alikes folded: a
 *   case-insensitive server runs `DELETE_REPO` as `delete_repo`), and exactly for allow (an allow never widens to
 *   another spelling).
 */

/** The replacement character: what stands for a character toolgate cannot read, in records and messages. */
export const UNREADABLE_MARK = "\uFFFD";

// Made on first use, not when the module loads: V8 parses a Unicode property class when it creates the expression,
// and these cost a hook process about 9 M instructions (ICU builds the sets), while almost every name is plain ASCII
// and never reaches them (`isPlainAscii`).
const UNREADABLE_SOURCE = "[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Co}\\p{Cn}\\p{Default_Ignorable_Code_Point}\\uFFFD]";
let unreadable: { one: RegExp; all: RegExp; edgeWhitespace: RegExp } | undefined;
function unreadablePatterns(): { one: RegExp; all: RegExp; edgeWhitespace: RegExp } {
  unreadable ??= {
    one: new RegExp(UNREADABLE_SOURCE, "u"),
    all: new RegExp(UNREADABLE_SOURCE, "gu"),
    edgeWhitespace: /^\p{White_Space}+|\p{White_Space}+$/gu,
  };
  return unreadable;
}

/**
 * Letters of other scripts that look like an ASCII letter (Unicode's confusables for the Latin letters, the common
 * ones: Cyrillic, Greek, Armenian, Cherokee and a few Latin variants); compatibility forms (fullwidth, mathematical,
 * ligatures, superscripts) are folded by NFKC first.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.freeze({
  // Cyrillic
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  Ѕ: "S",
  І: "I",
  Ї: "I",
  Ј: "J",
  Ԛ: "Q",
  Ԝ: "W",
  Ү: "Y",
  Ӏ: "I",
  Ԁ: "D",
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ї: "i",
  ј: "j",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ӏ: "l",
  ү: "y",
  ɡ: "g",
  // Greek
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  α: "a",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  υ: "u",
  χ: "x",
  ϲ: "c",
  ϳ: "j",
  // Armenian
  Օ: "O",
  օ: "o",
  ս: "u",
  հ: "h",
  ո: "n",
  ց: "g",
  զ: "q",
  // Cherokee
  Ꭺ: "A",
  Ᏼ: "B",
  Ꮯ: "C",
  Ꭼ: "E",
  Ꮋ: "H",
  Ꮶ: "K",
  Ꮇ: "M",
  Ꮲ: "P",
  Ꮪ: "S",
  Ꭲ: "T",
  Ꮃ: "W",
  Ꮓ: "Z",
  // Latin variants
  ı: "i",
  ȷ: "j",
  ɑ: "a",
  ɩ: "i",
  ꓲ: "I",
});

/** One character folded: NFKC, then a look-alike letter to the ASCII letter it imitates. */
function foldCharacter(character: string): string {
  const compatible = character.normalize("NFKC");
  let folded = "";
  for (const part of compatible) folded += LOOK_ALIKES[part] ?? part;
  return folded;
}

/** Whether a character is not ASCII but reads as ASCII letters, digits, `_`, `.` or `-` (`е`, `ｅ`, `𝐞`, `ﬁ`, `＿`). */
export function isLookAlike(character: string): boolean {
  if (/^[\x20-\x7e]$/.test(character)) return false;
  return /^[A-Za-z0-9_.-]+$/.test(foldCharacter(character));
}

/**
 * Printable ASCII without a space: nothing to refuse (no control, invisible or look-alike character, no whitespace).
 * Every decision checks its tool's name, and almost every name is this: one pass over the char codes, no regex.
 */
function isPlainAscii(name: string): boolean {
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * Why toolgate cannot read this tool name, as a phrase (`it holds a NUL or another control character`), or undefined
 * for a name it reads.
 */
export function unreadableToolName(name: string): string | undefined {
  if (name.length === 0) return "it is empty";
  if (isPlainAscii(name)) return undefined;
  const { one: UNREADABLE_CHARACTER, edgeWhitespace: EDGE_WHITESPACE } = unreadablePatterns();
  const bad = UNREADABLE_CHARACTER.exec(name);
  if (bad !== null) {
    const code = `U+${(bad[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
    return bad[0] === UNREADABLE_MARK
      ? "it holds U+FFFD, a character that could not be read"
      : `it holds ${code}, a control, invisible or unassigned character`;
  }
  EDGE_WHITESPACE.lastIndex = 0;
  if (EDGE_WHITESPACE.test(name)) return "it begins or ends with whitespace";
  // an MCP name's server and tool each end somewhere inside it: `mcp__github__ delete_repo`
  if (/\p{White_Space}/u.test(name) && toolMatchKey(name).startsWith("mcp_"))
    return "an MCP tool name holds whitespace";
  if (/[^\x20-\x7e]/.test(name) && /[A-Za-z]/.test(name)) {
    for (const character of name) {
      if (isLookAlike(character)) {
        const code = `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`;
        return `it mixes ASCII letters with ${code} (${character}), which looks like ${foldCharacter(character)} but is not`;
      }
    }
  }
  return undefined;
}

/**
 * The name as records and messages may hold it: each character toolgate cannot read, and whitespace at either end,
 * replaced by U+FFFD (which keeps the name refused). A readable name is returned as it is.
 */
export function readableToolName(name: string): string {
  if (isPlainAscii(name)) return name;
  const {
    one: UNREADABLE_CHARACTER,
    all: UNREADABLE_CHARACTERS,
    edgeWhitespace: EDGE_WHITESPACE,
  } = unreadablePatterns();
  if (!UNREADABLE_CHARACTER.test(name) && !/^\p{White_Space}|\p{White_Space}$/u.test(name)) return name;
  return name
    .replace(UNREADABLE_CHARACTERS, UNREADABLE_MARK)
    .replace(EDGE_WHITESPACE, (space) => UNREADABLE_MARK.repeat([...space].length));
}

/**
 * The key deny and ask rules match MCP tool names by: NFKC, look-alike letters folded to ASCII, lower case. Two
 * names with the same key are one tool to a server that ignores case or folds compatibility forms.
 */
export function toolMatchKey(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return name.toLowerCase();
  let folded = "";
  for (const character of name) folded += foldCharacter(character);
  return folded.toLowerCase();
}
