import type { DenialSource } from "../core/events.js";
import type { DenialTextRule, HostDenialTable, HostName } from "./denial-text-rule.js";
import { normalizeDenialText } from "./normalize-denial-text.js";

/**
 * Turns a tool-result text (plus `is_error` and host metadata) into a denial with its source, or nothing when the
 * text is an ordinary tool error. Detection knows no host: each host's wording is a table in the host's own folder
 * (its descriptor's `denialTexts`), and the caller passes the tables to read with. Extend a host's table when the
 * host changes its texts, with a positive and a negative row in `recognize-denial.test.ts`.
 */

export type { HostName } from "./denial-text-rule.js";

export interface RecognizeDenialInput {
  /**
   * The denial texts to read with: one host's table, or several (every registered host's: `hostDenialTables()`
   * from `toolgate/node`). With `host`, only the table of that name (or alias) is read.
   */
  tables: readonly HostDenialTable[];
  /**
   * The host that produced the text: selects its table by name or alias. When absent, or naming no table given,
   * every table is tried in order, and the rows too generic to attribute without the host (`requiresHost`) are
   * skipped.
   */
  host?: HostName;
  text: string;
  /** the host's error flag; `false` means the call succeeded, so its output is never a denial */
  isError?: boolean;
  /**
   * Host metadata. `interactive: false` turns a person's rejection into `headless`; a table's `sourceFromMetadata`
   * reads the host's own keys (the host's structured verdict, documented beside its table).
   */
  metadata?: Record<string, unknown>;
}

export interface RecognizedDenial {
  denied: true;
  source: DenialSource;
  reason: string;
  host: HostName;
}

const MAX_REASON = 2000;

function reasonOf(match: RegExpExecArray, normalized: string): string {
  const reason = (match.groups?.["reason"] ?? "").trim() || normalized;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}

function matchTable(options: { table: HostDenialTable; normalized: string; hostKnown: boolean }):
  | {
      rule: DenialTextRule;
      match: RegExpExecArray;
    }
  | undefined {
  for (const rule of options.table.rules) {
    if (rule.requiresHost === true && !options.hostKnown) continue;
    const match = rule.pattern.exec(options.normalized);
    if (match !== null) return { rule, match };
  }
  return undefined;
}

/** The tables named `host` (by name or alias); empty when no table is. */
function tablesOf(tables: readonly HostDenialTable[], host: string | undefined): readonly HostDenialTable[] {
  if (host === undefined) return [];
  return tables.filter((table) => table.host === host || table.aliases?.includes(host) === true);
}

/** Recognise a host's denial text; `undefined` for anything else (a generic tool error, a success). */
export function recognizeDenial(input: RecognizeDenialInput): RecognizedDenial | undefined {
  if (input.isError === false) return undefined;
  const named = tablesOf(input.tables, input.host);
  const hostKnown = named.length > 0;
  const tables = hostKnown ? named : input.tables;
  const normalized = normalizeDenialText(input.text);
  const metadata = input.metadata ?? {};
  const headless = metadata["interactive"] === false;
  for (const table of tables) {
    const source = table.sourceFromMetadata?.(metadata);
    if (source !== undefined && normalized.length > 0) {
      return {
        denied: true,
        source: headless && source === "user" ? "headless" : source,
        reason: normalized.slice(0, MAX_REASON),
        host: table.host,
      };
    }
  }
  if (normalized.length === 0) return undefined;
  for (const table of tables) {
    const found = matchTable({ table, normalized, hostKnown });
    if (found === undefined) continue;
    const source = headless && found.rule.source === "user" ? "headless" : found.rule.source;
    return { denied: true, source, reason: reasonOf(found.match, normalized), host: table.host };
  }
  return undefined;
}
