import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostDenialTables } from "../hosts/registry.js";
import { AGENT_CODE_DENIAL_TEXTS } from "./agent-code-denial-texts.js";
import type { HostDenialTable } from "./denial-text-rule.js";
import { normalizeDenialText } from "./normalize-denial-text.js";
import { type RecognizeDenialInput, recognizeDenial } from "./recognize-denial.js";

/** every registered host's table (each in its host's folder, through the registry), then agent-code's */
const TABLES: readonly HostDenialTable[] = [...(await hostDenialTables()), AGENT_CODE_DENIAL_TEXTS];

type Input = Omit<RecognizeDenialInput, "tables">;
type Row = [label: string, input: Input, source: string, host: string, reason?: string];

function recognize(input: Input) {
  return recognizeDenial({ ...input, tables: TABLES });
}

const claudeRows: Row[] = [
  [
    "Bash deny rule",
    { host: "claude-code", text: "Permission to use Bash with command rm -rf /tmp/x has been denied.", isError: true },
    "rule",
    "claude-code",
  ],
  [
    "WebFetch domain deny",
    { host: "claude-code", text: "WebFetch denied access to domain:evil.example.com.", isError: true },
    "rule",
    "claude-code",
  ],
  [
    "path deny",
    {
      host: "claude-code",
      text: "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>",
      isError: true,
    },
    "rule",
    "claude-code",
  ],
  [
    "removed tool (No such tool available)",
    {
      text: "<tool_use_error>Error: No such tool available: Bash. Bash is disabled for this session, in subagents as well as here.</tool_use_error>",
      isError: true,
    },
    "rule",
    "claude-code",
  ],
  [
    "headless ask outside the working directories",
    {
      host: "claude-code",
      text: "touch in '/tmp/x' needs approval. The path is outside the working directories for this session ('/work'). Allowing runs the command as written.",
      isError: true,
    },
    "headless",
    "claude-code",
  ],
  [
    "headless ask inside the working directories",
    {
      text: "rm in '/work/a' needs approval. The path is inside the working directories for this session, and Claude Code asks before a shell command creates, changes or removes files there.",
    },
    "headless",
    "claude-code",
  ],
  ["headless generic ask", { host: "claude-code", text: "This command requires approval" }, "headless", "claude-code"],
  [
    "headless ask rule",
    { host: "claude-code", text: "Claude requested permissions to use Bash, but you haven't granted it yet." },
    "headless",
    "claude-code",
  ],
  [
    "headless list outside",
    {
      host: "claude-code",
      text: "ls in '/etc' was blocked. For security, Claude Code may only list files in the allowed working directories for this session: '/work'.",
    },
    "headless",
    "claude-code",
  ],
  [
    "--permission-prompts none",
    {
      host: "claude-code",
      text: "Permission for this tool use was denied. It requires approval, and this session has no approval surface — nobody can answer a permission prompt here — so it was denied automatically. The action was NOT performed; do not claim it succeeded, and do not retry it: … What required approval: This command requires approval",
    },
    "headless",
    "claude-code",
  ],
  [
    "dontAsk mode",
    {
      host: "claude-code",
      text: "Permission to use Bash has been denied because Claude Code is running in don't ask mode. IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal.",
    },
    "mode",
    "claude-code",
  ],
  [
    "user doesn't want to proceed (interrupt)",
    {
      text: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      isError: true,
    },
    "user",
    "claude-code",
  ],
  ["interrupt marker", { text: "[Request interrupted by user for tool use]" }, "user", "claude-code"],
  [
    "input validation",
    {
      host: "claude-code",
      text: "<tool_use_error>InputValidationError: Bash failed due to the following issue: command is missing</tool_use_error>",
    },
    "validation",
    "claude-code",
  ],
  [
    "PreToolUse JSON deny",
    { host: "claude-code", text: "PreToolUse:Bash hook error: SDK-HOOK-DENY: no rm here", isError: true },
    "hook",
    "claude-code",
    "SDK-HOOK-DENY: no rm here",
  ],
  [
    "PreToolUse exit 2",
    { host: "claude-code", text: "PreToolUse:Bash hook error: [node /hooks/guard.mjs]: blocked: rm is not allowed" },
    "hook",
    "claude-code",
    "blocked: rm is not allowed",
  ],
  [
    "auto-mode classifier",
    {
      host: "claude-code",
      text: "Permission for this action was denied by the Claude Code auto mode classifier. Reason: [Destructive]. If you have other tasks that don't depend on this action, continue working on those. IMPORTANT: ...",
    },
    "classifier",
    "claude-code",
    "[Destructive]",
  ],
  [
    "auto mode unavailable",
    {
      host: "claude-code",
      text: "Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. Retrying won't help.",
    },
    "classifier",
    "claude-code",
  ],
  [
    "canUseTool deny message recognised by metadata",
    {
      host: "claude-agent-sdk",
      text: "Not in this repository, sorry.",
      isError: true,
      metadata: { permission_decision: { decision: "reject", source: "user_reject" } },
    },
    "user",
    "claude-code",
    "Not in this repository, sorry.",
  ],
  [
    "PermissionRequest hook deny by metadata",
    {
      host: "claude-code",
      text: "hook says no",
      metadata: { permission_decision: { decision: "reject", source: "hook", reason_type: "hook" } },
    },
    "hook",
    "claude-code",
  ],
  [
    "asyncAgent decision reason type",
    { host: "claude-code", text: "anything", metadata: { decisionReasonType: "asyncAgent" } },
    "headless",
    "claude-code",
  ],
];

const opencodeRows: Row[] = [
  [
    "Rejected",
    { host: "opencode", text: "The user rejected permission to use this specific tool call." },
    "user",
    "opencode",
  ],
  [
    "Rejected in opencode run (headless)",
    {
      host: "opencode",
      text: "The user rejected permission to use this specific tool call.",
      metadata: { interactive: false },
    },
    "headless",
    "opencode",
  ],
  [
    "Corrected",
    {
      text: "The user rejected permission to use this specific tool call with the following feedback: use trash instead of rm",
    },
    "user",
    "opencode",
    "use trash instead of rm",
  ],
  [
    "Denied (rule)",
    {
      text: 'The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [{"permission":"bash","pattern":"rm *","action":"deny"}]',
    },
    "rule",
    "opencode",
  ],
  [
    "auto-rejecting stderr line",
    { host: "opencode", text: "! permission requested: bash (rm -rf victim); auto-rejecting" },
    "headless",
    "opencode",
    "bash (rm -rf victim)",
  ],
  [
    "tool removed by a deny rule",
    {
      host: "opencode",
      text: "The arguments provided to the tool are invalid: Model tried to call unavailable tool 'bash'. Available tools: edit, glob, grep.",
    },
    "rule",
    "opencode",
  ],
];

const geminiQwenRows: Row[] = [
  ["Gemini policy deny", { host: "gemini", text: '{"error":"Tool execution denied by policy."}' }, "rule", "gemini"],
  [
    "Gemini policy deny with message",
    { text: "Tool execution denied by policy. Deleting is not allowed here." },
    "rule",
    "gemini",
    "Deleting is not allowed here.",
  ],
  [
    "Gemini headless ask",
    {
      text: '{"error":"Tool execution for \\"Shell\\" requires user confirmation, which is not supported in non-interactive mode."}',
    },
    "headless",
    "gemini",
  ],
  [
    "Gemini BeforeTool hook",
    { host: "gemini", text: "Tool execution blocked: no deletes" },
    "hook",
    "gemini",
    "no deletes",
  ],
  [
    "Qwen deny rule",
    {
      text: 'This "run_shell_command" invocation was denied by permission rules. Matching deny rule: "Bash(rm *)". Other uses of this tool are still permitted.',
    },
    "rule",
    "qwen",
    "Bash(rm *)",
  ],
  [
    "Qwen declined (excluded tool)",
    {
      text: 'Qwen Code requires permission to use "run_shell_command", but that permission was declined. Matching deny rule: "run_shell_command".',
    },
    "rule",
    "qwen",
  ],
  [
    "Qwen headless decline",
    {
      text: 'Qwen Code requires permission to use "run_shell_command", but that permission was declined (non-interactive mode cannot prompt for confirmation).',
    },
    "headless",
    "qwen",
  ],
  ["Gemini sandbox", { host: "gemini", text: "Sandbox expansion required" }, "sandbox", "gemini"],
  [
    // issue 26 item 7: the first refusal of a real `-o json` run, which analyze did not count
    "Gemini plan path outside the plans directory",
    {
      host: "gemini",
      text: "Access denied: plan path (../outside/plan.md) must be within the designated plans directory (/home/u/.gemini/tmp/p/plans).",
    },
    "validation",
    "gemini",
  ],
  [
    "Qwen substitution deny",
    { text: 'Tool "run_shell_command" is denied: command substitution is not allowed for security reasons.' },
    "rule",
    "qwen",
  ],
  ["Qwen PermissionRequest hook", { text: 'Permission denied by hook for "run_shell_command"' }, "hook", "qwen"],
  ["Qwen PreToolUse hook", { host: "qwen", text: "Tool execution blocked by hook" }, "hook", "qwen"],
  [
    "Qwen auto-mode denial",
    { text: "Permission for this action has been denied. Reason: risky push" },
    "classifier",
    "qwen",
    "risky push",
  ],
  ["Qwen user cancel", { text: "User did not allow tool call" }, "user", "qwen"],
  [
    "Qwen classifier",
    { host: "qwen", text: "Blocked by auto mode policy: pushes to main\nDo not try to complete the denied action..." },
    "classifier",
    "qwen",
    "pushes to main",
  ],
];

const codexAgentRows: Row[] = [
  [
    "Codex forbidden rule",
    {
      host: "codex",
      text: 'exec_command failed: CreateProcess { message: "Rejected(\\"`/bin/bash -lc \'rm -rf victim\'` rejected: rm is forbidden by the denial test policy\\")" }',
    },
    "rule",
    "codex",
    "rm is forbidden by the denial test policy",
  ],
  [
    "Codex built-in refusal",
    {
      text: 'exec_command failed: CreateProcess { message: "Rejected(\\"`/bin/bash -lc \'rm -rf victim\'` rejected: rm -f style commands are not permitted. Use a safer approach\\")" }',
    },
    "rule",
    "codex",
  ],
  [
    "Codex ask under never",
    {
      text: 'exec_command failed: CreateProcess { message: "Rejected(\\"approval required by policy, but AskForApproval is set to Never\\")" }',
    },
    "headless",
    "codex",
  ],
  ["Codex rejected by user", { host: "codex", text: 'Rejected("rejected by user")' }, "user", "codex"],
  [
    "Codex auto-review rejection (0.171.0 wording)",
    {
      host: "codex",
      text: "This action was rejected due to unacceptable risk.\nReason: pushes to main\nDo not bypass this rejection through a workaround or indirect execution. Continue with any materially safer alternative and complete unaffected work without asking for confirmation.",
    },
    "classifier",
    "codex",
    "pushes to main",
  ],
  ["Codex sandbox retry", { host: "codex", text: "command failed; retry without sandbox?" }, "sandbox", "codex"],
  [
    "Codex PreToolUse hook",
    { text: "Command blocked by PreToolUse hook: [denial-tracker] hook denied Bash. Command: echo hello" },
    "hook",
    "codex",
    "[denial-tracker] hook denied Bash",
  ],
  [
    "Codex network policy",
    { host: "codex", text: 'Network access to "pypi.org" is blocked by policy.' },
    "sandbox",
    "codex",
  ],
  [
    "agent-code plan mode",
    { text: "Plan mode active: only read-only tools are allowed. Use ExitPlanMode to enable mutations." },
    "mode",
    "agent-code",
  ],
  ["agent-code user", { text: "Permission denied by user", isError: true }, "user", "agent-code"],
  [
    "agent-code rule",
    { host: "agent-code", text: "Permission denied: Bash(rm *) is denied", isError: true },
    "rule",
    "agent-code",
    "Bash(rm *) is denied",
  ],
  ["agent-code hook", { text: "Blocked by pre-tool-use hook: not on fridays" }, "hook", "agent-code", "not on fridays"],
];

const piKiloRows: Row[] = [
  [
    "pi: toolgate's extension, a deny rule",
    { host: "pi", text: "[toolgate] Denied by rule Bash(rm *): rm -rf victim. This rule denies it every time." },
    "rule",
    "pi",
  ],
  [
    "pi: toolgate's extension, the stop",
    { host: "pi", text: '[toolgate] The run is being stopped: "rm" was denied 2 times.' },
    "hook",
    "pi",
  ],
  ["pi: an extension's block without a reason", { host: "pi", text: "Tool execution was blocked" }, "hook", "pi"],
  ["pi: an extension that threw", { text: "Extension failed, blocking execution: boom" }, "hook", "pi", "boom"],
  [
    "Kilo (opencode's text, through the alias)",
    {
      host: "kilo",
      text: "The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules",
    },
    "rule",
    "opencode",
  ],
];

const copilotRows: Row[] = [
  [
    "Copilot --deny-tool rule",
    {
      host: "copilot",
      text: "Permission to run this tool was denied due to the following rules: `shell(rm)`",
      isError: true,
    },
    "rule",
    "copilot",
  ],
  [
    "Copilot headless approval nobody can give",
    { host: "copilot", text: "Permission denied and could not request permission from user", isError: true },
    "headless",
    "copilot",
  ],
  [
    "Copilot preToolUse ask in -p",
    {
      host: "copilot",
      text: "Denied by preToolUse hook (unable to ask user for confirmation): [toolgate] needs approval",
      isError: true,
    },
    "headless",
    "copilot",
  ],
  [
    // the recorded interactive session (test/fixtures/transcripts/copilot/interactive-ask-no.events.jsonl)
    "Copilot preToolUse ask the person refused at its prompt",
    {
      host: "copilot",
      text: "Denied by user via preToolUse hook prompt: [toolgate] The rule Bash(ls:*) asks first",
      isError: true,
    },
    "user",
    "copilot",
  ],
  [
    "Copilot preToolUse deny",
    { host: "copilot", text: "Denied by preToolUse hook: [toolgate] Denied by rule Bash(rm *)", isError: true },
    "hook",
    "copilot",
  ],
  [
    "Copilot permissionRequest deny",
    { host: "copilot", text: "Permission denied by a PermissionRequest hook: not here", isError: true },
    "hook",
    "copilot",
  ],
];

const clineRows: Row[] = [
  [
    "Cline approval nobody can give (headless)",
    {
      text: 'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.',
    },
    "headless",
    "cline",
  ],
  ["Cline user rejection", { text: "This tool call was rejected by the user and not executed." }, "user", "cline"],
  [
    "Cline user rejection with a reason",
    {
      host: "cline",
      text: "not in prod -- NOT a tool or system failure. Clarify with user before proceeding.",
    },
    "user",
    "cline",
    "not in prod",
  ],
  ["Cline tool disabled by policy", { text: 'Tool "run_commands" is disabled by policy' }, "rule", "cline"],
  ["Cline plugin skip without a reason", { text: "Tool run_commands was blocked by a runtime hook" }, "hook", "cline"],
  [
    "Cline: toolgate's plugin refused",
    { host: "cline", text: "[toolgate] Denied by rule Bash(rm *): rm -rf build." },
    "hook",
    "cline",
    "Denied by rule Bash(rm *): rm -rf build.",
  ],
];

const negatives: [label: string, input: Input][] = [
  ["toolgate's Cline text without the host", { text: "[toolgate] Denied by rule Bash(rm *): rm -rf build." }],
  [
    "Cline's approval text in a successful result",
    {
      text: 'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.',
      isError: false,
    },
  ],
  ["pi: a failed command", { host: "pi", text: "ls: cannot access 'x': No such file or directory", isError: true }],
  ["pi: toolgate's words without pi named", { text: "[toolgate] Denied by rule Bash(rm *): rm -rf victim." }],
  ["File not found", { text: "File not found: foo.rs", isError: true }],
  ["timed out", { text: "timed out after 30s", isError: true }],
  ["blank agent-code reason", { host: "agent-code", text: "Permission denied: ", isError: true }],
  ["agent-code prefix without a host (an OS error)", { text: "Permission denied: '/etc/shadow'", isError: true }],
  ["OS error", { text: "bash: /etc/x: Permission denied", isError: true }],
  [
    "a successful result quoting a denial",
    { text: "The user rejected permission to use this specific tool call.", isError: false },
  ],
  [
    "unknown tool (not a permission matter)",
    { host: "claude-code", text: "<tool_use_error>Error: No such tool available: Foo</tool_use_error>" },
  ],
  ["empty", { text: "   " }],
  ["test failure", { text: "FAIL src/a.test.ts > denies\nAssertionError: expected 'denied' to be 'ok'" }],
  ["Gemini tool not found", { host: "gemini", text: '{"error":"Tool \\"run_shell_command\\" not found."}' }],
  ["other host's text with an explicit host", { host: "gemini", text: "Permission denied by user" }],
  ["metadata accept", { host: "claude-code", text: "ok", metadata: { permission_decision: { decision: "accept" } } }],
];

describe("recognizeDenial", () => {
  for (const [label, input, source, host, reason] of [
    ...claudeRows,
    ...opencodeRows,
    ...geminiQwenRows,
    ...codexAgentRows,
    ...piKiloRows,
    ...clineRows,
    ...copilotRows,
  ]) {
    it(`${label} -> ${source}`, () => {
      const result = recognize(input);
      expect(result).toMatchObject({ denied: true, source, host });
      if (reason !== undefined) expect(result?.reason).toBe(reason);
      expect(result?.reason.length).toBeGreaterThan(0);
    });
  }

  for (const [label, input] of negatives) {
    it(`not a denial: ${label}`, () => {
      expect(recognize(input)).toBeUndefined();
    });
  }

  it("has a note and a positive row for every rule in every table", () => {
    const allRows = [
      ...claudeRows,
      ...opencodeRows,
      ...geminiQwenRows,
      ...codexAgentRows,
      ...piKiloRows,
      ...clineRows,
      ...copilotRows,
    ];
    for (const table of TABLES) {
      for (const rule of table.rules) {
        expect(rule.note.length).toBeGreaterThan(0);
        const covered = allRows.some(
          ([, input, , host]) => host === table.host && rule.pattern.test(normalizeDenialText(input.text)),
        );
        expect(covered, `${table.host}: ${rule.note}`).toBe(true);
      }
    }
  });
});

describe("recognizeDenial with the tables its caller gives", () => {
  const allRows = [
    ...claudeRows,
    ...opencodeRows,
    ...geminiQwenRows,
    ...codexAgentRows,
    ...piKiloRows,
    ...clineRows,
    ...copilotRows,
  ];
  const tableOf = (host: string) => TABLES.find((table) => table.host === host) as HostDenialTable;

  it("recognises each row's text with its own host's table only: the order of the tables does not matter", () => {
    for (const [label, { host: _host, ...input }, , host] of allRows) {
      for (const table of TABLES.filter((other) => other.host !== host)) {
        expect(recognizeDenial({ ...input, tables: [table] }), `${label} read by ${table.host}`).toBeUndefined();
      }
    }
  });

  it("reads nothing with no table, and a host's text only with that host's table", () => {
    const text = "Permission to use Bash with command rm -rf /tmp/x has been denied.";
    expect(recognizeDenial({ text, isError: true, tables: [] })).toBeUndefined();
    expect(recognizeDenial({ text, isError: true, tables: [tableOf("codex")] })).toBeUndefined();
    expect(recognizeDenial({ text, isError: true, tables: [tableOf("claude-code")] })).toMatchObject({
      source: "rule",
      host: "claude-code",
    });
  });

  it("selects a table by its host's name or an alias; a name no table has tries every table given", () => {
    const text = "Tool execution denied by policy. no pushes";
    const gemini = tableOf("gemini");
    for (const host of ["gemini", "gemini-cli", "some-other-agent"]) {
      expect(recognizeDenial({ host, text, tables: [tableOf("codex"), gemini] })).toMatchObject({
        source: "rule",
        host: "gemini",
        reason: "no pushes",
      });
    }
    expect(recognizeDenial({ host: "codex", text, tables: [tableOf("codex"), gemini] })).toBeUndefined();
    // an alias selects its host's table alone: another host's text is not read
    const codexText = "rejected by user";
    expect(recognizeDenial({ text: codexText, tables: TABLES })).toMatchObject({ host: "codex" });
    for (const host of ["gemini-cli", "qwen-code", "claude", "claude-agent-sdk"]) {
      expect(recognizeDenial({ host, text: codexText, tables: TABLES }), host).toBeUndefined();
    }
  });

  it("reads a host's structured verdict in the metadata only with that host's table", () => {
    const input = { text: "not now", metadata: { permission_decision: { decision: "reject", source: "user_reject" } } };
    expect(recognizeDenial({ ...input, tables: [tableOf("codex")] })).toBeUndefined();
    expect(recognizeDenial({ ...input, host: "claude-agent-sdk", tables: TABLES })).toMatchObject({
      source: "user",
      host: "claude-code",
    });
  });
});

describe("recognizeDenial properties", () => {
  it("a call the host reports as successful is never a denial", () => {
    const texts = fc.oneof(
      fc.string(),
      fc.constantFrom("Permission denied by user", "Tool execution denied by policy."),
    );
    fc.assert(
      fc.property(texts, fc.constantFrom(undefined, "claude-code", "opencode", "codex"), (text, host) => {
        expect(recognize({ text, host, isError: false })).toBeUndefined();
      }),
    );
  });

  it("never throws and always names a non-empty reason", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom(undefined, "gemini", "qwen", "agent-code"),
        (text, host) => {
          const result = recognize({ text: `PreToolUse:Bash hook error: ${text}`, host });
          if (result !== undefined) expect(result.reason.length).toBeGreaterThan(0);
          recognize({ text, host });
        },
      ),
    );
  });
});
