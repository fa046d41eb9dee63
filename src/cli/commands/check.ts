import { defineCommand } from "citty";
import { ToolgateError } from "../../core/errors.js";
import { createPolicy } from "../../node/create-policy.js";
import { normalizeMode } from "../../policy/claude-settings-rules.js";
import { EXIT } from "../exit-codes.js";

const HELP = `Show what toolgate decides for one tool call, and which rule decided it.

It evaluates exactly what the Claude Code hook evaluates: toolgate.config.json (or .toolgate.json) plus the Claude Code
settings hierarchy of this directory and $HOME (.claude/settings.local.json, .claude/settings.json,
~/.claude/settings.json, managed settings), with Claude Code's defaults for calls no rule matches.

Exit codes: 0 allow, 3 ask, 4 deny, 2 usage or config error.

Examples:
  toolgate check Bash '{"command":"git push origin main"}'
  toolgate check Read '{"file_path":".env"}' --json
  toolgate check Bash '{"command":"npm test"}' --mode dontAsk --headless
  toolgate check WebFetch '{"url":"https://example.com"}' --claude-settings off`;

function fail(message: string): void {
  process.stderr.write(`toolgate check: ${message}\n`);
  process.exitCode = EXIT.usage;
}

export default defineCommand({
  meta: { name: "check", description: HELP },
  args: {
    tool: {
      type: "positional",
      description: "tool name as the host names it (Bash, Read, mcp__github__create_issue)",
      required: true,
    },
    input: { type: "positional", description: "the tool input as JSON", required: false, default: "{}" },
    mode: { type: "string", description: "permission mode: default, acceptEdits, plan, dontAsk, bypassPermissions" },
    headless: {
      type: "boolean",
      description: "no prompt surface: an ask becomes a deny (source headless)",
      default: false,
    },
    json: { type: "boolean", description: "print {behavior, rule, source, reason} as JSON", default: false },
    "claude-settings": {
      type: "string",
      description: "on (default) or off: read the Claude Code settings and defaults",
      default: "on",
    },
    grant: { type: "string", description: "a session grant rule to apply (repeat the flag for more)" },
    cwd: { type: "string", description: "project directory (default: the current directory)" },
  },
  run({ args }) {
    let input: unknown;
    try {
      input = JSON.parse(String(args.input ?? "{}"));
    } catch (error) {
      return fail(`the input must be JSON, e.g. '{"command":"ls"}' (${(error as Error).message}).`);
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return fail(`the input must be a JSON object, e.g. '{"command":"ls"}'.`);
    }
    const mode = args.mode === undefined ? undefined : normalizeMode(String(args.mode));
    if (args.mode !== undefined && mode === undefined) {
      return fail(
        `unknown --mode ${JSON.stringify(args.mode)}; use default, acceptEdits, plan, dontAsk or bypassPermissions.`,
      );
    }
    const claudeFlag = String(args["claude-settings"]);
    if (claudeFlag !== "on" && claudeFlag !== "off")
      return fail(`--claude-settings takes on or off (got ${claudeFlag}).`);
    let policy: ReturnType<typeof createPolicy>;
    try {
      policy = createPolicy({ cwd: args.cwd ?? process.cwd(), claudeSettings: claudeFlag === "on" });
    } catch (error) {
      if (ToolgateError.is(error)) return fail(error.message);
      throw error;
    }
    const grants = args.grant === undefined ? [] : ([] as string[]).concat(args.grant as string | string[]);
    const decision = policy.evaluate(
      { tool: String(args.tool), input },
      { ...(mode === undefined ? {} : { mode }), interactive: !args.headless, grants },
    );
    if (args.json) {
      const { behavior, rule, source, reason, denialSource, origin } = decision;
      process.stdout.write(
        `${JSON.stringify({ behavior, rule: rule ?? null, source, reason, ...(denialSource ? { denialSource } : {}), ...(origin ? { origin } : {}) })}\n`,
      );
    } else {
      const lines = [`${decision.behavior.toUpperCase()}  ${decision.reason}`];
      if (decision.rule !== undefined)
        lines.push(`rule:   ${decision.rule}${decision.origin ? `  (${decision.origin})` : ""}`);
      lines.push(
        `source: ${decision.source}${decision.denialSource ? ` (recorded as a ${decision.denialSource} denial)` : ""}`,
      );
      lines.push(`mode:   ${mode ?? policy.defaultMode}${args.headless ? ", headless" : ""}`);
      for (const warning of policy.warnings) lines.push(`warning: ${warning.message}`);
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    process.exitCode = decision.behavior === "allow" ? EXIT.ok : decision.behavior === "ask" ? EXIT.ask : EXIT.deny;
  },
});
