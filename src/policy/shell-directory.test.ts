import { describe, expect, it } from "vitest";
import { compilePolicy } from "./compile-policy.js";

describe("a shell call run in a directory of its own", () => {
  const policy = compilePolicy({
    rules: [
      { rule: "Read(//etc/**)", behavior: "deny" },
      { rule: "Edit(./secrets/**)", behavior: "deny" },
    ],
    cwd: "/work/p",
    homeDir: "/home/u",
  });
  const decide = (input: Record<string, unknown>) => policy.evaluate({ tool: "Bash", input }).behavior;

  it("reads its relative file arguments in that directory (opencode's workdir, Gemini's dir_path, Qwen's directory)", () => {
    expect(decide({ command: "cat shadow", workdir: "/etc" })).toBe("deny");
    expect(decide({ command: "cat id_rsa", dir_path: "secrets" })).toBe("allow");
    expect(decide({ command: "echo x > id_rsa", dir_path: "secrets" })).toBe("deny");
    expect(decide({ command: "touch a.txt", directory: "/work/p/secrets" })).toBe("deny");
    expect(decide({ command: "cat shadow", cwd: "/etc" })).toBe("deny");
  });

  it("decides the same command line on its own in each directory (no decision cached across them)", () => {
    expect(decide({ command: "cat shadow" })).toBe("allow");
    expect(decide({ command: "cat shadow", workdir: "/etc" })).toBe("deny");
    expect(decide({ command: "cat shadow", workdir: "src" })).toBe("allow");
    expect(decide({ command: "cat shadow", workdir: "/etc" })).toBe("deny");
    expect(decide({ command: "cat shadow" })).toBe("allow");
  });
});
