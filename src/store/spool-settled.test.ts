import * as fs from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { createSpool } from "./spool.js";

/**
 * `settledPending` reads a spool other processes claim, put back and deliver while it reads. The races are made
 * exact here: `beforeRead` runs just before the spool reads a file, as another process would act between the
 * spool's listing and its read.
 */
let beforeRead: ((file: string) => void) | undefined;
vi.mock("node:fs", async (original) => {
  const real = await original<typeof import("node:fs")>();
  return {
    ...real,
    readFileSync: (...args: Parameters<typeof real.readFileSync>) => {
      if (typeof args[0] === "string") beforeRead?.(args[0]);
      return real.readFileSync(...args);
    },
  };
});

afterEach(() => {
  beforeRead = undefined;
});

function spoolOf(batches: string[]) {
  const directory = join(temporaryDirectory("toolgate-settled-"), "spool");
  const spool = createSpool<string>({ directory, prefix: "denials" });
  for (const batch of batches) spool.append(batch);
  const names = fs.readdirSync(directory).sort();
  return { directory, spool, names };
}

describe("spool.settledPending", () => {
  it("reads waiting and claimed batches, in order, and claims none", () => {
    const { directory, spool, names } = spoolOf(["a", "b", "c"]);
    fs.renameSync(join(directory, names[1]!), join(directory, `${names[1]}.${process.pid}.claimed`));
    const before = fs.readdirSync(directory).sort();
    expect(spool.settledPending()?.sort()).toEqual(["a", "b", "c"]);
    expect(fs.readdirSync(directory).sort()).toEqual(before);
  });

  it("reads a batch claimed between its listing and its read once, under its claimed name", () => {
    const { directory, spool, names } = spoolOf(["a", "b"]);
    const target = join(directory, names[0]!);
    beforeRead = (file) => {
      if (file !== target) return;
      beforeRead = undefined;
      fs.renameSync(target, `${target}.424242.claimed`);
    };
    expect(spool.settledPending()?.sort()).toEqual(["a", "b"]);
  });

  it("reads a claimed batch put back (a failed delivery) once, under its own name again", () => {
    const { directory, spool, names } = spoolOf(["a", "b"]);
    const claimed = join(directory, `${names[1]}.424242.claimed`);
    fs.renameSync(join(directory, names[1]!), claimed);
    beforeRead = (file) => {
      if (file !== claimed) return;
      beforeRead = undefined;
      fs.renameSync(claimed, join(directory, names[1]!));
    };
    expect(spool.settledPending()?.sort()).toEqual(["a", "b"]);
  });

  it("leaves out a batch delivered (its claim deleted) between its listing and its read, without failing", () => {
    const { directory, spool, names } = spoolOf(["a", "b"]);
    const claimed = join(directory, `${names[0]}.424242.claimed`);
    fs.renameSync(join(directory, names[0]!), claimed);
    beforeRead = (file) => {
      if (file !== claimed) return;
      beforeRead = undefined;
      fs.unlinkSync(claimed);
    };
    expect(spool.settledPending()).toEqual(["b"]);
  });

  it("gives up (undefined) when a batch keeps moving under every listing, so the caller drains instead", () => {
    const { directory, spool, names } = spoolOf(["a"]);
    const waiting = join(directory, names[0]!);
    const claimed = `${waiting}.424242.claimed`;
    let moves = 0;
    beforeRead = (file) => {
      moves += 1;
      if (file === waiting) fs.renameSync(waiting, claimed);
      else if (file === claimed) fs.renameSync(claimed, waiting);
    };
    expect(spool.settledPending()).toBeUndefined();
    expect(moves).toBe(4);
  });

  it("skips, unread, the files appended with another tag, and reads those with its tag or none", () => {
    const directory = join(temporaryDirectory("toolgate-settled-"), "spool");
    const spool = createSpool<string>({ directory, prefix: "denials" });
    spool.append("mine", "sa");
    spool.append("another session's", "sb");
    spool.append("untagged");
    spool.append("a tag a file name cannot hold is left out", "../x");
    const read: string[] = [];
    beforeRead = (file) => void read.push(file);
    expect(spool.settledPending({ tag: "sa" })?.sort()).toEqual([
      "a tag a file name cannot hold is left out",
      "mine",
      "untagged",
    ]);
    expect(read).toHaveLength(3);
    expect(read.some((file) => file.endsWith(".sb.jsonl"))).toBe(false);
    // no tag asked: every file
    expect(spool.settledPending()).toHaveLength(4);
    expect(spool.pending()).toHaveLength(4);
  });

  it("parses only the lines `keepLine` keeps", () => {
    const { spool } = spoolOf(["session-a:1", "session-b:1", "session-a:2"]);
    expect(spool.settledPending({ keepLine: (line) => line.includes("session-a") })).toEqual([
      "session-a:1",
      "session-a:2",
    ]);
  });
});
