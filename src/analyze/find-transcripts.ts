import { type Dirent, existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { hostsWith } from "../hosts/registry.js";

/**
 * Expands `toolgate analyze` arguments into files: a file as given, a directory recursively (hidden directories
 * included, `node_modules` and `.git` skipped) keeping the names transcripts have, a glob (`*`, `?`, `**`)
 * matched below its longest literal prefix.
 */
const TRANSCRIPT_NAME = /\.(?:jsonl|json|log|txt|ndjson|db)$/;
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

function walk(directory: string, found: string[], keep: (path: string, name: string) => boolean): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return; // unreadable: nothing to analyze there
  }
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path, found, keep);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && keep(path, entry.name)) {
      // a link is followed when read; one that leads nowhere is listed in skippedFiles with the reason
      found.push(path);
    }
  }
}

function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] as string;
    if (character === "*") {
      if (glob[index + 1] === "*") {
        pattern += glob[index + 2] === "/" ? "(?:.*/)?" : ".*";
        index += glob[index + 2] === "/" ? 2 : 1;
      } else pattern += "[^/]*";
    } else if (character === "?") pattern += "[^/]";
    else pattern += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

export function isGlob(path: string): boolean {
  return /[*?]/.test(path);
}

/** Every transcript file the arguments name, sorted and without duplicates. */
export function findTranscripts(paths: readonly string[], cwd: string): string[] {
  const found: string[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    if (isGlob(given)) {
      const parts = absolute.split(sep);
      const literal = parts.findIndex((part) => isGlob(part));
      const base = parts.slice(0, literal).join(sep) || sep;
      const matcher = globToRegExp(parts.slice(literal).join("/"));
      walk(base, found, (path) =>
        matcher.test(
          path
            .slice(base.length + 1)
            .split(sep)
            .join("/"),
        ),
      );
      continue;
    }
    if (!existsSync(absolute)) continue;
    if (statSync(absolute).isDirectory()) {
      // Claude Code's `agent-*.meta.json` beside a subagent transcript describes it; it is not one
      walk(absolute, found, (_path, name) => TRANSCRIPT_NAME.test(name) && !name.endsWith(".meta.json"));
    } else found.push(absolute);
  }
  return [...new Set(found)].sort();
}

/** Every registered host's default session stores under a home directory (and where `env` moves them). */
export function defaultLocations(options: {
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): string[] {
  return hostsWith("transcriptLocations").flatMap((host) => host.transcriptLocations(options));
}
