import { describe, expect, it } from "vitest";
import type { ArgsSpec } from "./command-spec.js";
import { parseCommandArgs } from "./parse-command-args.js";

const spec = {
  host: { type: "positional", description: "the host", required: true, options: ["claude-code", "opencode"] },
  file: { type: "positional", description: "a file" },
  "dry-run": { type: "boolean", description: "do not write" },
  follow: { type: "boolean", description: "keep going", default: true },
  format: { type: "enum", description: "format", options: ["text", "json"], default: "text" },
  since: { type: "string", description: "window", default: "7d" },
  grant: { type: "string", description: "grant", multiple: true },
} satisfies ArgsSpec;

const parse = (argv: string[], passthrough = false) => parseCommandArgs({ argv, spec, passthrough });

describe("parseCommandArgs", () => {
  it("reads positionals, booleans, negations, enums, inline values and repeated flags, with defaults", () => {
    expect(
      parse(["opencode", "a.json", "--dry-run", "--no-follow", "--format=json", "--grant", "A", "--grant=B"]),
    ).toEqual({
      kind: "ok",
      values: {
        host: "opencode",
        file: "a.json",
        "dry-run": true,
        follow: false,
        format: "json",
        since: "7d",
        grant: ["A", "B"],
      },
      rest: [],
    });
  });
  it("rejects an unknown flag, naming the closest", () => {
    expect(parse(["claude-code", "--dryrun"])).toEqual({
      kind: "error",
      message: "unknown flag --dryrun; did you mean --dry-run?",
    });
    expect(parse(["claude-code", "-dry-run"])).toMatchObject({
      message: "unknown flag -dry-run; did you mean --dry-run?",
    });
    expect(parse(["claude-code", "--verbose"])).toMatchObject({
      message: "unknown flag --verbose; the flags are --dry-run, --no-follow, --format, --since, --grant and --help.",
    });
  });
  it("rejects a misspelled value of an enum flag or positional, naming the closest", () => {
    expect(parse(["claude-code", "--format", "jsn"])).toMatchObject({
      message: 'unknown --format value "jsn" (did you mean json?); use text or json.',
    });
    expect(parse(["claude"])).toMatchObject({
      message: 'unknown host "claude" (did you mean claude-code?); use claude-code or opencode.',
    });
  });
  it("rejects a missing value, a value on a boolean, a missing positional and an extra one", () => {
    expect(parse(["claude-code", "--since"])).toMatchObject({
      kind: "error",
      message: expect.stringContaining("needs a value"),
    });
    expect(parse(["claude-code", "--since", "--dry-run"])).toMatchObject({ kind: "error" });
    expect(parse(["claude-code", "--dry-run=yes"])).toMatchObject({
      message: expect.stringContaining("takes no value"),
    });
    expect(parse([])).toMatchObject({ message: "missing <host>: the host." });
    expect(parse(["claude-code", "a", "b"])).toMatchObject({
      message: 'unexpected argument "b": this command takes only <host> [file].',
    });
  });
  it("answers help before anything else, but not for --help after --", () => {
    expect(parse(["--dryrun", "--help"])).toEqual({ kind: "help" });
    expect(parse(["claude-code", "--", "--help"])).toMatchObject({ kind: "ok", values: { file: "--help" } });
  });
  it("never reads another program's arguments in a passthrough command", () => {
    expect(parse(["claude-code", "-p", "fix it", "--dryrun"], true)).toEqual({
      kind: "error",
      message: "missing <host>: the host.",
    });
    const ok = parseCommandArgs({
      argv: ["--format", "json", "--", "claude", "-p", "x", "--dryrun"],
      spec: { format: spec.format },
      passthrough: true,
    });
    expect(ok).toEqual({ kind: "ok", values: { format: "json" }, rest: ["claude", "-p", "x", "--dryrun"] });
    const bare = parseCommandArgs({
      argv: ["claude", "-p", "--help"],
      spec: { format: spec.format },
      passthrough: true,
    });
    expect(bare).toEqual({ kind: "ok", values: { format: "text" }, rest: ["claude", "-p", "--help"] });
    const typo = parseCommandArgs({
      argv: ["--formt", "json", "--", "claude"],
      spec: { format: spec.format },
      passthrough: true,
    });
    expect(typo).toMatchObject({ kind: "error", message: "unknown flag --formt; did you mean --format?" });
  });
});
