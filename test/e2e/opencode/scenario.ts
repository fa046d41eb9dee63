import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import type { ChatMessage, FakeOpenAI, Script } from "./fake-openai.js";
import { startFakeOpenAI } from "./fake-openai.js";
import { type OpencodeRunOptions, type OpencodeRunResult, runOpencode } from "./run-opencode.js";

/** The plugin as opencode loads it in these tests: the TypeScript source, run by opencode's own Bun. */
export const PLUGIN_SOURCE = resolve("src/hosts/opencode/opencode-plugin.ts");
export const TOOLGATE_CLI = resolve("dist/cli/main.js");

export interface ScenarioResult {
  run: OpencodeRunResult;
  fake: FakeOpenAI;
  database: string;
  /** the conversation of each agent request, without the system prompt */
  conversations: ChatMessage[][];
}

/**
 * A plugin file with custom options, written to a directory without package.json (opencode would otherwise try
 * to npm-install that package's dependencies before loading it).
 */
export function pluginWithOptions(optionsSource: string): string {
  const directory = temporaryDirectory("toolgate-opencode-plugin-");
  const file = join(directory, "toolgate.ts");
  writeFileSync(
    file,
    `import { createToolgatePlugin } from ${JSON.stringify(pathToFileURL(PLUGIN_SOURCE).href)};\n` +
      `export default { id: "toolgate-custom", server: createToolgatePlugin(${optionsSource}) };\n`,
  );
  return file;
}

export async function runScenario(
  options: Omit<OpencodeRunOptions, "fake" | "prompt"> & { script: Script; plugin?: string | false; prompt?: string },
): Promise<ScenarioResult> {
  const fake = await startFakeOpenAI(options.script);
  const database = join(temporaryDirectory("toolgate-opencode-db-"), "toolgate.db");
  try {
    const plugins = options.plugin === false ? [] : [options.plugin ?? PLUGIN_SOURCE];
    const run = await runOpencode({
      ...options,
      fake,
      prompt: options.prompt ?? "Please clean up the project",
      plugins,
      env: { TOOLGATE_DB: database, ...options.env },
    });
    const conversations = fake
      .agentRequests()
      .map((request) => (request.body.messages ?? []).filter((message) => message.role !== "system"));
    return { run, fake, database, conversations };
  } finally {
    await fake.close();
  }
}

export function contentOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .map((block: { text?: unknown }) => (typeof block.text === "string" ? block.text : ""))
      .join("");
  }
  return "";
}

/** user messages after the first one: notes injected into the conversation */
export function notesIn(conversation: ChatMessage[]): string[] {
  return conversation
    .filter((message) => message.role === "user")
    .slice(1)
    .map(contentOf);
}

export function toolResultsIn(conversation: ChatMessage[]): string[] {
  return conversation.filter((message) => message.role === "tool").map(contentOf);
}

export function requireBuiltCli(): void {
  if (!existsSync(TOOLGATE_CLI)) throw new Error(`${TOOLGATE_CLI} is missing: run \`npm run build\` first.`);
}
