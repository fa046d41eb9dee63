import { abortRun } from "./abort-run.js";
import { audit } from "./audit-event.js";
import type { TemplateVariables } from "./config.js";
import type { CallDeniedEvent } from "./events.js";
import type { PatternCounters } from "./state.js";
import { nextId, patternKey, type StepContext } from "./step-context.js";
import { templateValue } from "./templates.js";
import { alternativesFor, strategyFor } from "./threshold-for.js";

/**
 * The pattern just reached its threshold. Interactive: offer a session grant of the minimum scope, unless any
 * denial in the streak came from a source that may never be granted (an explicit deny rule, a hook, a classifier,
 * the sandbox) or the person already declined this pattern. Headless: the tool's strategy (fallback, skip, abort).
 * Returns the text for the model.
 */
export function escalate(options: {
  context: StepContext;
  event: CallDeniedEvent;
  pattern: PatternCounters;
  variables: TemplateVariables;
}): string {
  const { context, event, pattern, variables } = options;
  const { state, config } = context;
  pattern.escalated = true;
  context.effects.push(
    audit(context, {
      kind: "escalation.reached",
      event,
      detail: {
        pattern: pattern.pattern,
        count: variables["count"],
        source: event.source,
        interactive: state.interactive,
      },
    }),
  );
  if (state.interactive) {
    const key = patternKey(pattern.tool, pattern.pattern);
    if (pattern.ungrantable || state.declined.includes(key) || hasPendingOffer(context, key)) {
      return escalatedText(options);
    }
    const scope = config.ports.grantScope({
      tool: pattern.tool,
      // the earlier calls are known only by their redacted copies; the current one by what the host sent, so the
      // policy decides on the real input (the edge refuses a scope whose rule would carry a secret)
      inputs: [...pattern.recent.slice(0, -1).map((call) => call.input), event.call.input],
      pattern: pattern.pattern,
      wholeTool: config.grantWholeTool,
    });
    if (scope === undefined) return config.templates["escalated.rule"](variables);
    const offerId = nextId(context, "offer");
    state.offers = {
      ...state.offers,
      [offerId]: {
        tool: pattern.tool,
        pattern: pattern.pattern,
        scope,
        agentId: event.agentId ?? "main",
        toolUseId: event.call.toolUseId,
        at: event.at,
      },
    };
    const withScope = { ...variables, scope: scope.description };
    context.effects.push({
      type: "offer-grant",
      offerId,
      tool: pattern.tool,
      pattern: pattern.pattern,
      count: Number(variables["count"]),
      scope,
      question: config.templates.offer(withScope),
    });
    context.effects.push(audit(context, { kind: "grant.offered", event, detail: { offerId, scope: scope.rule } }));
    return config.templates["escalated.offer"](withScope);
  }

  const strategy = strategyFor(config, pattern.tool);
  const text = escalatedText(options);
  if (strategy === "abort") {
    const wayOut =
      event.source === "rule"
        ? `remove or narrow the deny rule ${templateValue(variables["rule"])}`
        : `add the allow rule ${templateValue(variables["suggestion"])} to the agent's settings, or run it interactively`;
    const error = config.templates["abort.error"]({ ...variables, wayOut });
    abortRun(context, {
      event,
      reason: "denials",
      count: Number(variables["count"]),
      signature: event.call.signature ?? pattern.pattern,
      error,
      text,
    });
  } else {
    context.effects.push({ type: strategy, toolUseId: event.call.toolUseId, tool: pattern.tool, text });
  }
  return text;
}

/** The text for a denial at the escalated stage, after (or instead of) the escalation itself. */
export function escalatedText(options: {
  context: StepContext;
  pattern: PatternCounters;
  variables: TemplateVariables;
}): string {
  const { context, pattern, variables } = options;
  const { state, config } = context;
  if (state.interactive) {
    const key = patternKey(pattern.tool, pattern.pattern);
    if (state.declined.includes(key)) return config.templates.declined(variables);
    const offer = Object.values(state.offers).find((pending) => patternKey(pending.tool, pending.pattern) === key);
    if (offer !== undefined && !pattern.ungrantable) {
      return config.templates["escalated.offer"]({ ...variables, scope: offer.scope.description });
    }
    return config.templates["escalated.rule"](variables);
  }
  switch (strategyFor(config, pattern.tool)) {
    case "fallback": {
      const names = alternativesFor(config, pattern.tool);
      const alternatives = names.length > 0 ? `Allowed alternatives: ${names.join(", ")}. ` : "";
      return config.templates.fallback({ ...variables, alternatives });
    }
    case "skip":
      return config.templates.skip(variables);
    default:
      return config.templates["abort.model"](variables);
  }
}

function hasPendingOffer(context: StepContext, key: string): boolean {
  for (const offer of Object.values(context.state.offers)) {
    if (patternKey(offer.tool, offer.pattern) === key) return true;
  }
  return false;
}
