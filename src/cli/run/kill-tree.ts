import { execFileSync } from "node:child_process";

/**
 * The processes below `pid` (children, their children, ...), read from `ps` once. An agent command is often a
 * loader that starts the real agent and does not forward signals (an npm loader that runs a native binary with
 * spawnSync): signalling only the direct child leaves the agent running, holding the output pipe open.
 */
export function descendantsOf(pid: number): number[] {
  let listing: string;
  try {
    listing = execFileSync("ps", ["-A", "-o", "pid=", "-o", "ppid="], { encoding: "utf8", timeout: 5_000 });
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const line of listing.split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child === undefined || parent === undefined || Number.isNaN(child) || Number.isNaN(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Sends `signal` to the child and every process below it (listed before the child is signalled, so none is missed
 * by being re-parented when its parent exits first). Processes already gone are skipped.
 */
export function signalTree(
  child: { pid?: number | undefined; kill(signal: NodeJS.Signals): boolean },
  signal: NodeJS.Signals,
): void {
  const below = child.pid === undefined ? [] : descendantsOf(child.pid);
  child.kill(signal);
  for (const pid of below) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
