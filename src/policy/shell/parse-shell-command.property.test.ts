import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "./analyze-shell-command.js";
import { parseShellCommand } from "./parse-shell-command.js";

const shellish = fc.string({
  unit: fc.constantFrom(..."ab -;&|()<>$`'\"\\\n\t#{}=*0123".split(""), "&&", "||", "$(", "<<", "2>&1", "<(", "EOF"),
  maxLength: 40,
});

describe("parseShellCommand on arbitrary text", () => {
  it("always terminates without throwing, and every word comes from the text", () => {
    fc.assert(
      fc.property(shellish, (text) => {
        const parsed = parseShellCommand(text);
        // inside backticks, escapes are removed before the script is parsed, so words come from that script
        if (text.includes("`")) return;
        for (const command of parsed.commands) {
          for (const word of command.words) expect(text).toContain(word.raw);
        }
      }),
      { numRuns: 5000 },
    );
  });
  it("a command joined to a denied one by any separator is always found", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("&&", "||", ";", "|", "|&", "&", "\n"),
        fc.constantFrom("echo ok", "ls -la", "(cd x"),
        (separator, first) => {
          const analysis = analyzeShellCommand(`${first} ${separator} rm -rf target`);
          const found = analysis.subcommands.some((sub) => sub.text === "rm -rf target");
          expect(found || !analysis.complete).toBe(true);
        },
      ),
    );
  });
});
