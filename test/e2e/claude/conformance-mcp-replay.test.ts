/**
 * Replays the MCP rule cases of test/fixtures/conformance/claude-code-mcp-rules.md (recorded on Claude Code 2.1.330
 * through the Agent SDK's `options.settings`) on the pinned binary: an in-process SDK MCP server `srv` with the
 * tools `echo` and `other`, the rules of each case, the scripted model calling `mcp__srv__echo` then
 * `mcp__srv__other`, no `canUseTool` (an ask is a denial). Each call must end as recorded (NO-TOOL, ASK-DENY or RAN)
 * and the init message must list the MCP tools recorded.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { claudeBinary, createWorkspace, offlineEnvironment, type Workspace } from "./run-claude.js";

/** What this test uses of the SDK beyond toolgate's hand-written declarations (types/claude-agent-sdk.d.ts). */
interface McpSdk {
  query(options: { prompt: string; options: Record<string, unknown> }): AsyncIterable<Record<string, unknown>>;
  createSdkMcpServer(options: { name: string; tools: unknown[] }): unknown;
  tool(
    name: string,
    description: string,
    schema: Record<string, unknown>,
    run: (input: { text: string }) => Promise<unknown>,
  ): unknown;
}
const { query, createSdkMcpServer, tool } = sdk as unknown as McpSdk;

interface Row {
  case: string;
  behavior: "deny" | "allow" | undefined;
  rule: string | undefined;
  tool: string;
  observed: string;
  initTools: string[];
}

const TABLE = join(import.meta.dirname, "..", "..", "fixtures", "conformance", "claude-code-mcp-rules.md");
const ROWS: Row[] = readFileSync(TABLE, "utf8")
  .split("\n")
  .filter((line) => line.startsWith("| mcp-"))
  .map((line) => {
    const [name, rules, call, observed, notes] = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const rule = /^`(deny|allow) (\S+)`$/.exec(rules ?? "");
    const tools = (notes ?? "").replace(/^tools in init: /, "");
    return {
      case: String(name).replace(/^mcp-/, ""),
      behavior: rule?.[1] as Row["behavior"],
      rule: rule?.[2],
      tool: String(call),
      observed: String(observed),
      initTools: tools === "-" ? [] : tools.split(","),
    };
  });
const CASES = [...new Set(ROWS.map((row) => row.case))];

interface Replayed {
  workspace: Workspace;
  fake: FakeAnthropic;
  initTools: string[];
  verdicts: Map<string, string>;
}

function verdictOf(content: unknown, meta: Record<string, unknown> | undefined): string {
  if (/No such tool available/.test(JSON.stringify(content ?? ""))) return "NO-TOOL";
  const decision = (meta?.["permission_decision"] ?? {}) as { decision?: string };
  if (decision.decision === "accept") return "RAN";
  if (decision.decision === "reject" && meta?.["non_execution_kind"] === "user-rejected") return "ASK-DENY";
  return `OTHER ${JSON.stringify(meta)}`;
}

async function replay(name: string): Promise<Replayed> {
  const row = ROWS.find((candidate) => candidate.case === name);
  const workspace = createWorkspace("toolgate-conformance-mcp-");
  const fake = await startFakeAnthropic({
    conversations: {
      main: ["mcp__srv__echo", "mcp__srv__other"].map((tool) => ({
        toolUses: [{ name: tool, input: { text: "hi" } }],
      })),
    },
  });
  const server = createSdkMcpServer({
    name: "srv",
    tools: ["echo", "other"].map((toolName) =>
      tool(toolName, `${toolName} text`, { text: z.string() }, async ({ text }) => ({
        content: [{ type: "text", text: `${toolName}:${text}` }],
      })),
    ),
  });
  const permissions = row?.behavior === undefined ? {} : { [row.behavior]: [row.rule] };
  const messages: Record<string, unknown>[] = [];
  for await (const message of query({
    prompt: "go",
    options: {
      cwd: workspace.project,
      env: offlineEnvironment({ baseUrl: fake.url, home: workspace.home }),
      pathToClaudeCodeExecutable: claudeBinary(),
      permissionMode: "default",
      settingSources: [],
      maxTurns: 10,
      mcpServers: { srv: server },
      settings: { permissions },
    },
  })) {
    messages.push(message);
  }
  const init = messages.find((message) => message["type"] === "system" && message["subtype"] === "init");
  const initTools = ((init?.["tools"] ?? []) as string[]).filter((tool) => tool.startsWith("mcp__")).sort();
  const verdicts = new Map<string, string>();
  const uses = fake.servedToolUses();
  for (const use of uses) {
    const reply = messages.find(
      (message) =>
        message["type"] === "user" &&
        JSON.stringify((message["message"] as { content?: unknown })?.content ?? "").includes(use.id),
    );
    const content = ((reply?.["message"] as { content?: { tool_use_id?: string }[] })?.content ?? []).find(
      (block) => block.tool_use_id === use.id,
    );
    const meta = ((reply?.["tool_result_meta"] ?? []) as Record<string, unknown>[]).find(
      (item) => item["id"] === use.id,
    );
    verdicts.set(use.name, verdictOf(content, meta));
  }
  return { workspace, fake, initTools, verdicts };
}

describe("Claude Code MCP rule cases, replayed on the pinned binary (Agent SDK options.settings)", () => {
  const replayed = new Map<string, Replayed>();

  beforeAll(async () => {
    const queue = [...CASES];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) replayed.set(next, await replay(next));
    };
    await Promise.all([worker(), worker()]);
  }, 600_000);

  afterAll(async () => {
    for (const { fake, workspace } of replayed.values()) {
      await fake.close();
      workspace.remove();
    }
  });

  it("reads every row of the table", () => {
    expect(ROWS).toHaveLength(16);
    expect(CASES).toHaveLength(8);
  });

  it.each(ROWS.map((row) => [`${row.case} ${row.tool}`, row] as const))("%s", (_, row) => {
    const run = replayed.get(row.case);
    expect(run?.initTools).toEqual([...row.initTools].sort());
    expect(run?.verdicts.get(row.tool)).toBe(row.observed);
  });
});
