import { HOOK_SERVER_PROTOCOL } from "./hook-server.js";
import { type HookServerAddress, readServerFile } from "./hook-server-start.js";

/**
 * The queries toolgate's own commands ask a resident hook server (docs/resident-hook.md): `cpu` (`toolgate doctor`:
 * is it answering?) and `stop` (`toolgate uninstall`). Node's side of the wire format in hook-server.ts; the bash
 * client sends the hook events.
 */

/** The server's one-line answer to `query` (`cpu 1234`, `stopped`), or undefined: no answer within `timeoutMs`. */
export async function askHookServer(
  address: Pick<HookServerAddress, "port" | "token">,
  query: "cpu" | "stop",
  options: { timeoutMs?: number } = {},
): Promise<string | undefined> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const { connect } = process.getBuiltinModule("node:net") as typeof import("node:net");
  return new Promise((resolve) => {
    const socket = connect(address.port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const line = text.indexOf("\n");
      resolve(line < 0 ? undefined : text.slice(0, line));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("connect", () => socket.write(`${HOOK_SERVER_PROTOCOL} ${address.token} ${query}\n`));
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (text.includes("\n")) done();
    });
    socket.on("error", done);
    socket.on("close", done);
  });
}

/**
 * Asks the server of `serverFile` to stop. Its pid when it said it stops; undefined when there is no server file, or
 * no server answered (none running, or one that does not answer: it is left as it is).
 */
export async function stopHookServer(serverFile: string): Promise<number | undefined> {
  const address = readServerFile(serverFile);
  if (address === undefined) return undefined;
  return (await askHookServer(address, "stop")) === "stopped" ? address.pid : undefined;
}
