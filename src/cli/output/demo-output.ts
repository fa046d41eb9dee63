import type { DemoResult } from "../../demo/run-demo.js";

/**
 * `toolgate demo --json`: every key always present (`abortError` is null when the run was not aborted). A field
 * added to DemoResult is a type error here until the document (and docs/cli.md) has it.
 */
export function demoDocument(result: DemoResult) {
  return {
    turnCap: result.turnCap,
    callsWithout: result.callsWithout,
    deniedWithout: result.deniedWithout,
    exitWithout: result.exitWithout,
    callsWith: result.callsWith,
    deniedWith: result.deniedWith,
    exitWith: result.exitWith,
    abortError: result.abortError ?? null,
    steps: result.steps.map((step) => ({
      turn: step.turn,
      command: step.command,
      withoutToolgate: step.withoutToolgate,
      withToolgate: [...step.withToolgate],
    })),
  } satisfies Record<keyof DemoResult, unknown>;
}
