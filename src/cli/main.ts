#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { closestMatch } from "./args/closest-match.js";
import type { ArgsSpec, CommandSpec } from "./args/command-spec.js";
import { parseCommandArgs } from "./args/parse-command-args.js";
import { subCommands } from "./commands/index.js";
import { EXIT } from "./exit-codes.js";
import { renderCommandHelp, renderRootHelp } from "./help/render-help.js";
import { useColor } from "./help/use-color.js";
import { endQuietlyOnClosedPipe } from "./output/quiet-pipe.js";

const SUMMARY = "Stop AI coding agents from burning their budget on denied tool calls, and make every denial visible.";

function version(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return String(manifest.version);
  } catch {
    return "unknown";
  }
}

async function rootHelp(stream: NodeJS.WriteStream): Promise<void> {
  const commands = await Promise.all(
    Object.entries(subCommands).map(async ([name, load]) => ({ name, summary: (await load()).meta.summary })),
  );
  const color = useColor({ stream, env: process.env });
  stream.write(renderRootHelp({ summary: SUMMARY, version: version(), commands, color }));
}

async function commandHelp(spec: CommandSpec<ArgsSpec>): Promise<void> {
  const color = useColor({ stream: process.stdout, env: process.env });
  const details = typeof spec.meta.details === "function" ? await spec.meta.details() : spec.meta.details;
  process.stdout.write(renderCommandHelp(spec, { color, ...(details === undefined ? {} : { details }) }));
}

function usageError(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = EXIT.usage;
}

function unknownCommand(name: string): void {
  if (name.startsWith("-")) {
    const suggestion = closestMatch(name.replace(/^-+/, ""), ["help", "version"]);
    const hint = suggestion === undefined ? "" : ` (did you mean --${suggestion}?)`;
    usageError(`toolgate: unknown flag ${name}${hint}; a command's flags go after it: toolgate <command> [flags].`);
    return;
  }
  const names = Object.keys(subCommands);
  const suggestion = closestMatch(name, [...names, "help"]);
  const hint = suggestion === undefined ? `the commands are ${names.join(", ")}.` : `did you mean ${suggestion}?`;
  usageError(`toolgate: unknown command ${JSON.stringify(name)}; ${hint}`);
}

/** `toolgate help [command]`. */
async function help(topic: string | undefined, extra: readonly string[]): Promise<void> {
  if (topic === undefined) return rootHelp(process.stdout);
  if (extra.length > 0) return usageError(`toolgate help: give one command, e.g. toolgate help ${topic}.`);
  const load = subCommands[topic];
  if (load === undefined) return unknownCommand(topic);
  await commandHelp(await load());
}

/**
 * Runs the command line. Usage errors (no or unknown command, an unknown flag, a missing or invalid argument) exit
 * 2 with one sentence on stderr before the command does anything; an unexpected error exits 1 with its message,
 * never a stack trace; a closed stdout ends the command quietly.
 */
async function cli(args: string[]): Promise<void> {
  const [first, ...rest] = args;
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (first === "--help" || first === "-h") return rootHelp(process.stdout);
  if (first === undefined) {
    await rootHelp(process.stderr);
    process.exitCode = EXIT.usage;
    return;
  }
  if (first === "help") return help(rest[0], rest.slice(1));
  const load = subCommands[first];
  if (load === undefined) return unknownCommand(first);
  const spec = await load();
  const parsed = parseCommandArgs({ argv: rest, spec: spec.args, passthrough: spec.passthrough === true });
  if (parsed.kind === "help") return commandHelp(spec);
  if (parsed.kind === "error") return usageError(`toolgate ${first}: ${parsed.message}`);
  try {
    await spec.run({ args: parsed.values as never, rawArgs: rest, rest: parsed.rest });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`toolgate ${first}: ${message}\n`);
    process.exitCode = EXIT.error;
  }
}

endQuietlyOnClosedPipe({ stdout: process.stdout, stderr: process.stderr, exit: (code) => process.exit(code) });
await cli(process.argv.slice(2));
