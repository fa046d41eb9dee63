import { byteOrder } from "../core/figures.js";
import type { CountByPattern } from "./ports.js";

/** variants listed under each pattern in a report */
export const PATTERN_VARIANTS = 5;

/** One signature's counts and what its first denial in the window says about it. */
export interface SignatureFacts {
  tool: string;
  canonicalTool: string;
  signature: string;
  pattern: string;
  count: number;
  deniedByRule: boolean;
  denyRule: string | null;
  source: string;
}

/**
 * Folds signatures into their patterns (keyed by canonical tool and pattern, so one pattern across hosts), sums the counts, tallies the deny rules, and
 * ranks: patterns by count descending, ties by tool then pattern in byte order; variants the same way by signature.
 The variants come back as given; the caller turns them into report rows (with their samples). Shared by the
 * reference computation and the SQL stores, so every engine returns identical rows.
 */
export function rankPatterns<Facts extends SignatureFacts>(options: {
  signatures: Iterable<Facts>;
  top: number;
}): (Omit<CountByPattern, "variants"> & { variants: Facts[] })[] {
  const patterns = new Map<string, { tool: string; pattern: string; count: number; members: Facts[] }>();
  for (const facts of options.signatures) {
    const key = `${facts.canonicalTool}\u0000${facts.pattern}`;
    const entry = patterns.get(key) ?? { tool: facts.canonicalTool, pattern: facts.pattern, count: 0, members: [] };
    entry.count += facts.count;
    entry.members.push(facts);
    patterns.set(key, entry);
  }
  return [...patterns.values()]
    .sort((a, b) => b.count - a.count || byteOrder(a.tool, b.tool) || byteOrder(a.pattern, b.pattern))
    .slice(0, options.top)
    .map((entry) => {
      const rules = new Map<string | null, number>();
      for (const member of entry.members) {
        if (member.deniedByRule) rules.set(member.denyRule, (rules.get(member.denyRule) ?? 0) + member.count);
      }
      const variants = [...entry.members]
        .sort((a, b) => b.count - a.count || byteOrder(a.signature, b.signature))
        .slice(0, PATTERN_VARIANTS);
      return {
        tool: entry.tool,
        pattern: entry.pattern,
        count: entry.count,
        variantCount: entry.members.length,
        denyRules: [...rules]
          .map(([rule, count]) => ({ rule, count }))
          .sort((a, b) => b.count - a.count || byteOrder(a.rule ?? "", b.rule ?? "")),
        variants,
      };
    });
}
