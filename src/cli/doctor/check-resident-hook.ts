import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { askHookServer } from "../../hook-runtime/hook-server-client.js";
import { serverLogFile } from "../../hook-runtime/hook-server-log.js";
import { readServerFile } from "../../hook-runtime/hook-server-start.js";
import { type DoctorCheck, type DoctorContext, ok, warn } from "../../hosts/common/doctor-check.js";
import { isAlive } from "../../store/file/session-lock.js";
import { toolgateHome } from "../../store/resolve-store-location.js";

/**
 * The resident hook servers of this user (docs/resident-hook.md), one line each: running and answering, or a file a
 * server left behind, or a server that does not answer. None when no server file exists (no `install --resident`,
 * or none started yet). A server that does not answer costs each event 10 s before the Node hook answers.
 */
export async function checkResidentHook(context: DoctorContext): Promise<DoctorCheck[]> {
  const directory = join(toolgateHome(context.home), "run");
  if (!existsSync(directory)) return [];
  const files = readdirSync(directory)
    .filter((name) => name.endsWith(".server"))
    .sort();
  const checks: DoctorCheck[] = [];
  for (const name of files) {
    const file = join(directory, name);
    const address = readServerFile(file);
    if (address === undefined || !isAlive(address.pid)) {
      checks.push(
        ok(
          "resident hook server",
          `${file}: left by a server that is gone; the next hook event runs the Node hook, which starts a new one`,
        ),
      );
      continue;
    }
    const answers = /^cpu \d+$/.test((await askHookServer(address, "cpu")) ?? "");
    checks.push(
      answers
        ? ok(
            "resident hook server",
            `running (pid ${address.pid}, 127.0.0.1:${address.port}) and answering: ${file} (its log: ${serverLogFile(file)})`,
          )
        : warn(
            "resident hook server",
            `pid ${address.pid} holds ${file} but does not answer on 127.0.0.1:${address.port}; each event waits up to 10 s for it before the Node hook answers (its log: ${serverLogFile(file)})`,
            { fix: `kill ${address.pid}   # the next hook event starts a new server` },
          ),
    );
  }
  return checks;
}
