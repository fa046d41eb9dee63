import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand, KEPT_ANALYSIS_SHAPE } from "./analyze-shell-command.js";

// V8's own functions (`%OptimizeFunctionOnNextCall`, ...) and `gc`, enabled for this file only
setFlagsFromString("--allow-natives-syntax");
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const natives = {
  prepare: new Function("f", "%PrepareFunctionForOptimization(f)") as (f: unknown) => void,
  optimizeNext: new Function("f", "%OptimizeFunctionOnNextCall(f)") as (f: unknown) => void,
  status: new Function("f", "return %GetOptimizationStatus(f)") as (f: unknown) => number,
};
/** `%GetOptimizationStatus`: the function has optimised code (Node 20's V8) */
const OPTIMIZED = 1 << 4;

describe("analyzeShellCommand and major garbage collections", () => {
  it("keeps its optimised code through a full collection when no analysis outlives it", () => {
    // the shape a collection would otherwise drop is held by the module's kept analysis
    expect(KEPT_ANALYSIS_SHAPE.subcommands).toEqual([]);
    const lines = (index: number) => [
      `git status --short ${index}`,
      `cd /repo && npm test ${index} | grep ok`,
      `echo "a b" > out${index}.txt`,
    ];
    const analyze = (index: number) => {
      let count = 0;
      for (const line of lines(index)) count += analyzeShellCommand(line).subcommands.length;
      return count;
    };
    const optimized = () => (natives.status(analyzeShellCommand) & OPTIMIZED) === OPTIMIZED;
    natives.prepare(analyzeShellCommand);
    for (let index = 0; index < 50; index++) analyze(index);
    // optimised, and still so after more calls (a first optimisation may meet a shape it has not seen yet)
    for (let round = 0; round < 5 && !optimized(); round++) {
      natives.optimizeNext(analyzeShellCommand);
      for (let index = 0; index < 50; index++) analyze(index);
    }
    expect(optimized()).toBe(true);
    // nothing holds a fresh analysis now; a full collection must not take its object shape (and the code) away
    gc();
    gc();
    expect(optimized()).toBe(true);
  });
});
