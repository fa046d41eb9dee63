import type { CompiledTemplate, TemplateName, TemplateValue, TemplateVariables } from "./config.js";

/**
 * Every text toolgate shows the model or a person. Each is replaceable from config (`escalation.templates`).
 * Placeholders in braces: {tool} {summary} {pattern} {count} (denials of this pattern in the current streak)
 * {total} (denials of this tool this session) {rule} {reason} {source} {suggestion} (narrowest allow rule)
 * {wayOut} {alternatives} {scope} {path} {repeats} {kind} {budget}. Unknown placeholders render empty.
 *
 * Wording follows the research: soft text names the target and the way out; the hard stage is short, final and
 * about the target (escalating "Nth attempt" wording reads as "keep trying").
 */
export const DEFAULT_TEMPLATES: Record<TemplateName, string> = {
  "soft.rule":
    "[toolgate] Denied by rule {rule}: {summary}. This rule denies it every time, so retrying it or a variant will not work. Use an approach the rules allow, or ask the user to change the rule. ({tool} denials this session: {total})",
  "soft.user":
    "[toolgate] The user declined: {summary}. Do not retry it or work around it. Ask the user what they want instead, or continue with other work. ({tool} denials this session: {total})",
  "soft.headless":
    "[toolgate] {summary} needs approval, and this run is non-interactive: nobody can approve it, so every retry will be denied. Do not retry it or a variant. Continue without it, or finish and report that it needs the allow rule {suggestion}. ({tool} denials this session: {total})",
  "soft.mode":
    "[toolgate] The current permission mode does not allow {summary}. Retrying will be denied again. Use a different approach, or ask the user to change the mode. ({tool} denials this session: {total})",
  "soft.hook":
    "[toolgate] A hook blocked {summary}: {reason}. Retrying will be blocked again. Use a different approach. ({tool} denials this session: {total})",
  "soft.sandbox":
    "[toolgate] {summary} failed because the operating system or sandbox denied access{path}. This is a permission boundary, not a bug to fix: do not retry the same path or work around it. Work inside the allowed workspace, or ask the user for access.",
  // a loop block already carries its own text (loop.block); nothing to add below the threshold
  "soft.loop": "",
  "soft.other":
    "[toolgate] {summary} was denied ({reason}). Retrying will be denied again. Try a different approach. ({tool} denials this session: {total})",
  "escalated.rule":
    '[toolgate] {summary} has been denied {count} times by rule {rule}. Stop retrying "{pattern}" in any form. Ask the user to change the rule, or continue with other work.',
  "escalated.offer":
    '[toolgate] {summary} was denied {count} times. toolgate asked the user whether to allow {scope} for this session. Until they answer, do not retry "{pattern}" or a variant; continue with other work.',
  hard: '[toolgate] STOP. "{pattern}" is denied ({count} times). Do not try it again in any form. Ask the user, or do unrelated work.',
  offer: '{tool} was denied {count} times for "{pattern}". Allow {scope} for the rest of this session?',
  fallback:
    '[toolgate] "{pattern}" ({tool}) is not available in this run ({count} denials). Do not retry it. {alternatives}Continue the task without it, and report what could not be done.',
  declined:
    '[toolgate] The user declined to allow "{pattern}" for this session. Do not retry it. Continue without it, or ask the user how to proceed.',
  skip: '[toolgate] Skip this step: "{pattern}" cannot run in this session ({count} denials). Move on to the next part of the task and mention the skipped step in your summary.',
  "abort.model": '[toolgate] The run is being stopped: "{pattern}" was denied {count} times.',
  "abort.error":
    'toolgate aborted the run: {tool} was denied {count} times (last call: {summary}; pattern "{pattern}"; source {source}). To allow it, {wayOut}.',
  "nudge.denials":
    "Several tool calls have been denied ({count} in a row). You may be running in a restricted or sandboxed environment. Avoid retrying the same call, path or a variant of it: find an alternative approach within what is allowed, or ask the user.",
  "nudge.os":
    "Several tool calls have been denied or failed with operating-system permission errors ({count} in a row). You may be running in a sandboxed environment where file access is restricted to the project working directory. These are not bugs to fix. Avoid retrying the same path: find an alternative approach within the allowed workspace.",
  "loop.steer":
    "[toolgate] This is the same call again ({kind}, {repeats} times). Repeating it will not change the result: change approach.",
  "loop.block": "[toolgate] Blocked: this call repeats a loop ({kind}, {repeats} times). Do something different.",
  "loop.stop": "toolgate stopped the run: the agent repeated {summary} {repeats} times ({kind}).",
  "tree-budget":
    "toolgate aborted the run: {total} denials across this session and its subagents reached the budget of {budget}.",
};

/** The text of a template value, computing it when it is lazy. */
export function templateValue(value: TemplateValue | undefined): string {
  if (value === undefined) return "";
  return typeof value === "function" ? value() : String(value);
}

export const TEMPLATE_NAMES = Object.keys(DEFAULT_TEMPLATES) as TemplateName[];

/**
 * Splits a template into literal and placeholder parts, once, when it is first rendered (a hook process renders one
 * or two of its 25 templates, most none); rendering is a single pass.
 */
export function compileTemplate(template: string): CompiledTemplate {
  let parts: { literal: string; name?: string }[] | undefined;
  return (variables: TemplateVariables) => {
    parts ??= templateParts(template);
    let out = "";
    for (const part of parts) {
      out += part.literal;
      if (part.name !== undefined) {
        const value = variables[part.name];
        if (value !== undefined) out += typeof value === "function" ? value() : String(value);
      }
    }
    return out;
  };
}

function templateParts(template: string): { literal: string; name?: string }[] {
  const parts: { literal: string; name?: string }[] = [];
  const pattern = /\{([A-Za-z]+)\}/g;
  let last = 0;
  for (let match = pattern.exec(template); match !== null; match = pattern.exec(template)) {
    parts.push({ literal: template.slice(last, match.index), name: match[1] as string });
    last = match.index + match[0].length;
  }
  parts.push({ literal: template.slice(last) });
  return parts;
}
