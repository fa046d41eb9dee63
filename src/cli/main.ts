#!/usr/bin/env node
import { type CommandDef, defineCommand, runCommand, showUsage } from "citty";
import { subCommands } from "./commands/index.js";
import { EXIT } from "./exit-codes.js";

const VERSION = "0.1.0";
const main = defineCommand({
  meta: {
    name: "toolgate",
    version: VERSION,
    description: "Stop AI coding agents from burning their budget on denied tool calls, and make every denial visible.",
  },
  subCommands,
});

async function load(name: string): Promise<CommandDef | undefined> {
  const entry = subCommands[name];
  if (entry === undefined) return undefined;
  return (typeof entry === "function" ? await entry() : await entry) as CommandDef;
}

/** The root's help lists each command with the first line of its description; `<command> --help` shows the rest. */
async function rootUsage(write: (text: string) => void): Promise<void> {
  const lines = [
    "Stop AI coding agents from burning their budget on denied tool calls, and make every denial visible.",
    "",
    "Usage: toolgate <command> [options]",
    "",
    "Commands:",
  ];
  for (const name of Object.keys(subCommands)) {
    const command = await load(name);
    const meta = (typeof command?.meta === "function" ? await command.meta() : await command?.meta) ?? {};
    lines.push(`  ${name.padEnd(10)} ${(meta.description ?? "").split("\n")[0]}`);
  }
  lines.push("", "Run `toolgate <command> --help` for a command's options and examples. Exit codes: docs/cli.md.");
  write(`${lines.join("\n")}\n`);
}

/**
 * Runs the command line. Usage errors (no or unknown command, a missing or invalid argument) exit 2 with one
 * sentence on stderr; an unexpected error exits 1 with its message, never a stack trace.
 */
async function cli(args: string[]): Promise<void> {
  const [first] = args;
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (first === undefined || first === "--help" || first === "-h") {
    await rootUsage((text) => (first === undefined ? process.stderr : process.stdout).write(text));
    if (first === undefined) process.exitCode = EXIT.usage;
    return;
  }
  const command = await load(first);
  if (command === undefined) {
    process.stderr.write(`toolgate: unknown command "${first}".\n`);
    await rootUsage((text) => process.stderr.write(text));
    process.exitCode = EXIT.usage;
    return;
  }
  const separator = args.indexOf("--");
  const ownArgs = separator === -1 ? args : args.slice(0, separator);
  if (ownArgs.includes("--help") || ownArgs.includes("-h")) {
    await showUsage(command, main);
    return;
  }
  try {
    await runCommand(main, { rawArgs: args });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && error.name === "CLIError") {
      const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
      process.stderr.write(`toolgate ${first}: ${sentence} Run \`toolgate ${first} --help\` for usage.\n`);
      process.exitCode = EXIT.usage;
    } else {
      process.stderr.write(`toolgate ${first}: ${message}\n`);
      process.exitCode = EXIT.error;
    }
  }
}

await cli(process.argv.slice(2));
