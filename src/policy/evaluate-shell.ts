import type { CompiledRule } from "./compile-rule.js";
import { isReadOnlyCommand } from "./defaults/is-read-only-command.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { fromOrigin, type Outcome, ruleOutcome } from "./outcome.js";
import { isInsideAny, resolvePath } from "./paths.js";
import { combineParts, pickWinningRule } from "./precedence.js";
import { analyzeShellCommand, type Subcommand, shellScriptOf } from "./shell/analyze-shell-command.js";
import { fileArguments } from "./shell/file-arguments.js";
import { commandOf, toolFamily } from "./tool-families.js";

/**
 * Evaluates a shell call the way Claude Code does: every subcommand on its own (deny if any subcommand is denied,
 * allow only if every subcommand is allowed by a rule, a grant or the defaults); tool-level and parameter rules
 * apply to the whole call; Read/Edit deny and ask rules apply to the paths recognised readers and writers name.
 */
export function evaluateShell(input: unknown, rules: readonly CompiledRule[], context: EvaluationContext): Outcome {
  const command = commandOf(input) ?? "";
  const analysis = analyzeShellCommand(command);
  const whole = rules.filter((rule) => rule.kind === "tool" || (rule.kind === "parameter" && rule.testInput(input)));
  const commandRules = rules.filter((rule) => rule.kind === "command");
  const pathRules = context.shellPathRules;
  const hasCd = analysis.subcommands.some((sub) => sub.words[0] === "cd");

  const parts: { sub: Subcommand; outcome: Outcome }[] = [];
  for (const sub of analysis.subcommands) {
    const matches = [...whole];
    for (const rule of commandRules) if (rule.test(sub.text) || rule.test(sub.plain)) matches.push(rule);
    if (pathRules.length > 0) matches.push(...matchingPathRules(sub, pathRules, context));
    parts.push({ sub, outcome: decideSubcommand({ sub, matches, context, hasCd }) });
  }
  if (!analysis.complete || parts.length === 0) {
    const matches = [...whole];
    for (const rule of commandRules) if (rule.test(analysis.normalized)) matches.push(rule);
    const winner = pickWinningRule(matches);
    const denied = parts.find((part) => part.outcome.behavior === "deny");
    if (denied !== undefined) return denied.outcome;
    if (winner?.behavior === "deny") return ruleOutcome(winner, deniedText(command, winner));
    if (parts.length === 0 && analysis.complete) {
      if (winner !== undefined) return ruleOutcome(winner, `${winner.rule} decides an empty command.`);
      return { behavior: undefined, source: "default", reason: "This command requires approval." };
    }
    return {
      behavior: "ask",
      source: "toolgate",
      reason: "This command could not be parsed completely (unclosed quote or substitution), so it needs approval.",
    };
  }
  const combined = combineParts(parts.map((part) => part.outcome.behavior));
  if (combined !== "deny" && combined !== "allow") {
    // an exact grant of the whole command line (compound commands are granted as the line the person saw);
    // wildcard grants never match a whole line, only subcommands
    const line = `(${analysis.normalized})`;
    const grant = context.grants.find(
      (rule) => rule.kind === "command" && rule.rule.replace(/\s+/g, " ").endsWith(line) && rule.test(analysis.normalized),
    );
    if (grant !== undefined && !parts.some((part) => context.grantForbidden(part.sub))) {
      return {
        behavior: "allow",
        source: "grant",
        rule: grant.rule,
        reason: `Allowed by the session grant ${grant.rule}.`,
      };
    }
  }
  if (combined === "deny" || combined === "ask") {
    return (parts.find((part) => part.outcome.behavior === combined) as { outcome: Outcome }).outcome;
  }
  if (combined === "allow") {
    const decided =
      parts.find((part) => part.outcome.source === "grant") ?? parts.find((part) => part.outcome.rule !== undefined);
    const outcome = decided?.outcome ?? (parts[0] as { outcome: Outcome }).outcome;
    return parts.length === 1
      ? outcome
      : { ...outcome, reason: `Every part of this command is allowed (${outcome.reason})` };
  }
  const pending = parts.filter((part) => part.outcome.behavior === undefined).map((part) => part.sub.text);
  return {
    behavior: undefined,
    source: "default",
    reason:
      parts.length > 1
        ? `This Bash command contains multiple operations. The following part requires approval: ${pending.join(", ")}`
        : (parts[0] as { outcome: Outcome }).outcome.reason,
  };
}

function decideSubcommand(options: {
  sub: Subcommand;
  matches: CompiledRule[];
  context: EvaluationContext;
  hasCd: boolean;
}): Outcome {
  const { sub, matches, context } = options;
  const winner = pickWinningRule(matches);
  if (winner?.behavior === "deny") return ruleOutcome(winner, deniedText(sub.text, winner));
  const script = shellScriptOf(sub);
  if (script !== undefined && winner?.behavior !== "allow") {
    const inner = evaluateShell({ command: script }, context.denyRulesForShell, { ...context, grants: [] });
    if (inner.behavior === "deny") {
      return {
        behavior: "ask",
        source: "policy",
        ...(inner.rule === undefined ? {} : { rule: inner.rule }),
        reason: `A permission rule denies a command inside this shell -c script (${inner.rule}), so it needs approval.`,
      };
    }
  }
  const grant = context.grants.find((rule) => rule.kind === "tool" || rule.test(sub.text) || rule.test(sub.plain));
  if (grant !== undefined && !context.grantForbidden(sub)) {
    return {
      behavior: "allow",
      source: "grant",
      rule: grant.rule,
      reason: `Allowed by the session grant ${grant.rule}.`,
    };
  }
  if (winner !== undefined) {
    const text =
      winner.behavior === "ask"
        ? `The rule ${winner.rule}${fromOrigin(winner)} requires approval for ${sub.text}.`
        : `Allowed by ${winner.rule}${fromOrigin(winner)}.`;
    return ruleOutcome(winner, text);
  }
  return defaultForSubcommand(options);
}

function defaultForSubcommand(options: { sub: Subcommand; context: EvaluationContext; hasCd: boolean }): Outcome {
  const { sub, context } = options;
  const { defaults, mode } = context;
  const program = sub.words[0] ?? "";
  const files = fileArguments(sub);
  const paths = [...files.reads, ...files.writes].map((path) => resolvePath(path, context.pathContext));
  const outside = paths.find((path) => !isInsideAny(path, context.workingDirectories));
  if (mode === "bypassPermissions") {
    if (program === "rm" && paths.some((path) => path === "/" || path === context.pathContext.homeDir)) {
      return { behavior: "ask", source: "mode", reason: `${sub.text} would remove / or the home directory.` };
    }
    return { behavior: "allow", source: "mode", reason: "Allowed by bypassPermissions mode." };
  }
  if (outside !== undefined && (files.recognised || paths.length > 0)) {
    return {
      behavior: undefined,
      source: "default",
      reason: `${program} in '${outside}' needs approval. The path is outside the working directories for this session.`,
    };
  }
  const gitAfterCd = program === "git" && options.hasCd;
  if (!gitAfterCd && isReadOnlyCommand(sub, defaults)) {
    return {
      behavior: "allow",
      source: "default",
      reason: `${program} is a read-only command (${defaults.name} defaults).`,
    };
  }
  if (mode === "acceptEdits" && defaults.acceptEditsCommands.has(program)) {
    return {
      behavior: "allow",
      source: "mode",
      reason: `${program} inside the working directories is allowed in acceptEdits mode.`,
    };
  }
  return { behavior: undefined, source: "default", reason: "This command requires approval." };
}

function matchingPathRules(
  sub: Subcommand,
  rules: readonly CompiledRule[],
  context: EvaluationContext,
): CompiledRule[] {
  const files = fileArguments(sub);
  if (files.reads.length === 0 && files.writes.length === 0) return [];
  const reads = files.reads.map((path) => resolvePath(path, context.pathContext));
  const writes = files.writes.map((path) => resolvePath(path, context.pathContext));
  const matched: CompiledRule[] = [];
  for (const rule of rules) {
    const targets = toolFamily(rule.tool) === "read" ? reads : writes;
    if (targets.some((path) => rule.test(path))) matched.push(rule);
  }
  return matched;
}

function deniedText(command: string, rule: CompiledRule): string {
  return `Permission to use Bash with command ${command} has been denied by the rule ${rule.rule}${fromOrigin(rule)}.`;
}
