import { ToolgateError } from "../../core/errors.js";
import { normalizeMode } from "../../policy/claude-settings-rules.js";
import { createPolicy } from "../../root/create-policy.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";
import { checkDocument, checkText } from "../output/check-output.js";
import { toCliWarnings, writeJson } from "../output/json-document.js";

const DETAILS = `It evaluates exactly what the Claude Code hook evaluates: toolgate.config.json (or .toolgate.json) plus the Claude
Code settings hierarchy of this directory and $HOME (.claude/settings.local.json, .claude/settings.json,
~/.claude/settings.json, managed settings), with Claude Code's defaults for calls no rule matches. Warnings (an
ignored rule, an untrusted workspace) are printed after the decision, each with its fix; with --json they are in
"warnings".`;

function fail(message: string): void {
  process.stderr.write(`toolgate check: ${message}\n`);
  process.exitCode = EXIT.usage;
}

export default defineCommand({
  meta: {
    name: "check",
    summary: "Show what toolgate decides for one tool call, and which rule decided it.",
    details: DETAILS,
    exitCodes: "0 allow, 3 ask, 4 deny, 2 usage or config error.",
    examples: [
      `toolgate check Bash '{"command":"git push origin main"}'`,
      `toolgate check Read '{"file_path":".env"}' --json`,
      `toolgate check Bash '{"command":"npm test"}' --mode dontAsk --headless`,
      `toolgate check WebFetch '{"url":"https://example.com"}' --claude-settings off`,
      `toolgate check Bash '{"command":"npm publish"}' --grant 'Bash(npm publish)'`,
    ],
  },
  args: {
    tool: {
      type: "positional",
      description: "tool name as the host names it (Bash, Read, mcp__github__create_issue)",
      required: true,
    },
    input: { type: "positional", description: "the tool input as JSON", required: false, default: "{}" },
    mode: {
      type: "enum",
      description: "the permission mode (manual is Claude Code's other name for default)",
      options: ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "manual"],
    },
    headless: {
      type: "boolean",
      description: "no prompt surface: an ask becomes a deny (source headless)",
      default: false,
    },
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
    "claude-settings": {
      type: "enum",
      description: "read the Claude Code settings hierarchy and its defaults",
      options: ["on", "off"],
      default: "on",
    },
    grant: {
      type: "string",
      description: "a session grant (an allow rule in Claude Code syntax) to apply",
      multiple: true,
      valueHint: "rule",
    },
    cwd: { type: "string", description: "project directory (default: the current directory)", valueHint: "directory" },
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
    const grants = args.grant;
    const decision = policy.evaluate(
      { tool: String(args.tool), input },
      { ...(mode === undefined ? {} : { mode }), interactive: !args.headless, grants },
    );
    const output = {
      decision,
      mode: mode ?? policy.defaultMode,
      headless: args.headless,
      warnings: toCliWarnings(policy.warnings),
    };
    if (args.json) writeJson(checkDocument(output));
    else process.stdout.write(checkText(output));
    process.exitCode = decision.behavior === "allow" ? EXIT.ok : decision.behavior === "ask" ? EXIT.ask : EXIT.deny;
  },
});
