import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

/**
 * A local append-only spool: JSONL files where records wait while the store (or a hook target) is unreachable.
 * Each batch is written to a temporary name and renamed into place, so a spool file is complete and never changes
 * after it appears (no torn or interleaved lines, no append racing a replay). Replay claims a file
 * by renaming it (only one replayer gets it, its pid in the new name), hands its batches to `deliver`, and deletes it
 * only after every batch was delivered; a failed replay renames the file back. A claim left by a crashed replayer
 * is taken over at once when its pid is gone from this machine, else after `staleClaimMs`. A reader that must see
 * every batch waits for the claims other live processes hold (`claimsReleased`) before it reads the store.
 */
export interface Spool<T> {
  readonly directory: string;
  /**
   * `tag` (1-16 of a-z and 0-9; anything else is left out) goes into the file's name, so a reader that needs only
   * some batches (`settledPending`) skips the others unread.
   */
  append(batch: T, tag?: string): void;
  /** whether any batch waits (a directory listing, no reads) */
  hasPending(): boolean;
  /** when the oldest waiting batch was written (epoch ms, from its file name: a directory listing, no reads) */
  oldestPendingAt(): number | undefined;
  /** batches waiting (all files), for tests and `toolgate report` */
  pending(): T[];
  /**
   * The batches waiting (claimed or not) as they stand, read without claiming any: a file another process claims,
   * puts back or delivers during the read is looked for again under its new name, and one gone from every name was
   * delivered (a claimed file is deleted only once its delivery committed), so a reader that reads the store after
   * this misses no batch and waits for no delivery. `tag`: files appended with another tag are skipped unread (one
   * without a tag is read); `keepLine` skips a line unparsed. Undefined when the spool still changed under the read
   * after a few listings: drain and read the store instead.
   */
  settledPending(options?: { tag?: string; keepLine?: (line: string) => boolean }): T[] | undefined;
  /**
   * `until` (epoch ms): claim no new file after it; what is left waits for the next replay. `error` is what the
   * last failed delivery threw (why `failed` batches still wait).
   */
  replay(
    deliver: (batches: T[]) => Promise<void>,
    options?: { until?: number },
  ): Promise<{ replayed: number; failed: number; error?: unknown }>;
  /**
   * Waits, at most `budgetMs`, until no file is claimed by another live process (a detached drain shipping it
   * into the store right now): "none" when none was claimed (no wait), "released" when the claims were released
   * (a failed delivery may have put its batch back: replay again), "held" when the budget ran out first. A reader
   * that drained and then reads the store calls it between the two, so a batch another process is delivering is
   * not missed.
   */
  claimsReleased(options: { budgetMs: number; pollMs?: number }): Promise<"none" | "released" | "held">;
}

let written = 0;

export function createSpool<T>(options: { directory: string; prefix: string; staleClaimMs?: number }): Spool<T> {
  const { directory, prefix } = options;
  const staleClaimMs = options.staleClaimMs ?? 60_000;
  const files = (suffix: string) => {
    try {
      return readdirSync(directory)
        .filter((name) => name.startsWith(`${prefix}-`) && name.endsWith(suffix))
        .sort()
        .map((name) => join(directory, name));
    } catch {
      return [];
    }
  };
  const parse = (text: string, keepLine?: (line: string) => boolean): T[] =>
    text
      .split("\n")
      .filter((line) => line.trim() !== "" && (keepLine === undefined || keepLine(line)))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as T];
        } catch {
          return []; // unreadable line (disk trouble): skip it, keep the rest
        }
      });
  const read = (file: string): T[] => parse(readFileSync(file, "utf8"));
  /** whether another live process holds a claim (a directory listing and a stat per claim) */
  const othersHoldClaims = () => {
    const now = Date.now();
    return files(".claimed").some(
      (file) => claimantOf(file) !== process.pid && heldByLiveClaim(file, now, staleClaimMs),
    );
  };
  return {
    directory,
    append(batch, tag) {
      // time first (replay order), then pid and a per-process counter (unique), without loading node:crypto
      const unique = `${process.pid}-${String(written++).padStart(9, "0")}-${Math.random().toString(36).slice(2, 8)}`;
      const tagged = tag !== undefined && TAG.test(tag) ? `.${tag}` : "";
      const name = `${prefix}-${String(Date.now()).padStart(15, "0")}-${unique}${tagged}`;
      const temporary = join(directory, `.${name}.tmp`);
      const text = `${JSON.stringify(batch)}\n`;
      try {
        writeFileSync(temporary, text, { mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        writeFileSync(temporary, text, { mode: 0o600 });
      }
      renameSync(temporary, join(directory, `${name}.jsonl`));
    },
    hasPending() {
      return files(".jsonl").length + files(".claimed").length > 0;
    },
    oldestPendingAt() {
      // one listing, the names alone (every hook event that is not a gating one asks): a batch's name starts with
      // the prefix and the 15-digit time it was written, claimed or not
      let names: string[];
      try {
        names = readdirSync(directory);
      } catch {
        return undefined;
      }
      const head = `${prefix}-`;
      const start = head.length;
      let oldest: number | undefined;
      for (const name of names) {
        if (!name.startsWith(head) || !(name.endsWith(".jsonl") || name.endsWith(".claimed"))) continue;
        const digits = name.slice(start, start + 15);
        if (name.charCodeAt(start + 15) !== DASH || !/^\d{15}$/.test(digits)) continue;
        const time = Number(digits);
        if (oldest === undefined || time < oldest) oldest = time;
      }
      return oldest;
    },
    pending() {
      return [...files(".jsonl"), ...files(".claimed")].flatMap(read);
    },
    settledPending(settleOptions = {}) {
      const { tag, keepLine } = settleOptions;
      const batches: T[] = [];
      // each batch by the name it was written under (a claim adds `.<pid>.claimed`, a put-back removes it)
      const seen = new Set<string>();
      for (let listing = 0; listing < SETTLE_LISTINGS; listing++) {
        let moved = false;
        for (const file of [...files(".jsonl"), ...files(".claimed")]) {
          const batch = file.replace(CLAIM_SUFFIX, "");
          if (seen.has(batch)) continue;
          const written = TAGGED.exec(batch)?.[1];
          if (tag !== undefined && written !== undefined && written !== tag) continue;
          let text: string;
          try {
            text = readFileSync(file, "utf8");
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
            moved = true; // renamed or delivered since the listing: the next listing tells which
            continue;
          }
          seen.add(batch);
          batches.push(...parse(text, keepLine));
        }
        if (!moved) return batches;
      }
      return undefined;
    },
    async replay(deliver, replayOptions = {}) {
      let replayed = 0;
      let failed = 0;
      let lastError: unknown;
      let hasError = false;
      const now = Date.now();
      const stale = files(".claimed").filter((file) => !heldByLiveClaim(file, now, staleClaimMs));
      for (const file of [...files(".jsonl"), ...stale]) {
        if (replayOptions.until !== undefined && Date.now() >= replayOptions.until) break;
        // the batch file's own name (a taken-over claim loses its claimant's suffix), then this process's claim
        const unclaimed = file.replace(CLAIM_SUFFIX, "");
        const claimed = `${unclaimed}.${process.pid}.claimed`;
        try {
          renameSync(file, claimed);
          // the claim's age counts from now, not from when the batch was written (a spool that waited out an outage)
          const claimedAt = new Date();
          utimesSync(claimed, claimedAt, claimedAt);
        } catch {
          continue; // another process claimed it first
        }
        const batches = read(claimed);
        try {
          if (batches.length > 0) await deliver(batches);
          unlinkSync(claimed);
          replayed += batches.length;
        } catch (error) {
          failed += batches.length;
          lastError = error;
          hasError = true;
          try {
            renameSync(claimed, unclaimed);
          } catch {
            // left claimed; taken over once this process is gone or the claim is stale
          }
        }
      }
      return hasError ? { replayed, failed, error: lastError } : { replayed, failed };
    },
    async claimsReleased({ budgetMs, pollMs = 20 }) {
      if (!othersHoldClaims()) return "none";
      const deadline = Date.now() + budgetMs;
      for (;;) {
        const now = Date.now();
        if (now >= deadline) return "held";
        await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - now))));
        if (!othersHoldClaims()) return "released";
      }
    },
  };
}

const CLAIM_SUFFIX = /\.(\d+)\.claimed$/;
const DASH = 0x2d;

/** a batch file's tag (`Spool.append`), between the name and `.jsonl` */
const TAG = /^[a-z0-9]{1,16}$/;
const TAGGED = /\.([a-z0-9]{1,16})\.jsonl$/;

/** how many listings `settledPending` makes of a spool whose files keep moving before it gives up */
const SETTLE_LISTINGS = 4;

/** The pid a claimed file's name carries (`<batch file>.<pid>.claimed`), or undefined for a name without one. */
function claimantOf(file: string): number | undefined {
  const match = CLAIM_SUFFIX.exec(file);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Whether a claim is still held: its process is alive on this machine (signal 0; EPERM means alive, another user's)
 * and the claim is younger than `staleClaimMs`. A file gone meanwhile holds nothing.
 */
function heldByLiveClaim(file: string, now: number, staleClaimMs: number): boolean {
  let modified: number;
  try {
    modified = statSync(file).mtimeMs;
  } catch {
    return false;
  }
  if (now - modified > staleClaimMs) return false;
  const pid = claimantOf(file);
  if (pid === undefined || pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
