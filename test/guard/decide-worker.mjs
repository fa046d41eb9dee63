// Child process for the one-decision concurrency test: opens toolgate through the composition root (built dist),
// says "ready" to the parent, waits for "go" (so all workers decide at the same moment), decides `count`
// rule-denied calls of one shared session one after another, and exits. argv: sessionId, worker name, count,
// interactive (1|0). The project directory (config) is the working directory; the store comes from the env.
import { openToolgate } from "../../dist/root/index.js";

const [sessionId, name, count, interactive] = process.argv.slice(2);
const toolgate = await openToolgate({ host: "test", onError: (error) => process.stderr.write(`${String(error)}\n`) });
try {
  const session = toolgate.guard.session(sessionId, { interactive: interactive === "1", host: "test" });
  await new Promise((resolve) => {
    process.once("message", resolve);
    process.send?.("ready");
  });
  // one call after another, as a hook process answers one event at a time: the workers contend with each other for
  // the session's lock (8 waiters at most). On a loaded machine a call can still wait past the lock's 1.5 s budget:
  // it is refused fail-closed (`internal`, its record spooled with no count) and the parent is told how many were.
  const results = [];
  for (let index = 0; index < Number(count); index += 1) {
    results.push(
      await session.decide({
        toolUseId: `${name}-${index}`,
        tool: "Bash",
        input: { command: `rm -rf build-${name}-${index}` },
      }),
    );
  }
  for (const result of results) {
    if (result.decision.behavior !== "deny") throw new Error(`a call of ${name} was not denied`);
  }
  const refusedByLock = results.filter((result) => result.decision.denialSource === "internal").length;
  await new Promise((resolve) => process.send?.({ refusedByLock }, resolve));
} finally {
  await toolgate.close();
}
