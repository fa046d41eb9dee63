import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { createSpool } from "./spool.js";

const directory = () => join(temporaryDirectory("toolgate-spool-"), "spool");

/** A spool holding one batch, "x", whose file the process `pid` has claimed (renamed, as its replay does). */
function claimedSpool(pid: number | string, options: { staleClaimMs?: number } = {}) {
  const dir = directory();
  const spool = createSpool<string>({ directory: dir, prefix: "denials", ...options });
  spool.append("x");
  const [file] = readdirSync(dir);
  const claimed = join(dir, `${file}.${pid}.claimed`);
  renameSync(join(dir, file!), claimed);
  return { dir, spool, file: file!, claimed };
}

describe("spool", () => {
  it("keeps batches in order, one immutable file each, and deletes them only after delivery", async () => {
    const spool = createSpool<number[]>({ directory: directory(), prefix: "denials" });
    expect(spool.hasPending()).toBe(false);
    spool.append([1, 2]);
    spool.append([3]);
    expect(spool.pending()).toEqual([[1, 2], [3]]);
    const delivered: number[][] = [];
    expect(await spool.replay(async (batches) => void delivered.push(...batches))).toEqual({ replayed: 2, failed: 0 });
    expect(delivered).toEqual([[1, 2], [3]]);
    expect(spool.hasPending()).toBe(false);
  });

  it("puts a batch back when delivery fails, for the next replay", async () => {
    const spool = createSpool<string>({ directory: directory(), prefix: "hooks" });
    spool.append("a");
    expect(
      await spool.replay(async () => {
        throw new Error("still down");
      }),
    ).toEqual({ replayed: 0, failed: 1, error: new Error("still down") });
    expect(spool.pending()).toEqual(["a"]);
    expect(readdirSync(spool.directory).every((name) => name.endsWith(".jsonl"))).toBe(true);
  });

  it("lets only one replayer claim a file, and takes over a claim left stale by a crash", async () => {
    // another live process (this one's parent stands for it) is replaying it
    const { dir, spool, claimed } = claimedSpool(process.ppid, { staleClaimMs: 1_000 });
    const seen: string[] = [];
    await spool.replay(async (batches) => void seen.push(...batches));
    expect(seen).toEqual([]);
    utimesSync(claimed, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)); // ... and crashed
    await spool.replay(async (batches) => void seen.push(...batches));
    expect(seen).toEqual(["x"]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("waits for a live process's claim to be released, within its budget", async () => {
    const { spool, claimed } = claimedSpool(process.ppid);
    expect(await spool.claimsReleased({ budgetMs: 30, pollMs: 5 })).toBe("held");
    setTimeout(() => unlinkSync(claimed), 50); // the other process delivered it
    expect(await spool.claimsReleased({ budgetMs: 5_000, pollMs: 5 })).toBe("released");
    expect(spool.hasPending()).toBe(false);
  });

  it("neither waits for nor skips a claim whose process is gone: the next replay takes it over", async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    }).stdout;
    const { dir, spool } = claimedSpool(gone);
    expect(await spool.claimsReleased({ budgetMs: 0 })).toBe("none");
    const seen: string[] = [];
    expect(await spool.replay(async (batches) => void seen.push(...batches))).toEqual({ replayed: 1, failed: 0 });
    expect(seen).toEqual(["x"]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a failed delivery of a taken-over claim puts the batch back under its own name", async () => {
    const { dir, spool, file, claimed } = claimedSpool(process.ppid, { staleClaimMs: 1_000 });
    utimesSync(claimed, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await spool.replay(async () => {
      throw new Error("down");
    });
    expect(readdirSync(dir)).toEqual([file]);
  });

  it("claims no new file once the replay's time is up, leaving the rest for the next replay", async () => {
    const spool = createSpool<number>({ directory: directory(), prefix: "denials" });
    for (const batch of [1, 2, 3]) spool.append(batch);
    const seen: number[] = [];
    const until = Date.now() + 30;
    const result = await spool.replay(
      async (batches) => {
        seen.push(...batches);
        await new Promise((resolve) => setTimeout(resolve, 50)); // the first delivery uses up the budget
      },
      { until },
    );
    expect(result).toEqual({ replayed: 1, failed: 0 });
    expect(spool.pending()).toEqual([2, 3]);
    await spool.replay(async (batches) => void seen.push(...batches));
    expect(seen).toEqual([1, 2, 3]);
  });

  it("tells when its oldest waiting batch was written, from the file names alone", () => {
    const spool = createSpool<number>({ directory: directory(), prefix: "denials" });
    expect(spool.oldestPendingAt()).toBeUndefined();
    const before = Date.now();
    spool.append(1);
    spool.append(2);
    const oldest = spool.oldestPendingAt() ?? 0;
    expect(oldest).toBeGreaterThanOrEqual(before);
    expect(oldest).toBeLessThanOrEqual(Date.now());
  });

  it("its oldest waiting batch counts claimed batches too, and no file of another prefix or a temporary one", () => {
    const dir = directory();
    const spool = createSpool<number>({ directory: dir, prefix: "denials" });
    mkdirSync(dir, { recursive: true });
    const name = (time: number, suffix: string) => `denials-${String(time).padStart(15, "0")}-1-000000000-abc${suffix}`;
    writeFileSync(join(dir, "denials-notatime-1.jsonl"), "0\n");
    expect(spool.oldestPendingAt()).toBeUndefined();
    writeFileSync(join(dir, name(1_700_000_000_300, ".jsonl")), "1\n");
    writeFileSync(join(dir, name(1_700_000_000_200, ".jsonl.123.claimed")), "2\n");
    writeFileSync(join(dir, `hooks-${String(1_700_000_000_100).padStart(15, "0")}-1-000000000-abc.jsonl`), "3\n");
    writeFileSync(join(dir, `.${name(1_700_000_000_050, "")}.tmp`), "4\n");
    expect(spool.oldestPendingAt()).toBe(1_700_000_000_200);
    rmSync(join(dir, name(1_700_000_000_200, ".jsonl.123.claimed")));
    expect(spool.oldestPendingAt()).toBe(1_700_000_000_300);
  });

  it("ignores files of another prefix", async () => {
    const dir = directory();
    createSpool<string>({ directory: dir, prefix: "hooks" }).append("hook");
    expect(createSpool<string>({ directory: dir, prefix: "denials" }).pending()).toEqual([]);
  });
});
