import { fork } from "node:child_process";

/** Forks `count` copies of a bundled worker script and resolves when all exit 0 (rejects with stderr otherwise). */
export async function runWorkers(options: { script: string; count: number; args: (index: number) => string[] }) {
  await Promise.all(
    Array.from(
      { length: options.count },
      (_, index) =>
        new Promise<void>((resolve, reject) => {
          const child = fork(options.script, options.args(index), { stdio: ["ignore", "ignore", "pipe", "ipc"] });
          let stderr = "";
          child.stderr?.on("data", (chunk) => {
            stderr += String(chunk);
          });
          // "close", not "exit": stderr and IPC messages may still be unread when "exit" fires
          child.on("close", (code) =>
            code === 0 ? resolve() : reject(new Error(`worker ${index} exited ${code}: ${stderr}`)),
          );
        }),
    ),
  );
}
