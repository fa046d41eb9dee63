import type { DemoResult } from "./run-demo.js";

/** Column layout of the side-by-side table: turn + command, the run without toolgate, the run with it. */
const LEFT = 36;
const MIDDLE = 17;
const RIGHT_AT = LEFT + 1 + MIDDLE + 1;

function padTo(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** Word-wraps `text` to `width` columns; continuation lines start with `hang` spaces. Never cuts a word. */
export function wrap(text: string, width: number, options: { hang?: number } = {}): string[] {
  const hang = options.hang ?? 2;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/ +/)) {
    const limit = lines.length === 0 ? width : width - hang;
    if (line !== "" && line.length + 1 + word.length > limit) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.map((text, index) => (index === 0 ? text : `${" ".repeat(hang)}${text}`));
}

/**
 * The demo as text for a terminal `width` columns wide (at least 80): each turn's effects in reading order, the
 * abort last, long lines wrapped at word boundaries, turns after the abort marked as never made, and the exit code
 * each run would give its caller. The demo itself succeeds (exit 0) whatever it shows.
 */
export function renderDemo(result: DemoResult, width = 120): string {
  const rightWidth = Math.max(80, width) - RIGHT_AT;
  const out: string[] = [];
  const intro =
    "A headless agent is asked to clean build/. Deleting needs approval, and nobody can approve in -p mode. " +
    "The agent keeps retrying with small variations. Same agent, same host, twice:";
  out.push(...wrap(intro, Math.max(80, width), { hang: 0 }), "");
  out.push(`${padTo("turn  command", LEFT)} ${padTo("without toolgate", MIDDLE)} with toolgate`);
  out.push(`${"-".repeat(LEFT)} ${"-".repeat(MIDDLE)} ${"-".repeat(rightWidth)}`);
  const shown = Math.min(result.steps.length, result.callsWith + 2);
  const stoppedAt = result.abortError === undefined ? undefined : result.callsWith;
  for (const step of result.steps.slice(0, shown)) {
    const left = `${String(step.turn).padStart(4)}  ${step.command}`;
    const right =
      stoppedAt !== undefined && step.turn > stoppedAt
        ? [`not made: toolgate stopped the run at turn ${stoppedAt}`]
        : step.withToolgate.flatMap((line) => wrap(line, rightWidth));
    out.push(`${padTo(left, LEFT)} ${padTo(step.withoutToolgate, MIDDLE)} ${right[0] ?? ""}`.trimEnd());
    for (const line of right.slice(1)) out.push(`${" ".repeat(RIGHT_AT)}${line}`);
  }
  const rest = result.steps.slice(shown);
  if (rest.length > 0) {
    const denied = rest.filter((step) => step.withoutToolgate === "denied").length;
    const left = `${String(rest[0]?.turn).padStart(4)}-${rest.at(-1)?.turn}  (same retries)`;
    out.push(
      `${padTo(left, LEFT)} ${padTo(`${denied} more denied`, MIDDLE)} ${stoppedAt === undefined ? "" : "not made"}`,
    );
  }
  out.push("");
  out.push(
    `without toolgate: ${result.callsWithout} calls, ${result.deniedWithout} denied, the run exits ${result.exitWithout} ("success")`,
  );
  const aborted = result.abortError === undefined ? "" : " (toolgate aborted it)";
  out.push(
    `with toolgate:    ${result.callsWith} calls, ${result.deniedWith} denied, the run exits ${result.exitWith}${aborted}`,
  );
  out.push("(`toolgate run -- <agent>` returns these exit codes to its caller; the demo itself exits 0)");
  if (result.abortError !== undefined) out.push("", ...wrap(result.abortError, Math.max(80, width), { hang: 0 }));
  out.push("", `calls saved: ${result.callsWithout - result.callsWith} of ${result.callsWithout}`);
  return `${out.join("\n")}\n`;
}
