import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A local append-only spool: JSONL files where records wait while the store (or a hook target) is unreachable.
 * Each batch is written to a temporary name and renamed into place, so a spool file is complete and never changes
 * after it appears (no torn or interleaved lines, no append racing a replay). Replay claims a file
 * by renaming it (only one replayer gets it), hands its batches to `deliver`, and deletes it only after every
 * batch was delivered; a failed replay renames the file back. A claim left by a crashed replayer is taken over
 * after `staleClaimMs`.
 */
export interface Spool<T> {
  readonly directory: string;
  append(batch: T): void;
  /** whether any batch waits (a directory listing, no reads) */
  hasPending(): boolean;
  /** when the oldest waiting batch was written (epoch ms, from its file name: a directory listing, no reads) */
  oldestPendingAt(): number | undefined;
  /** batches waiting (all files), for tests and `toolgate report` */
  pending(): T[];
  /**
   * `until` (epoch ms): claim no new file after it; what is left waits for the next replay. `error` is what the
   * last failed delivery threw (why `failed` batches still wait).
   */
  replay(
    deliver: (batches: T[]) => Promise<void>,
    options?: { until?: number },
  ): Promise<{ replayed: number; failed: number; error?: unknown }>;
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
  const read = (file: string): T[] =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as T];
        } catch {
          return []; // unreadable line (disk trouble): skip it, keep the rest
        }
      });
  return {
    directory,
    append(batch) {
      // time first (replay order), then pid and a per-process counter (unique), without loading node:crypto
      const unique = `${process.pid}-${String(written++).padStart(9, "0")}-${Math.random().toString(36).slice(2, 8)}`;
      const name = `${prefix}-${String(Date.now()).padStart(15, "0")}-${unique}`;
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
      const times = [...files(".jsonl"), ...files(".claimed")]
        .map((file) => Number(/-(\d{15})-[^/]*$/.exec(file)?.[1]))
        .filter((time) => Number.isFinite(time));
      return times.length === 0 ? undefined : Math.min(...times);
    },
    pending() {
      return [...files(".jsonl"), ...files(".claimed")].flatMap(read);
    },
    async replay(deliver, replayOptions = {}) {
      let replayed = 0;
      let failed = 0;
      let lastError: unknown;
      let hasError = false;
      const now = Date.now();
      const stale = files(".claimed").filter((file) => now - statSync(file).mtimeMs > staleClaimMs);
      for (const file of [...files(".jsonl"), ...stale]) {
        if (replayOptions.until !== undefined && Date.now() >= replayOptions.until) break;
        const claimed = file.endsWith(".claimed") ? file : `${file}.${process.pid}.claimed`;
        try {
          if (claimed !== file) renameSync(file, claimed);
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
            if (claimed !== file) renameSync(claimed, file);
          } catch {
            // left claimed; taken over once stale
          }
        }
      }
      return hasError ? { replayed, failed, error: lastError } : { replayed, failed };
    },
  };
}
