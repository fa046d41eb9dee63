import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../../hosts/registry.js";
import { examplesOf, formatExamples, hostExamples, hostsWithHelp, listOf } from "./host-help.js";

const cli = join(import.meta.dirname, "..");

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the CLI's help about hosts comes from the registry", () => {
  it("no CLI source names an agent host: its examples, files and messages are the host's `help`", () => {
    const named: string[] = [];
    for (const file of sources(cli)) {
      const text = readFileSync(file, "utf8").toLowerCase();
      for (const host of HOSTS.filter((candidate) => candidate.kind !== "proxy")) {
        // as a word: a short host name (`pi`) is part of many words (`pipe`, `api`)
        const word = new RegExp(
          `(^|[^a-z0-9_-])${host.name.toLowerCase().replace(/[^a-z0-9]/g, "\\$&")}($|[^a-z0-9_])`,
        );
        if (word.test(text)) named.push(`${relative(cli, file)} names ${host.name}`);
      }
    }
    expect(named).toEqual([]);
  });

  it("lists each host's examples in registry order, and the hosts with a help part", () => {
    const install = hostExamples("install").map((example) => (typeof example === "string" ? example : example[0]));
    const hosts = install.map((line) => line.split(" ")[2]);
    const order = HOSTS.map((host) => host.name);
    expect(hosts.length).toBeGreaterThan(0);
    expect([...hosts].sort((a, b) => order.indexOf(a as string) - order.indexOf(b as string))).toEqual(hosts);
    expect(hostsWithHelp("hookEntry").length).toBeGreaterThan(0);
  });

  it("aligns the comments of one list four columns after its longest commented line", () => {
    expect(
      formatExamples(["toolgate a --long-flag", ["toolgate b", "one"], ["toolgate cc", "two"]], { align: true }),
    ).toEqual(["toolgate a --long-flag", "toolgate b     # one", "toolgate cc    # two"]);
    expect(formatExamples([["toolgate b", "one"]], { align: false })).toEqual(["toolgate b  # one"]);
    expect(examplesOf([], "toolgate x")).toEqual(["toolgate x"]);
  });
});

describe("listOf", () => {
  it("writes a list as Intl.ListFormat('en') does, for every length", () => {
    const words = ["Claude Code", "Codex", "Gemini CLI", "Qwen Code", "opencode", "pi"];
    for (const join of ["and", "or"] as const) {
      const intl = new Intl.ListFormat("en", { type: join === "and" ? "conjunction" : "disjunction" });
      for (let length = 0; length <= words.length; length += 1)
        expect(listOf(words.slice(0, length), join), `${join}, ${length}`).toBe(intl.format(words.slice(0, length)));
    }
  });
});
