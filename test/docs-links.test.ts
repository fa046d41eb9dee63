import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in the README, BENCHMARKS.md and docs/ reaches a file, and every `#anchor` a heading of that
 * file, as GitHub renders them (issue 25, item 16: docs/detection.md linked `BENCHMARKS.md#detection`, a heading
 * that was renamed).
 */
const root = resolve(import.meta.dirname, "..");
const pages = [
  ...readdirSync(root).filter((name) => name.endsWith(".md")),
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join("docs", name)),
];

/** GitHub's heading ids: lower case, punctuation but `-` and `_` dropped, each space a `-`, repeats numbered */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

function linksOf(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

describe("links in the documentation", () => {
  for (const page of pages) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const source = readFileSync(join(root, page), "utf8");
      const broken: string[] = [];
      for (const link of linksOf(source)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path === "" ? join(root, page) : resolve(dirname(join(root, page)), decodeURI(path));
        if (!existsSync(target)) {
          broken.push(`${link} (no ${relative(root, target)})`);
          continue;
        }
        if (anchor === undefined || !target.endsWith(".md") || statSync(target).isDirectory()) continue;
        if (!anchorsOf(readFileSync(target, "utf8")).has(anchor)) broken.push(`${link} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("reads headings as GitHub does", () => {
    expect([
      ...anchorsOf("# Hook entry (issue 13, items 1 and 3; issue 12, class 4): the `bundled` hook\n## A\n## A"),
    ]).toEqual(["hook-entry-issue-13-items-1-and-3-issue-12-class-4-the-bundled-hook", "a", "a-1"]);
  });
});
