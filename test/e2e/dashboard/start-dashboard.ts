import { type ChildProcess, spawn } from "node:child_process";
import { toolgateCommand } from "../claude/toolgate-cli.js";

/** Runs `toolgate dashboard` (the built CLI) and resolves with the URL it prints; `stop` sends SIGINT and waits. */
export async function startDashboard(options: { env: Record<string, string>; cwd: string; args?: string[] }) {
  const [node, ...args] = toolgateCommand("dashboard", ...(options.args ?? []));
  const child: ChildProcess = spawn(node as string, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk);
      const match = /toolgate dashboard: (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`toolgate dashboard exited ${code}: ${stderr}`));
    });
  });
  return {
    url,
    stderr: () => stderr,
    stop: () =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGINT");
      }),
  };
}
