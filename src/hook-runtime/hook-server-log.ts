import { appendFileSync, renameSync, statSync } from "node:fs";
import { redactText } from "../detect/redact.js";

/**
 * The resident hook server's log (docs/resident-hook.md): `~/.toolgate/run/hook-<install>.log` beside its server
 * file, mode 0600. It says when the server started and stopped and why, and what went wrong after an answer (a
 * delivery that failed, a drain past its budget), which a hook process would have written to the host's stderr and a
 * server, with no terminal, can only write here. Each line is redacted like every other toolgate output; past 1 MB the
 * log is moved to `<log>.1` (the one before is dropped), so it stays under 2 MB.
 */
export const SERVER_LOG_LIMIT_BYTES = 1024 * 1024;

/** The log file of the server whose address is in `serverFile`. */
export function serverLogFile(serverFile: string): string {
  return `${serverFile.replace(/\.server$/, "")}.log`;
}

/** Appends one line, `<ISO time> [<pid>] <message>`, redacted and on one line. Never throws. */
export function appendServerLog(
  file: string,
  message: string,
  options: { now?: number; limitBytes?: number } = {},
): void {
  try {
    try {
      if (statSync(file).size >= (options.limitBytes ?? SERVER_LOG_LIMIT_BYTES)) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    const text = redactText(message).replace(/\s+/g, " ").trim().slice(0, 4000);
    appendFileSync(file, `${new Date(options.now ?? Date.now()).toISOString()} [${process.pid}] ${text}\n`, {
      mode: 0o600,
    });
  } catch {
    // a log that cannot be written changes no answer
  }
}
