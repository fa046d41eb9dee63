import { resolve } from "node:path";
import { test } from "vitest";
import { bash, sequenceScript, startFakeOpenAI, toolStep } from "./fake-openai.js";
import { runOpencode } from "./run-opencode.js";

test("smoke", async () => {
  const fake = await startFakeOpenAI(sequenceScript([toolStep(bash("rm -rf victim")), toolStep(bash("rm -rf victim")), toolStep(bash("rm -rf victim"))]));
  const r = await runOpencode({ fake, prompt: "delete victim", permission: { bash: { "*": "allow", "rm *": "deny" } },
    plugins: [resolve("src/adapters/opencode/index.ts")], files: { "victim/x": "x" }, env: { TOOLGATE_DB: "/tmp/oc-scratch/tg.db" } });
  console.log(JSON.stringify({ ...r, stdout: r.stdout.slice(0, 2000), stderr: r.stderr.slice(-3000) }, null, 1));
  for (const q of fake.agentRequests()) console.log(JSON.stringify(q.body.messages?.filter((m) => m.role !== "system").slice(-3)).slice(0, 1500));
  await fake.close();
}, 120000);
