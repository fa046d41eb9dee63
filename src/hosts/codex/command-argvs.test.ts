import { describe, expect, it } from "vitest";
import { commandArgvs, shellCommandOf } from "./command-argvs.js";

describe("shellCommandOf", () => {
  it("joins an argv with shell quoting, so Codex's rules see the words the process gets", () => {
    const command = shellCommandOf("shell", { command: ["rm", "-rf", "a b", "it's"] });
    expect(command).toBe(`rm -rf 'a b' 'it'\\''s'`);
    expect(commandArgvs(command as string)[0]).toEqual(["rm", "-rf", "a b", "it's"]);
  });

  it("reads the script of a bash -lc argv", () => {
    expect(shellCommandOf("shell", { command: ["bash", "-lc", "rm -rf x"] })).toBe("rm -rf x");
  });
});
