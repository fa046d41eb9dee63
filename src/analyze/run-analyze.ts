import { existsSync } from "node:fs";
import { ToolgateError } from "../core/errors.js";
import type { AnalyzeHost } from "../hosts/common/reader-event.js";
import { parseSince } from "../store/parse-since.js";
import { analysisDocument } from "./analysis-document.js";
import type { AnalysisDocument } from "./analysis-types.js";
import { analyzeTranscripts } from "./analyze-transcripts.js";
import { defaultLocations, findTranscripts } from "./find-transcripts.js";
import { formatAnalysis } from "./format-analysis.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";
import { progressBar } from "./progress-bar.js";
import { saveAnalysis } from "./save-analysis.js";

export interface RunAnalyzeOptions {
  paths: readonly string[];
  host?: AnalyzeHost;
  /** `7d`, `12h` or a date */
  since?: string;
  session?: string;
  save: boolean;
  json: boolean;
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write(text: string): unknown };
  stderr: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
}

/**
 * `toolgate analyze`: find the transcripts, replay them, print the report (or the `--json` document), and with
 * `--save` append the denials to the store. Returns the document (tests) ; throws ToolgateError for bad input,
 * a broken config or a store that cannot be opened.
 */
export async function runAnalyze(options: RunAnalyzeOptions): Promise<AnalysisDocument> {
  const since = options.since === undefined ? undefined : parseSince(options.since, Date.now());
  const setup = await loadAnalysisSetup({ cwd: options.cwd, homeDir: options.homeDir, env: options.env });
  const redact = setup.config.ports.redactText;
  let searched: string[];
  let files: string[];
  if (options.paths.length > 0) {
    searched = [...options.paths];
    files = findTranscripts(options.paths, options.cwd);
    if (files.length === 0) {
      throw new ToolgateError({
        code: "INPUT_INVALID",
        message: `No file matches ${options.paths.join(", ")}. Give transcript files, directories or globs, or no path to search the hosts' default locations.`,
      });
    }
  } else {
    searched = defaultLocations({ homeDir: options.homeDir, env: options.env });
    files = findTranscripts(
      searched.filter((location) => existsSync(location)),
      options.cwd,
    );
  }
  const bar = options.stderr.isTTY === true ? progressBar(options.stderr as NodeJS.WriteStream) : undefined;
  const result = await analyzeTranscripts({
    files,
    config: setup.config,
    canGrant: setup.canGrant,
    keepRecords: options.save,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(since === undefined ? {} : { since }),
    ...(options.session === undefined ? {} : { sessionId: options.session }),
    ...(bar === undefined ? {} : { onProgress: bar.update }),
  });
  bar?.done();
  const sessions = result.sessions.map(({ analysis }) => ({
    ...analysis,
    file: redact(analysis.file),
    sessionId: redact(analysis.sessionId),
  }));
  const document = analysisDocument({
    sessions,
    filesRead: result.filesRead,
    skippedLines: result.skippedLines,
    searched,
    unrecognizedFiles: result.unrecognizedFiles.map(redact),
    skippedFiles: result.skippedFiles.map((skipped) => ({ file: redact(skipped.file), reason: skipped.reason })),
  });
  if (options.json) options.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  else if (options.paths.length === 0 && files.length === 0) {
    options.stdout.write(
      `No agent history found on this machine. Searched:\n${searched.map((location) => `  ${location}`).join("\n")}\n`,
    );
  } else {
    options.stdout.write(formatAnalysis(document));
  }
  if (options.save) {
    const store = await setup.openStore();
    try {
      const offered = await saveAnalysis({ store, sessions: result.sessions });
      options.stderr.write(
        `toolgate analyze: offered ${offered} denial records to ${store.location} (records already there are skipped)\n`,
      );
    } finally {
      await store.close();
    }
  }
  return document;
}
