import { ToolgateError } from "../../core/errors.js";
import { canonicalTool } from "../../core/tool-families.js";
import { callsFrom } from "../../store/calls-source.js";
import { parseSince } from "../../store/parse-since.js";
import type { SqlBuilder, SqlReader } from "./sql-reader.js";

/** What every dashboard view is narrowed by; all of it lives in the page's URL. */
export interface DashboardFilters {
  /** epoch ms, inclusive */
  since: number;
  /** epoch ms, exclusive */
  until?: number;
  /** a canonical tool (core/tool-families.ts): `shell` matches every host's shell tool */
  tool?: string;
  host?: string;
  /** a session label (`repo`, `workflow`, ...) and the value it must have */
  label?: { key: string; value: string };
}

const LABEL_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Reads the filters from a request's query: `since` (7d, 12h, a date; `defaultSince` when absent), `until`,
 * `tool` (canonically or as any host names it), `host`, `label` (`key:value`). Bad values throw INPUT_INVALID with the fix.
 */
export function parseDashboardFilters(query: URLSearchParams, options: { now: number; defaultSince: string }) {
  const filters: DashboardFilters = {
    since: pageSince(query.get("since") || options.defaultSince, options.now, "since"),
  };
  const until = query.get("until");
  if (until) filters.until = pageSince(until, options.now, "until");
  const tool = query.get("tool");
  // any host's name of a tool (`Bash`, `exec_command`) means its canonical tool, so one filter matches every host
  if (tool) filters.tool = canonicalTool(tool);
  const host = query.get("host");
  if (host) filters.host = host;
  const label = query.get("label");
  if (label) {
    const colon = label.indexOf(":");
    const key = colon < 0 ? "" : label.slice(0, colon);
    if (!LABEL_KEY.test(key)) {
      throw new ToolgateError({
        code: "INPUT_INVALID",
        message: `label takes key:value with a key of letters, digits, _ . - (got "${label}").`,
      });
    }
    filters.label = { key, value: label.slice(colon + 1) };
  }
  return filters;
}

/** whether the store's own report (window + tool) answers these filters exactly */
export function reportCovers(filters: DashboardFilters): boolean {
  return filters.host === undefined && filters.label === undefined;
}

/** The WHERE clause of the filters over `denials`, plus an optional session; values bound, never inlined. */
export function denialWhere(options: {
  filters: DashboardFilters;
  builder: SqlBuilder;
  reader: Pick<SqlReader, "engine">;
  sessionId?: string;
}): string {
  const { filters, builder, reader } = options;
  const parts = [`at >= ${builder.value(filters.since)}`];
  if (filters.until !== undefined) parts.push(`at < ${builder.value(filters.until)}`);
  if (filters.tool !== undefined) parts.push(`canonical_tool = ${builder.value(filters.tool)}`);
  if (filters.host !== undefined) parts.push(`host = ${builder.value(filters.host)}`);
  if (filters.label !== undefined) {
    // the key's placeholder first: SQLite numbers `?` in the order they appear in the text
    const key = builder.value(reader.engine === "sqlite" ? `$."${filters.label.key}"` : filters.label.key);
    const value = builder.value(filters.label.value);
    parts.push(reader.engine === "sqlite" ? `json_extract(labels, ${key}) = ${value}` : `labels ->> ${key} = ${value}`);
  }
  if (options.sessionId !== undefined) parts.push(`session_id = ${builder.value(options.sessionId)}`);
  return `WHERE ${parts.join(" AND ")}`;
}

/**
 * The FROM clause over the calls the filters select (`callsFrom`: whole days from the `denial_daily_calls` rollup,
 * edge days from `denials`; rows carry a count `n`), values bound through `builder`.
 */
export function callsFromFilters(options: {
  filters: DashboardFilters;
  builder: Pick<SqlBuilder, "value">;
  reader: Pick<SqlReader, "engine">;
  sessionId?: string;
}): string {
  const { filters } = options;
  return callsFrom({
    filter: {
      since: filters.since,
      ...(filters.until === undefined ? {} : { until: filters.until }),
      ...(filters.tool === undefined ? {} : { canonicalTool: filters.tool }),
      ...(filters.host === undefined ? {} : { host: filters.host }),
      ...(filters.label === undefined ? {} : { label: filters.label }),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    },
    engine: options.reader.engine,
    add: (value) => options.builder.value(value),
  });
}

/** parseSince in the page's words: the URL's `since` / `until`, not the CLI's `--since` */
function pageSince(text: string, now: number, name: "since" | "until"): number {
  try {
    return parseSince(text, now);
  } catch (error) {
    if (!(error instanceof ToolgateError)) throw error;
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: `${error.message.replaceAll("--since", name)} Choose a time range in the filters, or reset them.`,
    });
  }
}
