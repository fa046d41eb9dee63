/**
 * Child-process worker for the file store's fault tests: takes a session's lock file with the real lock code, tells
 * the parent (IPC "held"), and then holds it until it is killed. argv: lock file path.
 */
import { acquireSessionLock } from "../../src/store/file/session-lock.js";

const [path] = process.argv.slice(2) as [string];
await acquireSessionLock({ path, sessionId: "held" });
process.send?.("held");
setInterval(() => undefined, 60_000);
