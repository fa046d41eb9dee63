import type { ArgsSpec, CommandSpec } from "../args/command-spec.js";

/**
 * Every subcommand, loaded lazily so `toolgate hook ...` imports only what it needs. One line per command, in the
 * order the root help lists them; each command lives in its own file named after it.
 */
type Load = () => Promise<CommandSpec<ArgsSpec>>;
const lazy =
  (load: () => Promise<{ default: unknown }>): Load =>
  () =>
    load().then((module) => module.default as CommandSpec<ArgsSpec>);

export const subCommands: Record<string, Load> = {
  demo: lazy(() => import("./demo.js")),
  check: lazy(() => import("./check.js")),
  import: lazy(() => import("./import.js")),
  install: lazy(() => import("./install.js")),
  uninstall: lazy(() => import("./uninstall.js")),
  hook: lazy(() => import("./hook.js")),
  run: lazy(() => import("./run.js")),
  report: lazy(() => import("./report.js")),
  dashboard: lazy(() => import("./dashboard.js")),
  analyze: lazy(() => import("./analyze.js")),
  tail: lazy(() => import("./tail.js")),
  scrub: lazy(() => import("./scrub.js")),
  prune: lazy(() => import("./prune.js")),
  doctor: lazy(() => import("./doctor.js")),
  redact: lazy(() => import("./redact.js")),
  "mcp-proxy": lazy(() => import("./mcp-proxy.js")),
  "acp-proxy": lazy(() => import("./acp-proxy.js")),
};
