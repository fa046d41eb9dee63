import type { CompiledRule } from "./compile-rule.js";
import { indexPathRules, type PathRuleIndex } from "./match/path-rule-index.js";

/** The rules that can apply to one tool, pre-sorted by what they test, so evaluation never scans all rules. */
export interface ToolRules {
  all: readonly CompiledRule[];
  /** bare tool rules and tool-name globs */
  whole: readonly CompiledRule[];
  parameter: readonly CompiledRule[];
  /** command rules without a wildcard (`git push *`, `git status`) by their literal text */
  commandLiteral: ReadonlyMap<string, readonly CompiledRule[]>;
  /** the most spaces in a key of `commandLiteral`: a command's prefixes are probed up to the space after that many */
  commandLiteralSpaces: number;
  /**
   * `commandLiteral` as a tree of words: a key's first word, then its second... (`git push` under `git`), so the
   * words of a plain subcommand are looked up as they are, without slicing and hashing a prefix of its text
   */
  commandLiteralWords: ReadonlyMap<string, LiteralNode>;
  /** other command rules by their literal first word */
  commandByWord: ReadonlyMap<string, readonly CompiledRule[]>;
  /** command rules whose first word has a wildcard: checked for every subcommand */
  commandWild: readonly CompiledRule[];
  /** argv-prefix rules (a host's own `prefix_rule`s): checked against every subcommand's argv */
  argv: readonly CompiledRule[];
  /** the path rules, indexed by their literal directory */
  pathIndex: PathRuleIndex;
  /**
   * the domain rules without a wildcard by the host they match (`domainHost`): a call's host is looked up once,
   * not compared with each rule (comparing a host sliced from a URL with another string of its length is a call
   * into the runtime, about 30 ns each)
   */
  domainByHost: ReadonlyMap<string, readonly CompiledRule[]>;
  /** the other domain rules (with a wildcard): tested one by one */
  domainWild: readonly CompiledRule[];
  /** deny rules (for looking inside `bash -c` scripts) */
  deny: readonly CompiledRule[];
}

/** One word of the literal command rules' tree: the rules whose text ends with it, and the words that follow it. */
interface LiteralNode {
  rules: CompiledRule[] | undefined;
  next: Map<string, LiteralNode> | undefined;
}

/** `commandLiteral` as a tree of its keys' words (split at each space, as a plain subcommand's text is) */
function literalWordTree(commandLiteral: ReadonlyMap<string, readonly CompiledRule[]>): Map<string, LiteralNode> {
  const root = new Map<string, LiteralNode>();
  for (const [text, rules] of commandLiteral) {
    const words = text.split(" ");
    let level = root;
    for (let index = 0; index < words.length; index++) {
      const word = words[index] as string;
      let node = level.get(word);
      if (node === undefined) {
        node = { rules: undefined, next: undefined };
        level.set(word, node);
      }
      if (index === words.length - 1) node.rules = rules.slice();
      else {
        node.next ??= new Map();
        level = node.next;
      }
    }
  }
  return root;
}

export function indexToolRules(rules: readonly CompiledRule[]): ToolRules {
  const commandLiteral = new Map<string, CompiledRule[]>();
  let commandLiteralSpaces = 0;
  const commandByWord = new Map<string, CompiledRule[]>();
  const commandWild: CompiledRule[] = [];
  for (const rule of rules) {
    if (rule.kind !== "command") continue;
    if (rule.commandLiteral !== undefined) {
      const { text } = rule.commandLiteral;
      const list = commandLiteral.get(text);
      if (list === undefined) commandLiteral.set(text, [rule]);
      else list.push(rule);
      commandLiteralSpaces = Math.max(commandLiteralSpaces, text.split(" ").length - 1);
      continue;
    }
    if (rule.firstWord === undefined) {
      commandWild.push(rule);
      continue;
    }
    const list = commandByWord.get(rule.firstWord);
    if (list === undefined) commandByWord.set(rule.firstWord, [rule]);
    else list.push(rule);
  }
  return {
    all: rules,
    commandLiteral,
    commandLiteralSpaces,
    commandLiteralWords: literalWordTree(commandLiteral),
    whole: rules.filter((rule) => rule.kind === "tool"),
    parameter: rules.filter((rule) => rule.kind === "parameter"),
    commandByWord,
    commandWild,
    argv: rules.filter((rule) => rule.kind === "argv"),
    pathIndex: indexPathRules(rules.filter((rule) => rule.kind === "path")),
    domainByHost: groupBy(
      rules.filter((rule) => rule.kind === "domain" && rule.domainHost !== undefined),
      (rule) => rule.domainHost as string,
    ),
    domainWild: rules.filter((rule) => rule.kind === "domain" && rule.domainHost === undefined),
    deny: rules.filter((rule) => rule.behavior === "deny"),
  };
}

/** `items` grouped by `key`, each group in the items' order */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  }
  return groups;
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);

/**
 * The domain rules matching `host` (a normalised host, `hostOf`): those of its exact host, then the wildcard ones
 * that match. Without wildcard rules (most policies) that is the index's own list or a shared empty one: no new list.
 */
export function matchingDomainRules(rules: ToolRules, host: string): readonly CompiledRule[] {
  const exact = rules.domainByHost.get(host) ?? NO_RULES;
  if (rules.domainWild.length === 0) return exact;
  const found = exact.slice();
  for (const rule of rules.domainWild) if (rule.test(host)) found.push(rule);
  return found;
}

/** Command rules that match a subcommand (its text as written or after quote removal), in rule order. */
export function matchingCommandRules(
  rules: ToolRules,
  /** `sub`: the subcommand; `into`: where the matching rules are appended */
  options: {
    sub: { text: string; plain: string; head: string; plainHead: string };
    into: CompiledRule[];
    /**
     * the subcommand's words, when its text and its plain text are both exactly these words joined by single spaces
     * (a plain line's subcommand, `isPlainSubcommand`): its literal rules are then found word by word
     */
    words?: readonly string[] | undefined;
  },
): void {
  const { sub, into, words } = options;
  if (rules.commandLiteral.size > 0) {
    const start = into.length;
    if (words !== undefined) literalWordMatches(rules.commandLiteralWords, words, into, start);
    else {
      literalMatches(rules, { command: sub.text, head: sub.head }, into, start);
      if (sub.plain !== sub.text) literalMatches(rules, { command: sub.plain, head: sub.plainHead }, into, start);
    }
  }
  const first = rules.commandByWord.get(sub.head);
  if (first !== undefined) for (const rule of first) if (rule.test(sub.text) || rule.test(sub.plain)) into.push(rule);
  if (sub.plainHead !== sub.head) {
    const second = rules.commandByWord.get(sub.plainHead);
    if (second !== undefined) {
      for (const rule of second)
        if (!into.includes(rule) && (rule.test(sub.text) || rule.test(sub.plain))) into.push(rule);
    }
  }
  for (const rule of rules.commandWild) if (rule.test(sub.text) || rule.test(sub.plain)) into.push(rule);
}

/**
 * The literal command rules matching `command`: its prefixes that end before a space (up to one more space than
 * the longest rule has) are looked up, each matching the rules that may continue (`tail`), and the whole command
 * matching every rule of that text. The same rules `rule.test(command)` accepts, without testing each rule.
 * Rules already in `into` after `start` are not added twice.
 */
function literalMatches(
  rules: ToolRules,
  /** `head`: the command's text up to its first space (the subcommand's own, so the first probe slices nothing) */
  line: { command: string; head: string },
  into: CompiledRule[],
  start: number,
): void {
  const { command, head } = line;
  let from = 0;
  for (let spaces = 0; spaces <= rules.commandLiteralSpaces; spaces++) {
    const space = command.indexOf(" ", from);
    const whole = space < 0;
    const found = rules.commandLiteral.get(whole ? command : spaces === 0 ? head : command.slice(0, space));
    if (found !== undefined) {
      for (const rule of found) {
        if ((whole || rule.commandLiteral?.tail === true) && !includesFrom(into, rule, start)) into.push(rule);
      }
    }
    if (whole) return;
    from = space + 1;
  }
}

/**
 * `literalMatches` for a command that is `words` joined by single spaces: each prefix of whole words is a path in the
 * tree (`literalWordTree`), walked word by word; a key ending at the last word matches all its rules, one ending
 * before it the rules that may continue (`tail`). The same rules in the same order (property-tested).
 */
function literalWordMatches(
  root: ReadonlyMap<string, LiteralNode>,
  words: readonly string[],
  into: CompiledRule[],
  start: number,
): void {
  const last = words.length - 1;
  let level: ReadonlyMap<string, LiteralNode> | undefined = root;
  for (let index = 0; index <= last && level !== undefined; index++) {
    const node = level.get(words[index] as string);
    if (node === undefined) return;
    const found = node.rules;
    if (found !== undefined) {
      for (const rule of found) {
        if ((index === last || rule.commandLiteral?.tail === true) && !includesFrom(into, rule, start)) into.push(rule);
      }
    }
    level = node.next;
  }
}

function includesFrom(list: readonly CompiledRule[], rule: CompiledRule, start: number): boolean {
  for (let index = start; index < list.length; index++) if (list[index] === rule) return true;
  return false;
}

/**
 * Argv-prefix rules that match a subcommand: its argv as the shell runs it (wrappers and `VAR=value` prefixes
 * included), or, for deny and ask rules, its words once those are removed (a stricter reading never misses a
 * refusal the host would make).
 */
export function matchingArgvRules(
  rules: ToolRules,
  /** `sub`: the subcommand; `into`: where the matching rules are appended */
  options: { sub: { argv: readonly string[]; words: readonly string[] }; into: CompiledRule[] },
): void {
  const { sub, into } = options;
  for (const rule of rules.argv) {
    if (rule.testArgv(sub.argv) || (rule.behavior !== "allow" && rule.testArgv(sub.words))) into.push(rule);
  }
}
