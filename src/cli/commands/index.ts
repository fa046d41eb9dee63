import type { CommandDef } from "citty";

/**
 * Every subcommand, loaded lazily so `toolgate hook ...` imports only what it needs. One line per command;
 * each command lives in its own file named after it.
 */
type Lazy = () => Promise<CommandDef>;
const lazy =
  (load: () => Promise<{ default: CommandDef }>): Lazy =>
  () =>
    load().then((module) => module.default);

export const subCommands: Record<string, Lazy> = {
  demo: lazy(() => import("./demo.js")),
};
