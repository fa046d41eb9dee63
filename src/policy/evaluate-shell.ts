import type { CompiledRule } from "./compile-rule.js";
import {
  defaultForSubcommand,
  globMayReachDeniedPath,
  REQUIRES_APPROVAL,
  traversalIn,
} from "./evaluate-shell-defaults.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { matchingPathRules as matchingIndexedPathRules, type PathRuleIndex } from "./match/path-rule-index.js";
import { allowOutcome, fromOrigin, grantOutcome, makeOutcome, type Outcome, ruleOutcome } from "./outcome.js";
import { combineParts, pickWinningRule } from "./precedence.js";
import {
  analyzeShellCommand,
  isPlainSubcommand,
  type ShellAnalysis,
  type Subcommand,
  shellScriptOf,
} from "./shell/analyze-shell-command.js";
import { readShellCommand } from "./shell/read-shell-command.js";
import { indexToolRules, matchingArgvRules, matchingCommandRules, type ToolRules } from "./tool-rules.js";

/**
 * The argvs a shell tool runs a whole line as (some hosts run `/bin/bash -lc <line>`): an argv-prefix rule naming one of
 * them (`prefix_rule(pattern = ["bash", "-lc"])`) applies to the whole call, as the host matches it.
 */
function lineArgvs(command: string): string[][] {
  return [
    ["/bin/bash", "-lc", command],
    ["bash", "-lc", command],
  ];
}

/**
 * Evaluates a shell call the way Claude Code does: every subcommand on its own (deny if any subcommand is denied,
 * allow only if every subcommand is allowed by a rule, a grant or the defaults); tool-level and parameter rules
 * apply to the whole call; Read/Edit deny and ask rules apply to the paths recognised readers and writers name.
 */
export function evaluateShell(
  input: unknown,
  options: {
    rules: ToolRules;
    context: EvaluationContext;
    /** the command's analysis when the caller already has it */
    shell?: ShellAnalysis | undefined;
    /** the command line when the caller has already read it from `input` (`commandOf(input)`) */
    command?: string | undefined;
  },
): Outcome {
  const { rules, context, shell } = options;
  let command = options.command;
  if (command === undefined) {
    const reading = readShellCommand(input);
    // what toolgate cannot read, it cannot check: refused, whatever the rules, grants and mode say
    if ("unreadable" in reading) return unreadable(reading.unreadable);
    command = reading.command;
  }
  const analysis = shell ?? analyzeShellCommand(command);
  const { subcommands } = analysis;
  if (
    subcommands.length === 1 &&
    analysis.complete &&
    rules.whole.length === 0 &&
    rules.parameter.length === 0 &&
    rules.argv.length === 0
  ) {
    // most calls: one command, read completely, no rule on the whole call or its argv: that command's decision
    // (what the loop below decides for it, without the bookkeeping for several parts)
    const sub = subcommands[0] as Subcommand;
    const matches: CompiledRule[] = [];
    matchingCommandRules(rules, { sub, into: matches, words: plainWords(sub) });
    if (context.shellPathRules.length > 0) matchingPathRules(sub, context, matches);
    return decideSubcommand({ sub, matches, rules, context, hasCd: sub.words[0] === "cd" });
  }
  const whole: CompiledRule[] = rules.whole.slice();
  for (const rule of rules.parameter) if (rule.testInput(input)) whole.push(rule);
  if (rules.argv.length > 0) {
    const lines = lineArgvs(command);
    for (const rule of rules.argv) if (lines.some((argv) => rule.testArgv(argv))) whole.push(rule);
  }
  let hasCd = false;
  for (const sub of subcommands) if (sub.words[0] === "cd") hasCd = true;

  const parts: Outcome[] = [];
  for (const sub of subcommands) {
    const matches = whole.slice();
    matchingCommandRules(rules, { sub, into: matches, words: plainWords(sub) });
    if (rules.argv.length > 0) {
      matchingArgvRules(rules, { sub, into: matches });
      // a host that runs `bash -lc <script>` matches its rules against the script's commands too
      const script = shellScriptOf(sub);
      if (script !== undefined) {
        for (const inner of analyzeShellCommand(script).subcommands)
          matchingArgvRules(rules, { sub: inner, into: matches });
      }
    }
    if (context.shellPathRules.length > 0) matchingPathRules(sub, context, matches);
    parts.push(decideSubcommand({ sub, matches, rules, context, hasCd }));
  }
  if (!analysis.complete || parts.length === 0) {
    const matches = whole.slice();
    for (const rule of rules.all) if (rule.kind === "command" && rule.test(analysis.normalized)) matches.push(rule);
    const winner = pickWinningRule(matches);
    const denied = parts.find((part) => part.behavior === "deny");
    if (denied !== undefined) return denied;
    if (winner?.behavior === "deny") return ruleOutcome(winner, deniedText(command, winner));
    if (parts.length === 0 && analysis.complete) {
      if (winner !== undefined) return ruleOutcome(winner, `${winner.rule} decides an empty command.`);
      return REQUIRES_APPROVAL;
    }
    return makeOutcome({
      behavior: "ask",
      source: "toolgate",
      reason: "This command could not be parsed completely (unclosed quote or substitution), so it needs approval.",
    });
  }
  if (parts.length === 1) return parts[0] as Outcome;
  const combined = combineParts(parts.map((part) => part.behavior));
  if (combined === "deny" || combined === "ask") return parts.find((part) => part.behavior === combined) as Outcome;
  if (combined === "allow") {
    const decided = parts.find((part) => part.source === "grant") ?? parts.find((part) => part.rule !== undefined);
    const outcome = decided ?? (parts[0] as Outcome);
    // a new outcome, not shared: its decision is its own (`decisions` left out)
    return makeOutcome({
      behavior: outcome.behavior,
      source: outcome.source,
      rule: outcome.rule,
      origin: outcome.origin,
      reason: `Every part of this command is allowed (${outcome.reason})`,
      removesTool: outcome.removesTool,
      denialSource: outcome.denialSource,
    });
  }
  // an exact grant of the whole command line (compound commands are granted as the line the person saw);
  // wildcard grants never match a whole line, only subcommands
  const line = context.grants.length === 0 ? "" : `(${analysis.normalized})`;
  const grant = context.grants.find(
    (rule) =>
      rule.kind === "command" && rule.rule.replace(/\s+/g, " ").endsWith(line) && rule.test(analysis.normalized),
  );
  if (grant !== undefined && !subcommands.some((sub) => context.grantForbidden(sub))) {
    return grantOutcome(grant.rule);
  }
  const pending = subcommands.filter((_, index) => parts[index]?.behavior === undefined).map((sub) => sub.text);
  return makeOutcome({
    behavior: undefined,
    source: "default",
    reason: `This Bash command contains multiple operations. The following part requires approval: ${pending.join(", ")}`,
  });
}

/** a plain line's subcommand's words (its text is them joined by single spaces), for `matchingCommandRules` */
function plainWords(sub: Subcommand): readonly string[] | undefined {
  return isPlainSubcommand(sub) ? sub.words : undefined;
}

function decideSubcommand(options: {
  sub: Subcommand;
  matches: CompiledRule[];
  rules: ToolRules;
  context: EvaluationContext;
  hasCd: boolean;
}): Outcome {
  const { sub, matches, context } = options;
  const winner = pickWinningRule(matches);
  // as in Claude Code: command rules first, then path checks ('..' traversal asks before path deny rules apply)
  if (winner?.behavior === "deny" && winner.kind !== "path") return ruleOutcome(winner, deniedText(sub.text, winner));
  const traversal = traversalIn(sub);
  if (traversal !== undefined) return traversal;
  if (winner?.behavior === "deny") return ruleOutcome(winner, deniedText(sub.text, winner));
  const guarded = globMayReachDeniedPath(sub, context);
  if (guarded !== undefined) {
    return makeOutcome({
      behavior: "ask",
      source: "policy",
      rule: guarded.rule,
      reason: `A wildcard or expansion in a file argument of "${sub.text}" could name a path that ${guarded.rule} denies, so it needs approval.`,
    });
  }
  if (winner?.behavior !== "allow") {
    const script = shellScriptOf(sub);
    if (script !== undefined) {
      const denyOnly = indexToolRules(options.rules.deny);
      const inner = evaluateShell({ command: script }, { rules: denyOnly, context: { ...context, grants: [] } });
      if (inner.behavior === "deny") {
        return makeOutcome({
          behavior: "ask",
          source: "policy",
          ...(inner.rule === undefined ? {} : { rule: inner.rule }),
          reason: `A permission rule denies a command inside this shell -c script (${inner.rule}), so it needs approval.`,
        });
      }
    }
  }
  if (context.grants.length > 0) {
    const grant = context.grants.find((rule) => rule.kind === "tool" || rule.test(sub.text) || rule.test(sub.plain));
    if (grant !== undefined && !context.grantForbidden(sub)) {
      return grantOutcome(grant.rule);
    }
  }
  if (winner !== undefined) {
    if (winner.behavior !== "ask") return allowOutcome(winner);
    return ruleOutcome(winner, `The rule ${winner.rule}${fromOrigin(winner)} requires approval for ${sub.text}.`);
  }
  return defaultForSubcommand(options);
}

/**
 * The Read/Edit deny and ask rules matching a path the subcommand reads (Read rules) or writes (the others), each
 * once, found through the rules' directory index (the order of `into` does not change the winner).
 */
function matchingPathRules(sub: Subcommand, context: EvaluationContext, into: CompiledRule[]): void {
  const files = context.fileTargets(sub);
  if (files.reads.length === 0 && files.writes.length === 0) return;
  const start = into.length;
  for (const path of files.reads) matchingPathRulesOnce(context.shellReadRules, path, into, start);
  for (const path of files.writes) matchingPathRulesOnce(context.shellWriteRules, path, into, start);
}

function matchingPathRulesOnce(index: PathRuleIndex, path: string, into: CompiledRule[], start: number): void {
  if (index.rules.length === 0) return;
  for (const rule of matchingIndexedPathRules(index, path)) if (into.indexOf(rule, start) < 0) into.push(rule);
}

function unreadable(why: string): Outcome {
  return makeOutcome({
    behavior: "deny",
    source: "toolgate",
    reason: `toolgate cannot read the command of this shell call (${why}), so it is denied. Pass the command as a string, or as an argv array of strings, without control characters.`,
    denialSource: "validation",
  });
}

function deniedText(command: string, rule: CompiledRule): string {
  return `Permission to use Bash with command ${command} has been denied by the rule ${rule.rule}${fromOrigin(rule)}.`;
}
