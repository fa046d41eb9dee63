import type { HostDenialTable } from "../detect/denial-text-rule.js";
import { readHead } from "../hosts/common/read-lines.js";
import type { AnalyzeHost, TranscriptFormat } from "../hosts/common/reader-event.js";
import { hostDenialTables, hostDescriptor, hostsWith } from "../hosts/registry.js";

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

/** The hosts whose transcripts `toolgate analyze` reads (`--host`). */
export const ANALYZE_HOSTS: readonly AnalyzeHost[] = hostsWith("transcriptFormats").map((host) => host.name);

/** Why a file of `host` that no format reads is skipped, when its text output is known to show no call. */
export async function skipReason(file: string, host: AnalyzeHost | undefined): Promise<string | undefined> {
  const reason = host === undefined ? undefined : hostDescriptor(host)?.textOutputWithoutCalls;
  if (reason === undefined) return undefined;
  if ((await transcriptFormats()).some((format) => format.sniffFile?.(file) === true)) return undefined;
  const head = await readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  return head.length === 0 || head.some((line) => line.trimStart().startsWith("{")) ? undefined : reason;
}

const HEAD_LINES = 8;
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
  const head = await readHead(file, { count: HEAD_LINES, maxLength: HEAD_MAX_LINE });
  if (head.length === 0) return undefined;
  const found = candidates.find((format) => format.sniffFile === undefined && format.sniff(head));
  if (found !== undefined || host === undefined) return found;
  // forced: the same kind of file from another host (a stream-json copy without its init line reads as Claude's)
  const other = formats.find((format) => format.sniffFile === undefined && format.sniff(head));
  const kind = other?.id.slice(other.host.length + 1);
  const text = !head.some((line) => line.trimStart().startsWith("{"));
  const lines = candidates.filter((format) => format.sniffFile === undefined);
  return (
    lines.find((format) => format.id === `${host}-${kind}`) ??
    (lines.length === 1 ? lines[0] : undefined) ??
    (text ? lines.find((format) => format.plainText === true) : undefined)
  );
}
