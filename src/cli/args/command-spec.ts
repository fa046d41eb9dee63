/**
 * How a `toolgate` command declares itself: its help (a one-line summary, details, examples) and its arguments.
 * One parser (parse-command-args.ts) reads every command's arguments from this declaration, so unknown flags and
 * misspelled values are rejected the same way everywhere, and one renderer (help/render-help.ts) prints the help.
 */

export interface ArgSpec {
  /** a positional argument, a flag with a value, an on/off flag, or a flag whose value is one of `options` */
  type: "positional" | "string" | "boolean" | "enum";
  /** one line for the help */
  description: string;
  required?: boolean;
  default?: string | boolean;
  /** the accepted values of an enum flag or of a positional that names one of a few things (a host) */
  options?: readonly string[];
  /** a string flag that may be given more than once; its value is a list */
  multiple?: boolean;
  /** the placeholder in the help, e.g. `duration` for `--since <duration>` */
  valueHint?: string;
}

export type ArgsSpec = Record<string, ArgSpec>;

type HasValue<S> = S extends { required: true } ? true : S extends { default: string } ? true : false;

/** The parsed value of one argument: booleans are always set, other values are undefined when absent. */
export type ArgValue<S extends ArgSpec> = S extends { type: "boolean" }
  ? boolean
  : S extends { multiple: true }
    ? string[]
    : S extends { options: readonly (infer O extends string)[] }
      ? HasValue<S> extends true
        ? O
        : O | undefined
      : HasValue<S> extends true
        ? string
        : string | undefined;

export type ParsedArgs<A extends ArgsSpec> = { -readonly [K in keyof A]: ArgValue<A[K]> };

export interface CommandMeta {
  name: string;
  /** one complete sentence: the root help lists it beside the command name */
  summary: string;
  /**
   * paragraphs shown under the usage line of `toolgate <command> --help`; a function when they show something of
   * this machine (loaded only for the help)
   */
  details?: string | (() => Promise<string>);
  /** what follows the options in the usage line, e.g. `-- <agent command...>` */
  usageTail?: string;
  /** command lines, each optionally followed by `  # comment`; every command has at least one */
  examples: readonly [string, ...string[]];
  /** one line, e.g. `0 allow, 3 ask, 4 deny, 2 usage or config error` */
  exitCodes?: string;
}

export interface CommandContext<A extends ArgsSpec> {
  args: ParsedArgs<A>;
  /** every argument after the command name, as given */
  rawArgs: string[];
  /** the arguments after `--` (or, for a `passthrough` command, from its first positional): never parsed */
  rest: string[];
}

export interface CommandSpec<A extends ArgsSpec = ArgsSpec> {
  meta: CommandMeta;
  args: A;
  /** option parsing stops at the first positional: the rest is another program's command line (`toolgate run`) */
  passthrough?: boolean;
  run(context: CommandContext<A>): void | Promise<void>;
}

/** Declares a command; the argument types of `run` follow from `args`. */
export function defineCommand<const A extends ArgsSpec>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}
