import { applyMode } from "./apply-mode.js";
import { callTargets, shellPatchTargets } from "./call-targets.js";
import { type CompiledRule, compileRule } from "./compile-rule.js";
import { cacheSubject, createDecisionCache } from "./decision-cache.js";
import { type DefaultsPreset, READ_ONLY_DEFAULTS } from "./defaults/read-only-defaults.js";
import { evaluateShell } from "./evaluate-shell.js";
import { evaluateTool } from "./evaluate-tool.js";
import type { EvaluationContext, FileTargets } from "./evaluation-context.js";
import { indexPathRules } from "./match/path-rule-index.js";
import type { PathSpecifierContext } from "./match/path-specifier.js";
import { resolvePath } from "./paths.js";
import {
  type CompileWarning,
  type EvaluateOptions,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyDecision,
  type PolicyRule,
  type ToolCallInput,
} from "./policy-types.js";
import type { Subcommand } from "./shell/analyze-shell-command.js";
import { fileArguments } from "./shell/file-arguments.js";
import { canonicalToolName, type RuleFamily, toolFamily } from "./tool-families.js";
import { indexToolRules, type ToolRules } from "./tool-rules.js";
import { unreadableToolDecision } from "./unreadable-tool.js";

export interface PolicyOptions {
  rules: readonly PolicyRule[];
  /** absolute working directory: relative rule paths and relative input paths resolve against it */
  cwd: string;
  /** absolute home directory, for `~/` patterns */
  homeDir: string;
  /** the project root for `/path` patterns; the working directory when absent */
  projectRoot?: string;
  /** more directories where reads (and acceptEdits writes) need no approval */
  additionalDirectories?: readonly string[];
  /** what happens when no rule matches; the Claude Code preset when absent */
  defaults?: DefaultsPreset;
  /** rules whose calls a session grant may never cover: `Bash(rm *)` */
  neverGrant?: readonly string[];
  /** the mode when an evaluation names none */
  defaultMode?: PermissionMode;
}

export interface CompiledPolicy {
  /** the decision for one call; never throws for a well-formed call (an internal error is the caller's deny) */
  evaluate(call: ToolCallInput, options?: EvaluateOptions): PolicyDecision;
  /**
   * Whether a session grant could let this call through: false when a deny rule matches or `neverGrant` forbids
   * it. The guard should not offer a grant when this is false.
   */
  canGrant(call: ToolCallInput, options?: EvaluateOptions): boolean;
  /** rules that were ignored, and why */
  readonly warnings: readonly CompileWarning[];
  readonly rules: readonly CompiledRule[];
  readonly workingDirectories: readonly string[];
}

/** Compiles rules once into matchers indexed by tool name. Throws `RULE_SYNTAX` for a rule it cannot read. */
export function compilePolicy(options: PolicyOptions): CompiledPolicy {
  const pathContext: PathSpecifierContext = {
    cwd: options.cwd,
    homeDir: options.homeDir,
    projectRoot: options.projectRoot ?? options.cwd,
  };
  const warnings: CompileWarning[] = [];
  const rules: CompiledRule[] = [];
  for (const rule of options.rules) {
    const result = compileRule(rule, pathContext);
    warnings.push(...result.warnings);
    if (result.compiled !== undefined) {
      result.compiled.order = rules.length;
      rules.push(result.compiled);
    }
  }
  const neverGrant = compileList(options.neverGrant ?? [], "deny", pathContext);
  const workingDirectories = [
    resolvePath(options.cwd, pathContext),
    ...(options.additionalDirectories ?? []).map((directory) => resolvePath(directory, pathContext)),
  ];
  const shellPathRules = rules.filter((rule) => rule.kind === "path" && rule.behavior !== "allow");
  const shellReadRules = indexPathRules(shellPathRules.filter((rule) => toolFamily(rule.tool) === "read"));
  const shellWriteRules = indexPathRules(shellPathRules.filter((rule) => toolFamily(rule.tool) !== "read"));
  const conditional = rules.some((rule) => rule.interactive !== undefined || rule.modes !== undefined);
  const byTool = new Map<string, ToolRules>();
  /** the rules that can apply to a tool (in a mode and session kind when some rules are conditional), indexed */
  /** the rules of the last tool asked for when no rule is conditional (consecutive calls mostly share a tool) */
  let lastTool = "";
  let lastRules: ToolRules | undefined;
  const rulesFor = (tool: string, mode: PermissionMode, interactive: boolean): ToolRules => {
    if (!conditional && tool === lastTool && lastRules !== undefined) return lastRules;
    const key = conditional ? `${tool}\u0000${mode}\u0000${interactive}` : tool;
    let indexed = byTool.get(key);
    if (indexed === undefined) {
      indexed = indexToolRules(
        rules.filter(
          (rule) =>
            rule.appliesTo(tool) &&
            (rule.interactive === undefined || rule.interactive === interactive) &&
            (rule.modes === undefined || rule.modes.includes(mode)),
        ),
      );
      byTool.set(key, indexed);
    }
    if (!conditional) {
      lastTool = tool;
      lastRules = indexed;
    }
    return indexed;
  };
  const grantCache = new Map<string, CompiledRule | undefined>();
  const compileGrant = (grant: string): CompiledRule | undefined => {
    if (!grantCache.has(grant)) {
      let compiled: CompiledRule | undefined;
      try {
        compiled = compileRule({ rule: grant, behavior: "allow", origin: "session grant" }, pathContext).compiled;
      } catch {
        compiled = undefined;
      }
      grantCache.set(grant, compiled);
    }
    return grantCache.get(grant);
  };
  /** what a call's tool name says before any rule is read, by the name as called (a few names; bounded) */
  const toolNames = new Map<string, ToolNamed>();
  /** the last name read and its reading: consecutive calls mostly name the same tool (no map lookup then) */
  let lastName = "";
  let lastNamed: ToolNamed | undefined;
  const toolNamed = (name: string): ToolNamed => {
    if (name === lastName && lastNamed !== undefined) return lastNamed;
    let named = toolNames.get(name);
    if (named === undefined) {
      const tool = canonicalToolName(name);
      named = { unreadable: unreadableToolDecision(name) !== undefined, tool, family: toolFamily(tool) };
      if (toolNames.size >= TOOL_NAMES_KEPT) toolNames.clear();
      toolNames.set(name, named);
    }
    lastName = name;
    lastNamed = named;
    return named;
  };
  const defaults = options.defaults ?? READ_ONLY_DEFAULTS;
  const cache = createDecisionCache();
  let lastSubcommand: Subcommand | undefined;
  let lastTargets: FileTargets = { recognised: false, reads: [], writes: [] };
  /** the absolute paths a subcommand reads and writes, its relative ones against `base` */
  const resolvedTargets = (sub: Subcommand, base: PathSpecifierContext): FileTargets => {
    const files = fileArguments(sub);
    return files.reads.length === 0 && files.writes.length === 0
      ? files.recognised
        ? NO_FILES_RECOGNISED
        : NO_FILES
      : {
          recognised: files.recognised,
          reads: files.reads.map((path) => resolvePath(path, base)),
          writes: files.writes.map((path) => resolvePath(path, base)),
        };
  };
  /** the absolute paths a subcommand reads and writes (one evaluation asks several times for the same one) */
  const fileTargets = (sub: Subcommand): FileTargets => {
    if (sub !== lastSubcommand) {
      lastTargets = resolvedTargets(sub, pathContext);
      lastSubcommand = sub;
    }
    return lastTargets;
  };
  /**
   * A shell call run in a directory of its own (`workdir`, `dir_path`, `directory`, `cwd` in its input, as hosts
   * name it): its relative file arguments are that directory's.
   */
  const inDirectory = (context: EvaluationContext, directory: string): EvaluationContext => {
    const base: PathSpecifierContext = { ...pathContext, cwd: resolvePath(directory, pathContext) };
    return { ...context, fileTargets: (sub: Subcommand) => resolvedTargets(sub, base) };
  };

  const makeContext = (
    mode: PermissionMode,
    grants: readonly CompiledRule[],
    forbidden: readonly CompiledRule[],
  ): EvaluationContext => ({
    pathContext,
    workingDirectories,
    defaults,
    mode,
    grants,
    grantForbidden: (sub: Subcommand) =>
      forbidden.some((rule) => rule.kind === "tool" || rule.test(sub.text) || rule.test(sub.plain)),
    shellPathRules,
    shellReadRules,
    shellWriteRules,
    fileTargets,
  });
  /** the context of a call without grants and without `neverGrant` rules for its tool, one per mode */
  const plainContexts: (EvaluationContext | undefined)[] = [];

  const evaluate = (call: ToolCallInput, evaluateOptions?: EvaluateOptions): PolicyDecision => {
    // a tool name toolgate cannot read (a control or invisible character, whitespace at an end, a look-alike letter
    // among ASCII ones) is refused, whatever the rules, grants and mode say: never taken for another tool
    const named = toolNamed(call.tool);
    if (named.unreadable) return unreadableToolDecision(call.tool) as PolicyDecision;
    const { tool, family } = named;
    // a call with several targets (a patch's files, `paths`, the URLs in a prompt): each decided, the strictest wins
    const targets = family === "shell" ? undefined : callTargets(family, call.input);
    if (targets !== undefined) return strictest(targets.map((input) => evaluate({ ...call, input }, evaluateOptions)));
    const mode = evaluateOptions?.mode ?? options.defaultMode ?? "default";
    const interactive = evaluateOptions?.interactive ?? true;
    const applicable = rulesFor(tool, mode, interactive);
    let grants: readonly CompiledRule[] = NO_RULES;
    const grantTexts = evaluateOptions?.grants;
    if (grantTexts !== undefined && grantTexts.length > 0) {
      const applying: CompiledRule[] = [];
      for (const grant of grantTexts) {
        const compiled = compileGrant(grant);
        if (compiled?.appliesTo(tool)) applying.push(compiled);
      }
      grants = applying;
    }
    const directory = family === "shell" ? shellDirectory(call.input) : undefined;
    // a decision on a command line holds for another directory only when it names no relative file: not cached then
    const subject =
      directory === undefined && grants.length === 0 && applicable.parameter.length === 0
        ? cacheSubject(family, call.input)
        : undefined;
    const modeIndex = PERMISSION_MODES.indexOf(mode);
    const variant = modeIndex * 2 + (interactive ? 1 : 0);
    if (subject !== undefined) {
      const cached = cache.get(tool, variant, subject);
      if (cached !== undefined) return cached;
    }
    // a command that applies a patch writes the files it names: they are decided as Edit calls beside it, and such a
    // command's decision is never cached (so a cached one, above, holds no patch: the patch is in the command's text)
    const patched = family === "shell" ? shellPatchTargets(call.input) : undefined;
    const forbidden = neverGrant.length === 0 ? neverGrant : neverGrant.filter((rule) => rule.appliesTo(tool));
    let context: EvaluationContext | undefined;
    if (grants.length === 0 && forbidden.length === 0) {
      context = plainContexts[modeIndex];
      if (context === undefined || context.mode !== mode) {
        context = makeContext(mode, NO_RULES, NO_RULES);
        if (modeIndex >= 0) plainContexts[modeIndex] = context;
      }
    } else {
      context = makeContext(mode, grants, forbidden);
    }
    if (directory !== undefined) context = inDirectory(context, directory);
    const outcome =
      family === "shell"
        ? // a cacheable shell call's subject is its command line, already read
          evaluateShell(call.input, { rules: applicable, context, shell: call.shell, command: subject })
        : evaluateTool({ tool, input: call.input, rules: applicable, context, neverGrant: forbidden });
    const decision = applyMode(outcome, { mode, interactive });
    if (patched !== undefined) {
      // the patch's relative paths are the command's folder's
      const folder = directory === undefined ? undefined : resolvePath(directory, pathContext);
      const inFolder = (input: { file_path?: string }) =>
        folder === undefined || input.file_path === undefined || /^[/~]/.test(input.file_path)
          ? input
          : { file_path: `${folder}/${input.file_path}` };
      const edits = patched.map((input) =>
        evaluate({ tool: "Edit", input: inFolder(input as { file_path?: string }) }, evaluateOptions),
      );
      return strictest([decision, ...edits]);
    }
    if (subject === undefined) return decision;
    // a shared outcome's decision is frozen already (built once per mode and session kind)
    return outcome.decisions === undefined
      ? cache.set(tool, variant, subject, decision)
      : cache.keep(tool, variant, subject, decision);
  };
  const canGrant = (call: ToolCallInput, evaluateOptions: EvaluateOptions = {}): boolean =>
    evaluate(call, { ...evaluateOptions, grants: [canonicalToolName(call.tool)] }).source === "grant";
  return { evaluate, canGrant, warnings, rules, workingDirectories };
}

/** A tool name as called: whether toolgate can read it, its canonical name and its family as rules see it. */
interface ToolNamed {
  readonly unreadable: boolean;
  readonly tool: string;
  readonly family: RuleFamily;
}
/** distinct tool names whose reading is kept (MCP servers can bring many; the table is cleared when full) */
const TOOL_NAMES_KEPT = 1024;

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);
/** the file targets of a subcommand that names no file (shared, so never changed) */
const NO_FILES: FileTargets = Object.freeze({ recognised: false, reads: Object.freeze([]), writes: Object.freeze([]) });
const NO_FILES_RECOGNISED: FileTargets = Object.freeze({
  recognised: true,
  reads: Object.freeze([]),
  writes: Object.freeze([]),
});

function compileList(
  rules: readonly string[],
  behavior: "deny" | "allow",
  context: PathSpecifierContext,
): CompiledRule[] {
  const compiled: CompiledRule[] = [];
  for (const rule of rules) {
    const result = compileRule({ rule, behavior, origin: "neverGrant" }, context);
    if (result.compiled !== undefined) compiled.push(result.compiled);
  }
  return compiled;
}

/** The strictest of the decisions on a call's targets: a rule's deny, another deny, an ask, an allow (the first of each). */
function strictest(decisions: readonly PolicyDecision[]): PolicyDecision {
  return (
    // a rule's deny before any other (a headless "needs approval" that no rule made, which a host may take for its
    // own ask and pass): the call is refused for what a rule says of any of its targets
    decisions.find((decision) => decision.behavior === "deny" && decision.rule !== undefined) ??
    decisions.find((decision) => decision.behavior === "deny") ??
    decisions.find((decision) => decision.behavior === "ask") ??
    (decisions[0] as PolicyDecision)
  );
}

/** The directory a shell call runs in when its input names one (`workdir`, `dir_path`, `directory`, `cwd`). */
function shellDirectory(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const fields = input as { workdir?: unknown; dir_path?: unknown; directory?: unknown; cwd?: unknown };
  for (const value of [fields.workdir, fields.dir_path, fields.directory, fields.cwd]) {
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
