import type { DenialSource } from "../core/events.js";

/**
 * One row of a host's denial-text table: a pattern on the tool-result text (after `normalizeDenialText`) and the
 * denial source it means. The reason is the `reason` capture group when the pattern has one, else the whole text.
 */
export interface DenialTextRule {
  source: DenialSource;
  pattern: RegExp;
  /** only used when the caller names this host (the text is too generic to attribute otherwise) */
  requiresHost?: boolean;
  /** a human note on where the text comes from (kept in the table for maintainers) */
  note: string;
}

/** A host's name as registered (`src/hosts/registry.ts`) and recorded with sessions. */
export type HostName = string;

/**
 * What one host shows the model when it refuses a tool call. Each registered host's table lives in its own folder
 * (`src/hosts/<host>/<host>-denial-texts.ts`) and is reached through its descriptor's `denialTexts`; detection
 * never imports one: `recognizeDenial` reads the tables its caller gives it.
 */
export interface HostDenialTable {
  /** the host's name: `RecognizedDenial.host`, and the name a caller selects this table by */
  host: HostName;
  /** other names a caller may give for this host (a longer name, an SDK that runs the same host) */
  aliases?: readonly string[];
  /**
   * The host's structured verdict in the result's metadata, read before any text: the denial source it names, or
   * undefined when the metadata says nothing (or that the call was not refused). For a host whose texts do not
   * always say whose refusal it was (an SDK callback's message is sent verbatim).
   */
  sourceFromMetadata?: (metadata: Readonly<Record<string, unknown>>) => DenialSource | undefined;
  rules: readonly DenialTextRule[];
}
