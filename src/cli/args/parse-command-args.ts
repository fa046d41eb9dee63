import { closestMatch } from "./closest-match.js";
import type { ArgSpec, ArgsSpec } from "./command-spec.js";

/**
 * Reads a command's arguments strictly from its declaration: an unknown flag, a flag without its value, a value
 * that is not one of the accepted ones, a missing or extra positional is a usage error whose one sentence names the
 * closest valid flag or value. Nothing after `--` (or, for a passthrough command, from its first positional on) is
 * read: it belongs to another program.
 */
export type ParseOutcome =
  | { kind: "help" }
  | { kind: "error"; message: string }
  | { kind: "ok"; values: Record<string, unknown>; rest: string[] };

const HELP_FLAGS = new Set(["--help", "-h"]);

function flagsOf(spec: ArgsSpec): [string, ArgSpec][] {
  return Object.entries(spec).filter(([, arg]) => arg.type !== "positional");
}

/** The flag names a person can type, in the order of the declaration (`--no-x` for flags on by default). */
function typeableFlags(spec: ArgsSpec): string[] {
  const names = flagsOf(spec).map(([name, arg]) =>
    arg.type === "boolean" && arg.default === true ? `no-${name}` : name,
  );
  return [...names, "help"];
}

function list(items: readonly string[], conjunction: "and" | "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

function unknownFlag(raw: string, spec: ArgsSpec): string {
  const typed = raw.replace(/^-+/, "").split("=")[0] ?? "";
  const flags = typeableFlags(spec);
  const suggestion = closestMatch(typed, flags);
  if (suggestion !== undefined) return `unknown flag ${raw.split("=")[0]}; did you mean --${suggestion}?`;
  return `unknown flag ${raw.split("=")[0]}; the flags are ${list(
    flags.map((flag) => `--${flag}`),
    "and",
  )}.`;
}

function unknownValue(what: string, value: string, options: readonly string[]): string {
  const suggestion = closestMatch(value, options);
  const hint = suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`;
  return `unknown ${what} ${JSON.stringify(value)}${hint}; use ${list(options, "or")}.`;
}

function placeholder(name: string, arg: ArgSpec): string {
  return arg.valueHint ?? (arg.options ? arg.options.join("|") : name);
}

/** Where this command's own arguments end: at `--`, or for a passthrough command at its first positional. */
function splitOwn(argv: readonly string[], spec: ArgsSpec, passthrough: boolean): { own: string[]; rest: string[] } {
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === "--") return { own: argv.slice(0, index), rest: argv.slice(index + 1) };
    if (passthrough && (!argument.startsWith("-") || argument === "-")) {
      return { own: argv.slice(0, index), rest: argv.slice(index) };
    }
    const takesValue = argument.startsWith("--") && !argument.includes("=") && spec[argument.slice(2)];
    if (takesValue && takesValue.type !== "boolean" && takesValue.type !== "positional") index++;
  }
  return { own: [...argv], rest: [] };
}

export function parseCommandArgs(options: {
  argv: readonly string[];
  spec: ArgsSpec;
  passthrough?: boolean;
}): ParseOutcome {
  const { spec } = options;
  const { own, rest } = splitOwn(options.argv, spec, options.passthrough === true);
  if (own.some((argument) => HELP_FLAGS.has(argument))) return { kind: "help" };
  const values: Record<string, unknown> = {};
  const positionals: string[] = options.passthrough === true ? [] : [...rest];
  const ownPositionals: string[] = [];
  for (let index = 0; index < own.length; index++) {
    const argument = own[index] as string;
    if (argument === "-" || !argument.startsWith("-") || /^-\d/.test(argument)) {
      ownPositionals.push(argument);
      continue;
    }
    if (!argument.startsWith("--")) return { kind: "error", message: unknownFlag(argument, spec) };
    const equals = argument.indexOf("=");
    const name = argument.slice(2, equals === -1 ? undefined : equals);
    const inline = equals === -1 ? undefined : argument.slice(equals + 1);
    const negated = name.startsWith("no-") && spec[name.slice(3)]?.type === "boolean";
    const key = negated ? name.slice(3) : name;
    const arg = spec[key];
    if (arg === undefined || arg.type === "positional") return { kind: "error", message: unknownFlag(argument, spec) };
    if (arg.type === "boolean") {
      if (inline !== undefined) return { kind: "error", message: `--${name} takes no value (got ${argument}).` };
      values[key] = !negated;
      continue;
    }
    const value = inline ?? own[index + 1];
    if (value === undefined || (inline === undefined && value.startsWith("--"))) {
      return { kind: "error", message: `--${key} needs a value, e.g. --${key} <${placeholder(key, arg)}>.` };
    }
    if (inline === undefined) index++;
    if (arg.options !== undefined && !arg.options.includes(value)) {
      return { kind: "error", message: unknownValue(`--${key} value`, value, arg.options) };
    }
    if (arg.multiple === true) values[key] = [...((values[key] as string[] | undefined) ?? []), value];
    else values[key] = value;
  }
  positionals.unshift(...ownPositionals);
  const declared = Object.entries(spec).filter(([, arg]) => arg.type === "positional");
  for (const [name, arg] of declared) {
    if (arg.multiple === true) {
      // a trailing list of positionals (`analyze [paths...]`)
      values[name] = positionals.splice(0);
      continue;
    }
    const value = positionals.shift();
    if (value === undefined) {
      if (arg.required === true) {
        return { kind: "error", message: `missing <${name}>: ${arg.description}.` };
      }
      if (arg.default !== undefined) values[name] = arg.default;
      continue;
    }
    if (arg.options !== undefined && !arg.options.includes(value)) {
      return { kind: "error", message: unknownValue(name, value, arg.options) };
    }
    values[name] = value;
  }
  if (positionals.length > 0) {
    const extra = JSON.stringify(positionals[0]);
    const takes = declared.map(([name, arg]) => (arg.required === true ? `<${name}>` : `[${name}]`)).join(" ");
    const expected = takes === "" ? "no arguments besides its flags" : `only ${takes}`;
    return { kind: "error", message: `unexpected argument ${extra}: this command takes ${expected}.` };
  }
  for (const [name, arg] of flagsOf(spec)) {
    if (name in values) continue;
    if (arg.type === "boolean") values[name] = arg.default === true;
    else if (arg.multiple === true) values[name] = [];
    else if (arg.default !== undefined) values[name] = arg.default;
    else if (arg.required === true) {
      return { kind: "error", message: `--${name} is required, e.g. --${name} <${placeholder(name, arg)}>.` };
    }
  }
  return { kind: "ok", values, rest: options.passthrough === true ? rest : [] };
}
