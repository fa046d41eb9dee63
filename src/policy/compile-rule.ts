import type { Behavior } from "../core/decision.js";
import { toolMatchKey } from "../core/tool-name.js";
import { bashSpecifierLiteral, compileBashSpecifier } from "./match/bash-specifier.js";
import { compileDomainSpecifier, literalDomainHost } from "./match/domain-specifier.js";
import {
  anchorPattern,
  compilePathSpecifier,
  GLOB_CHARACTERS,
  literalPrefix,
  type PathSpecifierContext,
} from "./match/path-specifier.js";
import { compileWildcard } from "./match/wildcard.js";
import { parseRule } from "./parse-rule.js";
import type { CompileWarning, PermissionMode, PolicyRule } from "./policy-types.js";
import {
  CANONICAL_FIELDS,
  canonicalToolName,
  PARAMETER_FIELDS,
  scalarField,
  specifierCovers,
  toolFamily,
} from "./tool-families.js";

/**
 * What a compiled rule tests: the whole tool, a shell subcommand's text, a shell command's argv (a host's prefix
 * rule), a path, a host, or an input parameter.
 */
export type RuleKind = "tool" | "command" | "argv" | "path" | "domain" | "parameter";

export interface CompiledRule {
  rule: string;
  behavior: Behavior;
  priority: number;
  origin: string | undefined;
  interactive: boolean | undefined;
  modes: readonly PermissionMode[] | undefined;
  kind: RuleKind;
  /** the canonical tool the rule names (`Edit`), or the glob as written */
  tool: string;
  /** whether the rule can apply to calls of this canonical tool name */
  appliesTo: (tool: string) => boolean;
  /** the specifier test: command text, absolute path or host (kinds command, path, domain) */
  test: (subject: string) => boolean;
  /** the parameter test (kind parameter) */
  testInput: (input: unknown) => boolean;
  /** the argv test (kind argv): whether the argv starts with the rule's words */
  testArgv: (argv: readonly string[]) => boolean;
  /** the host's own sentence for a call this rule decides (`PolicyRule.reason`) */
  reason?: string;
  /** a bare deny removes the tool from the model's tool list */
  removesTool: boolean;
  /** position in the policy's rule list (ties go to the earlier rule) */
  order: number;
  /** path rules: the literal directory every matching path starts with */
  pathPrefix?: string;
  /** path rules whose last segment is literal (`.env`, `secret.env`): that name */
  pathName?: string;
  /** command rules: the literal first word every matching command starts with (an index key); else undefined */
  firstWord?: string;
  /**
   * command rules without a wildcard (but an optional trailing ` *`): the text a command must equal, and whether
   * it may also continue after a space (`tail`); an index key, so such rules are never tested one by one
   */
  commandLiteral?: { text: string; tail: boolean };
  /** domain rules without a wildcard: the one (normalised) host they match, an index key */
  domainHost?: string;
}

export interface CompileRuleResult {
  compiled: CompiledRule | undefined;
  warnings: CompileWarning[];
}

const always = () => true;
const never = () => false;

/**
 * Whether a rule's tool matches MCP tool names through their fold (`toolMatchKey`: case and look-alikes): deny and
 * ask rules for MCP tools do, since a server that ignores case runs `DELETE_REPO` as `delete_repo`; an allow matches
 * exactly as written, so it never widens to another spelling.
 */
function foldsMcpNames(tool: string, behavior: Behavior): boolean {
  return behavior !== "allow" && toolMatchKey(tool).startsWith("mcp_");
}

/** Which call tools a rule naming one tool applies to: that name, or for a deny or ask on an MCP tool its fold. */
function sameTool(tool: string, behavior: Behavior): (callTool: string) => boolean {
  if (!foldsMcpNames(tool, behavior)) return (callTool) => callTool === tool;
  const key = toolMatchKey(tool);
  return (callTool) => callTool === tool || toolMatchKey(callTool) === key;
}

/**
 * A host's argv-prefix rule (a `prefix_rule` of its own rule files): a shell rule matching each command whose argv starts with the
 * given words, compared as words (after quote removal), never as text: `["rm"]` matches `rm -rf x` and `"rm" x`,
 * not `rmdir`. An empty prefix matches nothing.
 */
function compileArgvRule(rule: PolicyRule, prefix: readonly (string | readonly string[])[]): CompiledRule {
  const words = prefix.map((part) => (typeof part === "string" ? [part] : [...part]));
  // a host may resolve an absolute program path to its name (`/bin/rm` is `rm`); a deny or ask does too (an allow stays
  // exact: it never widens to a program found elsewhere)
  const resolves = rule.behavior !== "allow";
  const wordMatches = (options: readonly string[], word: string, index: number): boolean =>
    options.includes(word) ||
    (resolves && index === 0 && word.startsWith("/") && options.includes(word.slice(word.lastIndexOf("/") + 1)));
  const testArgv = (argv: readonly string[]): boolean =>
    words.length > 0 &&
    argv.length >= words.length &&
    words.every((options, index) => wordMatches(options, argv[index] as string, index));
  return {
    rule: rule.rule,
    behavior: rule.behavior,
    priority: rule.priority ?? 0,
    origin: rule.origin,
    interactive: rule.interactive,
    modes: rule.modes,
    kind: "argv",
    tool: "Bash",
    // every shell tool: a host's own shell tools (`exec_command`, `local_shell`, ...) are the ones it gates
    appliesTo: (callTool) => toolFamily(callTool) === "shell",
    test: never,
    testInput: always,
    testArgv,
    ...(rule.reason === undefined ? {} : { reason: rule.reason }),
    removesTool: false,
    order: 0,
  };
}

/** Compiles one rule. Rules Claude Code ignores are dropped with a warning that says why; syntax errors throw. */
export function compileRule(rule: PolicyRule, context: PathSpecifierContext): CompileRuleResult {
  const result = compileRuleOfKind(rule, context);
  return result.compiled === undefined ? result : { compiled: oneShape(result.compiled), warnings: result.warnings };
}

/**
 * The rule with every field present, in one order, whatever its kind (a field a kind does not use is undefined): the
 * hot path reads rules of every kind at the same places (`winner.behavior`, `rule.origin`, `rule.test`), and one
 * object shape keeps those reads monomorphic instead of megamorphic (a generic lookup per read).
 */
function oneShape(compiled: CompiledRule): CompiledRule {
  return {
    rule: compiled.rule,
    behavior: compiled.behavior,
    priority: compiled.priority,
    origin: compiled.origin,
    interactive: compiled.interactive,
    modes: compiled.modes,
    kind: compiled.kind,
    tool: compiled.tool,
    appliesTo: compiled.appliesTo,
    test: compiled.test,
    testInput: compiled.testInput,
    testArgv: compiled.testArgv,
    reason: compiled.reason,
    removesTool: compiled.removesTool,
    order: compiled.order,
    pathPrefix: compiled.pathPrefix,
    pathName: compiled.pathName,
    firstWord: compiled.firstWord,
    commandLiteral: compiled.commandLiteral,
    domainHost: compiled.domainHost,
  };
}

function compileRuleOfKind(rule: PolicyRule, context: PathSpecifierContext): CompileRuleResult {
  if (rule.argvPrefix !== undefined) return { compiled: compileArgvRule(rule, rule.argvPrefix), warnings: [] };
  const parsed = parseRule(rule.rule);
  const warnings: CompileWarning[] = [];
  const base = {
    rule: rule.rule,
    behavior: rule.behavior,
    priority: rule.priority ?? 0,
    origin: rule.origin,
    interactive: rule.interactive,
    modes: rule.modes,
    test: always as (subject: string) => boolean,
    testInput: always as (input: unknown) => boolean,
    testArgv: never as (argv: readonly string[]) => boolean,
    ...(rule.reason === undefined ? {} : { reason: rule.reason }),
    removesTool: false,
    order: 0,
  };
  const isGlob = /[*?]/.test(parsed.tool);
  const specifier = parsed.specifier === "*" ? undefined : parsed.specifier;
  if (isGlob) {
    if (rule.behavior === "allow" && !/^mcp__[^*?]+__/.test(parsed.tool)) {
      warnings.push(
        ignored(
          rule,
          "an allow rule may only use a tool-name glob anchored as `mcp__<server>__...`; write e.g. `mcp__github__*`, or list the tools one by one",
        ),
      );
      return { compiled: undefined, warnings };
    }
    if (specifier !== undefined) {
      warnings.push(
        ignored(
          rule,
          "a tool-name glob cannot carry a specifier; write one rule per tool, e.g. `Bash(npm test *)`, or drop the specifier",
        ),
      );
      return { compiled: undefined, warnings };
    }
    let matches = compileWildcard(parsed.tool);
    if (foldsMcpNames(parsed.tool, rule.behavior)) {
      const folded = compileWildcard(toolMatchKey(parsed.tool));
      matches = (callTool) => folded(toolMatchKey(callTool));
    }
    const compiled: CompiledRule = { ...base, kind: "tool", tool: parsed.tool, appliesTo: matches };
    compiled.removesTool = rule.behavior === "deny";
    return { compiled, warnings };
  }
  const tool = canonicalToolName(parsed.tool);
  const family = toolFamily(tool);
  if (specifier === undefined) {
    const serverOnly = tool.startsWith("mcp__") && !tool.slice(5).includes("__");
    const serverKey = `${toolMatchKey(tool)}__`;
    const appliesTo = serverOnly
      ? foldsMcpNames(tool, rule.behavior)
        ? (callTool: string) => callTool.startsWith(`${tool}__`) || toolMatchKey(callTool).startsWith(serverKey)
        : (callTool: string) => callTool.startsWith(`${tool}__`)
      : sameTool(tool, rule.behavior);
    return {
      compiled: { ...base, kind: "tool", tool, appliesTo, removesTool: rule.behavior === "deny" },
      warnings,
    };
  }
  const parameter = /^([A-Za-z_][A-Za-z0-9_-]*):(.*)$/s.exec(specifier);
  const allowed = PARAMETER_FIELDS[family];
  const isParameter =
    parameter !== null &&
    !(family === "web" && parameter[1] === "domain") &&
    (allowed === "any" ||
      allowed.has(parameter[1] as string) ||
      CANONICAL_FIELDS[family].includes(parameter[1] as string));
  if (isParameter && parameter !== null) {
    const name = parameter[1] as string;
    if (CANONICAL_FIELDS[family].includes(name)) {
      warnings.push(
        ignored(rule, `\`${name}\` is matched through the tool's own syntax; write \`${tool}(<pattern>)\` instead`),
      );
      return { compiled: undefined, warnings };
    }
    if (rule.behavior === "allow") {
      warnings.push(
        ignored(
          rule,
          "parameter rules (`Tool(name:value)`) apply to deny and ask only; make it a deny or ask rule, or write the allow in the tool's own syntax, e.g. `Bash(npm test *)`",
        ),
      );
      return { compiled: undefined, warnings };
    }
    const valueMatches = compileWildcard((parameter[2] as string).trim());
    const testInput = (input: unknown) => {
      const value = scalarField(input, name);
      return value !== undefined && valueMatches(value);
    };
    return {
      compiled: { ...base, kind: "parameter", tool, appliesTo: sameTool(tool, rule.behavior), testInput },
      warnings,
    };
  }
  const appliesTo = (callTool: string) => specifierCovers(tool, callTool);
  switch (family) {
    case "shell": {
      const first = specifier.trim().split(/\s+/)[0] ?? "";
      const compiled: CompiledRule = {
        ...base,
        kind: "command",
        tool,
        appliesTo,
        test: compileBashSpecifier(specifier),
      };
      if (first !== "" && !first.includes("*")) compiled.firstWord = first;
      const literal = bashSpecifierLiteral(specifier);
      if (literal !== undefined) compiled.commandLiteral = literal;
      return { compiled, warnings };
    }
    case "read":
    case "edit": {
      const compiled: CompiledRule = {
        ...base,
        kind: "path",
        tool,
        appliesTo,
        test: compilePathSpecifier(specifier, context),
      };
      const glob = anchorPattern(specifier.trim(), context);
      compiled.pathPrefix = literalPrefix(glob);
      const name = glob.slice(glob.lastIndexOf("/") + 1);
      if (!GLOB_CHARACTERS.test(name)) compiled.pathName = name;
      return { compiled, warnings };
    }
    case "web": {
      if (!specifier.startsWith("domain:")) {
        warnings.push(ignored(rule, "WebFetch rules take `domain:host`, e.g. `WebFetch(domain:example.com)`"));
        return { compiled: undefined, warnings };
      }
      const domain = specifier.slice("domain:".length);
      const test = compileDomainSpecifier(domain);
      const compiled: CompiledRule = { ...base, kind: "domain", tool, appliesTo, test };
      const host = literalDomainHost(domain);
      if (host !== undefined) compiled.domainHost = host;
      return { compiled, warnings };
    }
    default:
      if (tool === "Task" || tool === "Agent") {
        // `Task(Explore)`: the subagent type
        const matches = compileWildcard(specifier);
        const testInput = (input: unknown) => matches(scalarField(input, "subagent_type") ?? "");
        return {
          compiled: { ...base, kind: "parameter", tool, appliesTo: sameTool(tool, rule.behavior), testInput },
          warnings,
        };
      }
      warnings.push(ignored(rule, `${tool} has no specifier syntax; write \`${tool}\` or \`${tool}(param:value)\``));
      return { compiled: undefined, warnings };
  }
}

function ignored(rule: PolicyRule, why: string): CompileWarning {
  return {
    code: "RULE_IGNORED",
    message: `The ${rule.behavior} rule ${JSON.stringify(rule.rule)}${rule.origin ? ` in ${rule.origin}` : ""} is ignored: ${why}.`,
  };
}
