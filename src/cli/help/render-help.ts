import type { ArgSpec, CommandSpec } from "../args/command-spec.js";
import { headingStyle } from "./use-color.js";

const PROGRAM = "toolgate";

function flagLabel(name: string, arg: ArgSpec): string {
  if (arg.type === "boolean") return arg.default === true ? `--no-${name}` : `--${name}`;
  const value = arg.valueHint ?? (arg.options ? arg.options.join("|") : name);
  return `--${name} <${value}>`;
}

function flagNote(arg: ArgSpec): string {
  const notes: string[] = [];
  if (arg.multiple === true) notes.push("repeatable");
  if (arg.required === true) notes.push("required");
  if (arg.type === "boolean" && arg.default === true) notes.push("on by default");
  else if (typeof arg.default === "string") notes.push(`default: ${arg.default}`);
  return notes.length === 0 ? "" : ` (${notes.join("; ")})`;
}

function positionalLabel(name: string, arg: ArgSpec): string {
  const label = arg.multiple === true ? `${name}...` : name;
  return arg.required === true ? `<${label}>` : `[${label}]`;
}

function table(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

/** `toolgate <command> --help`: usage, details, arguments, options, exit codes, examples. Plain text unless `color`. */
export function renderCommandHelp(spec: CommandSpec, options: { color: boolean; details?: string }): string {
  const heading = headingStyle(options.color);
  const entries = Object.entries(spec.args);
  const positionals = entries.filter(([, arg]) => arg.type === "positional");
  const flags = entries.filter(([, arg]) => arg.type !== "positional");
  const usage = [PROGRAM, spec.meta.name, ...positionals.map(([name, arg]) => positionalLabel(name, arg))];
  if (flags.length > 0) usage.push("[options]");
  if (spec.meta.usageTail !== undefined) usage.push(spec.meta.usageTail);
  const out: string[] = [spec.meta.summary, "", `${heading("Usage:")} ${usage.join(" ")}`];
  const details = options.details ?? (typeof spec.meta.details === "string" ? spec.meta.details : undefined);
  if (details !== undefined) out.push("", details.trim());
  if (positionals.length > 0) {
    out.push("", heading("Arguments:"));
    const rows: [string, string][] = positionals.map(([name, arg]) => {
      const values = arg.options ? ` (${arg.options.join(", ")})` : "";
      const fallback = typeof arg.default === "string" ? ` (default: ${arg.default})` : "";
      return [positionalLabel(name, arg), `${arg.description}${values}${fallback}`];
    });
    out.push(...table(rows));
  }
  out.push("", heading("Options:"));
  const rows: [string, string][] = flags.map(([name, arg]) => [
    flagLabel(name, arg),
    `${arg.description}${flagNote(arg)}`,
  ]);
  rows.push(["-h, --help", "show this help"]);
  out.push(...table(rows));
  if (spec.meta.exitCodes !== undefined) out.push("", `${heading("Exit codes:")} ${spec.meta.exitCodes}`);
  out.push("", heading("Examples:"), ...spec.meta.examples.map((example) => `  ${example}`));
  return `${out.join("\n")}\n`;
}

/** `toolgate --help`: one complete line per command. */
export function renderRootHelp(options: {
  summary: string;
  version: string;
  commands: readonly { name: string; summary: string }[];
  color: boolean;
}): string {
  const heading = headingStyle(options.color);
  const rows: [string, string][] = options.commands.map((command) => [command.name, command.summary]);
  const out = [
    `${options.summary} (toolgate ${options.version})`,
    "",
    `${heading("Usage:")} ${PROGRAM} <command> [options]`,
    "",
    heading("Commands:"),
    ...table(rows),
    "",
    "Run `toolgate help <command>` (or `toolgate <command> --help`) for its options and examples.",
    "Exit codes and every command: docs/cli.md. `toolgate --version` prints the version.",
  ];
  return `${out.join("\n")}\n`;
}
