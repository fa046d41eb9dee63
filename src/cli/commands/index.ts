import type { SubCommandsDef } from "citty";

/**
 * Every subcommand, loaded lazily so `toolgate hook ...` imports only what it needs. One line per command;
 * each command lives in its own file named after it.
 */
type Lazy = SubCommandsDef[string];
const lazy =
  (load: () => Promise<{ default: SubCommandsDef[string] }>): Lazy =>
  () =>
    load().then((module) => module.default) as never;

export const subCommands: SubCommandsDef = {
  check: lazy(() => import("./check.js")),
  demo: lazy(() => import("./demo.js")),
  hook: lazy(() => import("./hook.js")),
  import: lazy(() => import("./import.js")),
  install: lazy(() => import("./install.js")),
  uninstall: lazy(() => import("./uninstall.js")),
  run: lazy(() => import("./run.js")),
  report: lazy(() => import("./report.js")),
  tail: lazy(() => import("./tail.js")),
  scrub: lazy(() => import("./scrub.js")),
  prune: lazy(() => import("./prune.js")),
  redact: lazy(() => import("./redact.js")),
};
