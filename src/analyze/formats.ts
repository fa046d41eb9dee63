import type { HostDenialTable } from "../detect/denial-text-rule.js";
import { readHead, sniffingHead } from "../hosts/common/read-lines.js";
import type { AnalyzeHost, TranscriptFormat } from "../hosts/common/reader-event.js";
import { hostDenialTables, hostDescriptor, hostsWith } from "../hosts/registry.js";
import { type RuleLanguage, TOOLGATE_RULES } from "../policy/grants/allow-rule-suggestion.js";

let allFormats: Promise<readonly TranscriptFormat[]> | undefined;
let allDenialTexts: Promise<readonly HostDenialTable[]> | undefined;

/** Every registered host's transcript formats, in sniffing order (`sniffOrder`: the more specific first). */
export function transcriptFormats(): Promise<readonly TranscriptFormat[]> {
  allFormats ??= Promise.all(hostsWith("transcriptFormats").map((host) => host.transcriptFormats())).then((lists) =>
    lists.flat().sort((a, b) => a.sniffOrder - b.sniffOrder),
  );
  return allFormats;
}

/** Every registered host's denial texts: `recognizeDenial` reads a session's results with its host's table. */
export function denialTexts(): Promise<readonly HostDenialTable[]> {
  allDenialTexts ??= hostDenialTables();
  return allDenialTexts;
}

let allRuleLanguages: Promise<ReadonlyMap<string, RuleLanguage>> | undefined;

/** Each host's own rule language (its descriptor's `ruleLanguage`); a host without one gets toolgate's rules. */
export function ruleLanguages(): Promise<ReadonlyMap<string, RuleLanguage>> {
  allRuleLanguages ??= Promise.all(
    hostsWith("ruleLanguage").map(async (host) => [host.name, await host.ruleLanguage()] as const),
  ).then((entries) => new Map(entries));
  return allRuleLanguages;
}

/**
 * The rule language of the host a tool name belongs to (its descriptor's `toolNames`): one host, or several that
 * write rules alike, give theirs; a name no host or several differing hosts claim gets toolgate's own rules.
 */
export async function ruleLanguageForTool(tool: string): Promise<RuleLanguage> {
  const languages = await ruleLanguages();
  const claimed = new Set<RuleLanguage>();
  for (const host of hostsWith("toolNames")) {
    if (!host.toolNames.includes(tool)) continue;
    claimed.add(languages.get(host.name) ?? TOOLGATE_RULES);
  }
  return claimed.size === 1 ? ([...claimed][0] as RuleLanguage) : TOOLGATE_RULES;
}

/** The hosts whose transcripts `toolgate analyze` reads (`--host`). */
export const ANALYZE_HOSTS: readonly AnalyzeHost[] = hostsWith("transcriptFormats").map((host) => host.name);

/** Why a file of `host` that no format reads is skipped, when its text output is known to show no call. */
export async function skipReason(file: string, host: AnalyzeHost | undefined): Promise<string | undefined> {
  const reason = host === undefined ? undefined : hostDescriptor(host)?.textOutputWithoutCalls;
  if (reason === undefined) return undefined;
  if ((await transcriptFormats()).some((format) => format.sniffFile?.(file) === true)) return undefined;
  const head = readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  return head.length === 0 || head.some((line) => line.trimStart().startsWith("{")) ? undefined : reason;
}

const HEAD_LINES = 8;
/**
 * A second, longer look when the first lines match no format: Claude Code writes two `system` lines per SessionStart
 * hook (every plugin's) before its `init` line, so a machine with a few plugins pushes `init` past the first lines.
 */
const LONG_HEAD_LINES = 256;
const HEAD_MAX_LINE = 1024 * 1024;

/**
 * The format of one file from its first lines (or a binary header such as SQLite's), restricted to `host` when given
 * (`--host`: with one format for that host left, that format is used even if nothing matched).
 */
export async function detectFormat(file: string, host?: AnalyzeHost): Promise<TranscriptFormat | undefined> {
  const formats = await transcriptFormats();
  const candidates = formats.filter((format) => host === undefined || format.host === host);
  const binary = formats.find((format) => format.sniffFile?.(file) === true);
  if (binary !== undefined) return candidates.includes(binary) ? binary : undefined;
  let head = readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  if (head.length === 0) return undefined;
  const sniffed = (list: readonly TranscriptFormat[]) =>
    sniffingHead(() => list.find((format) => format.sniffFile === undefined && format.sniff(head)));
  let found = sniffed(candidates);
  if (found === undefined && head.length === HEAD_LINES) {
    head = readHead(file, { count: LONG_HEAD_LINES, maxLength: HEAD_MAX_LINE });
    found = sniffed(candidates);
  }
  if (found !== undefined || host === undefined) return found;
  // forced: the same kind of file from another host (a stream-json copy without its init line reads as Claude's)
  const other = sniffed(formats);
  const kind = other?.id.slice(other.host.length + 1);
  const text = !head.some((line) => line.trimStart().startsWith("{"));
  const lines = candidates.filter((format) => format.sniffFile === undefined);
  return (
    lines.find((format) => format.id === `${host}-${kind}`) ??
    (lines.length === 1 ? lines[0] : undefined) ??
    (text ? lines.find((format) => format.plainText === true) : undefined)
  );
}
