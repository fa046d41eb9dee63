// The part of `@opencode-ai/plugin` (1.18.33) that toolgate compiles against, written by hand: the names toolgate
// imports and the hooks it implements, with the types of `@opencode-ai/sdk` (a root devDependency, the version the
// plugin depends on). tsconfig.json maps the package name here; test/e2e/declared-types.test.ts compiles
// test/e2e/declared-types/opencode-plugin.checks.ts against the installed package to prove they agree. Consumers
// compile against the real package (dist/*.d.ts import it by name).
import type { Event, Message, OpencodeClient, Part, Permission, UserMessage } from "@opencode-ai/sdk";

/** What opencode hands a plugin; toolgate uses the client and the project directory. */
export interface PluginInput {
  client: OpencodeClient;
  directory: string;
}

export type PluginOptions = Record<string, unknown>;

export type Plugin = (input: PluginInput, options?: PluginOptions) => Promise<Hooks>;

/** The hooks toolgate's plugin (and the end-to-end probe plugin) implement. */
export interface Hooks {
  dispose?: () => Promise<void>;
  event?: (input: { event: Event }) => Promise<void>;
  "chat.message"?: (input: { sessionID: string }, output: { message: UserMessage; parts: Part[] }) => Promise<void>;
  "permission.ask"?: (input: Permission, output: { status: "ask" | "deny" | "allow" }) => Promise<void>;
  "tool.execute.before"?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: unknown },
  ) => Promise<void>;
  "tool.execute.after"?: (
    input: { tool: string; sessionID: string; callID: string; args: unknown },
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
  "experimental.chat.messages.transform"?: (
    // biome-ignore lint/complexity/noBannedTypes: the plugin's own type for this hook's (empty) input
    input: {},
    output: { messages: { info: Message; parts: Part[] }[] },
  ) => Promise<void>;
}
