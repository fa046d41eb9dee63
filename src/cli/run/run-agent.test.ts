import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runAgent } from "./run-agent.js";

describe("runAgent's stop", () => {
  it("ends the agent (SIGTERM) as soon as stopWhen gives a reason, and says why", async () => {
    let polls = 0;
    const started = Date.now();
    const run = await runAgent({
      command: [process.execPath, "-e", "setTimeout(() => {}, 60000)"],
      output: new PassThrough(),
      stopWhen: () => (++polls >= 2 ? "toolgate aborted the run" : undefined),
    });
    expect(run.stopped).toBe("toolgate aborted the run");
    expect(run.signal).toBe("SIGTERM");
    expect(run.exitCode).toBe(143);
    expect(Date.now() - started).toBeLessThan(50_000);
  }, 60_000);

  it("SIGKILLs an agent that ignores SIGTERM after the grace period", async () => {
    const output = new PassThrough();
    let ready = false;
    output.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) ready = true;
    });
    const run = await runAgent({
      command: [
        process.execPath,
        "-e",
        "process.on('SIGTERM', () => {}); process.stdout.write('ready\\n'); setInterval(() => {}, 1000)",
      ],
      output,
      // only once the agent has installed its SIGTERM handler (a busy machine may start it slowly)
      stopWhen: () => (ready ? "stop" : undefined),
      stopGraceMs: 300,
    });
    expect(run.signal).toBe("SIGKILL");
  }, 60_000);

  it("leaves an agent alone when nothing asks to stop it", async () => {
    const run = await runAgent({
      command: [process.execPath, "-e", "process.exit(3)"],
      output: new PassThrough(),
      stopWhen: () => undefined,
    });
    expect(run.exitCode).toBe(3);
    expect(run.stopped).toBeUndefined();
  });
});
