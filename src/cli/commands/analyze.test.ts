import { describe, expect, test } from "vitest";
import { parseCommandArgs } from "../args/parse-command-args.js";
import analyze from "./analyze.js";

describe("toolgate analyze arguments", () => {
  test("any number of paths, flags before or after them", () => {
    const outcome = parseCommandArgs({
      argv: ["a.jsonl", "--host", "codex", "dir/", "b/*.jsonl", "--json"],
      spec: analyze.args,
    });
    expect(outcome).toMatchObject({
      kind: "ok",
      values: { paths: ["a.jsonl", "dir/", "b/*.jsonl"], host: "codex", json: true, save: false },
    });
  });

  test("no path is an empty list (the default locations are searched)", () => {
    expect(parseCommandArgs({ argv: [], spec: analyze.args })).toMatchObject({ kind: "ok", values: { paths: [] } });
  });

  test("an unknown host is a usage error naming the closest", () => {
    const outcome = parseCommandArgs({ argv: ["--host", "gemni"], spec: analyze.args });
    expect(outcome.kind).toBe("error");
    expect((outcome as { message: string }).message).toContain("gemini");
  });
});
