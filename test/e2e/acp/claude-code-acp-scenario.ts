/**
 * The real `@zed-industries/claude-code-acp` (pinned in test/e2e/package.json) on the Claude Code its Agent SDK
 * bundles, offline against the harness's scripted Messages API on 127.0.0.1, with a temporary HOME and project: the
 * shared setup of the ACP end-to-end suites. The editor is the SDK's client side (acp-editor.ts); it talks to the
 * agent directly (the baseline) or through `toolgate acp-proxy` (optionally under `toolgate run`).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type ScriptedToolUse, startFakeAnthropic } from "../claude/fake-anthropic.js";
import { createWorkspace, offlineEnvironment } from "../claude/run-claude.js";
import { removeSnapshot, toolgateCommand } from "../claude/toolgate-cli.js";
import { type Answer, startEditor } from "./acp-editor.js";

const require = createRequire(import.meta.url);

/** claude-code-acp's entry: it runs the Claude Code its own Agent SDK bundles (cli.js) unless CLAUDE_CODE_EXECUTABLE says otherwise. */
export const CLAUDE_CODE_ACP = require.resolve("@zed-industries/claude-code-acp/dist/index.js");

export async function claudeCodeAcp(options: {
  prefix: string;
  /** the model's tool uses, one per turn, then `finalText` */
  toolUses: ScriptedToolUse[];
  finalText?: string;
  /** `direct`: the editor starts the agent itself; `proxy`: through `toolgate acp-proxy`; `run`: and under `toolgate run` */
  through: "direct" | "proxy" | "run";
  /** toolgate's config in the project */
  config?: unknown;
  env?: Record<string, string>;
  answer: Answer;
}) {
  const workspace = createWorkspace(options.prefix);
  if (options.config !== undefined) {
    writeFileSync(join(workspace.project, "toolgate.config.json"), JSON.stringify(options.config));
  }
  const fake = await startFakeAnthropic({
    conversations: { main: options.toolUses.map((use) => ({ toolUses: [use] })) },
    finalText: options.finalText ?? "FINAL: done.",
  });
  const database = join(workspace.root, "toolgate.db");
  const env = {
    ...offlineEnvironment({ baseUrl: fake.url, home: workspace.home }),
    TOOLGATE_DB: database,
    ...options.env,
  };
  const agent = [process.execPath, CLAUDE_CODE_ACP];
  const command =
    options.through === "direct"
      ? agent
      : options.through === "proxy"
        ? toolgateCommand("acp-proxy", "--", ...agent)
        : toolgateCommand("run", "--", ...toolgateCommand("acp-proxy", "--", ...agent));
  const editor = startEditor({ command, env, cwd: workspace.project, answer: options.answer });
  /** the scripted model's turns served so far (main loop) */
  const servedTurns = () => fake.requests.filter((request) => request.served !== undefined).length;
  const close = async () => {
    await editor.close();
    removeSnapshot();
    await fake.close();
    workspace.remove();
  };
  return { workspace, fake, editor, env, database, servedTurns, close };
}
