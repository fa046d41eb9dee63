// An in-process host (any agent loop) reporting its tool calls to a toolgate guard.
// Type-checked by `npm run typecheck`; the README quotes it.
import { createGuard, textForModel } from "toolgate";

const guard = createGuard({ core: { headlessStrategy: "abort" } });
const session = guard.session("run-42", { interactive: false, host: "my-agent" });

await session.turnStarted();
const call = { toolUseId: "call_1", tool: "Bash", input: { command: "rm -rf build" } };
// your host denied the call (its own rule, a user, a sandbox...): tell toolgate, and pass its words to the model
const effects = await session.denied(call, { source: "headless", reason: "requires approval" });
const toolResult = `Permission denied.\n${textForModel(effects)}`;
const abort = effects.find((effect) => effect.type === "abort");
if (abort !== undefined) {
  console.error(abort.error); // names the tool, the count, the call, and the rule that would allow it
  process.exitCode = 6;
}
console.log(toolResult);
await session.end();
