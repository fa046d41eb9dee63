import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { ToolgateError } from "../../core/errors.js";
import type { RedactOptions } from "../../detect/redact.js";
import { type DocumentFormat, redactDocument } from "../../detect/redact-document.js";
import { openReadSide } from "../../root/read-side.js";
import { defineCommand } from "../args/command-spec.js";
import { EXIT } from "../exit-codes.js";

const FORMATS = ["auto", "text", "json", "jsonl"] as const;

const DETAILS = `Secrets (cloud keys, GitHub/GitLab/Slack/Stripe/OpenAI/Anthropic/Google/npm tokens, JWTs, private keys, passwords in
URLs, Authorization headers, and values of keys, variables and flags named like password, token, secret, api_key)
become [REDACTED:<kind>]. JSON stays valid; JSONL (an agent transcript) is redacted line by line. The redacted text
goes to stdout; how many secrets of each kind were replaced goes to stderr. Extra patterns and the keyed suffix come
from the "redaction" section of toolgate.config.json unless --no-config is given.`;

function fail(message: string): void {
  process.stderr.write(`toolgate redact: ${message}\n`);
  process.exitCode = EXIT.usage;
}

function readInput(file: string | undefined): string {
  return readFileSync(file === undefined || file === "-" ? 0 : file, "utf8");
}

async function redactOptions(useConfig: boolean, inputLength: number): Promise<RedactOptions> {
  const base: RedactOptions = useConfig
    ? (await openReadSide({ cwd: process.cwd(), env: process.env, homeDir: homedir() })).redactOptions
    : {};
  // a person redacting a file wants all of it scanned, not the hot path's size bound
  return { maxTotalChars: Math.max(inputLength * 2, 4 * 1024 * 1024), maxNodes: 100_000_000, ...base };
}

function summary(findings: Record<string, number>, total: number): string {
  if (total === 0) return "toolgate redact: no secrets found";
  const kinds = Object.entries(findings)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, amount]) => `  ${kind}: ${amount}`);
  return `toolgate redact: ${total} redaction${total === 1 ? "" : "s"}\n${kinds.join("\n")}`;
}

export default defineCommand({
  meta: {
    name: "redact",
    summary: "Redact secrets from a file or standard input, for sharing transcripts and logs safely.",
    details: DETAILS,
    exitCodes:
      "0 done (whether or not secrets were found), 2 bad usage, unreadable file, invalid JSON or invalid config.",
    examples: [
      "toolgate redact ~/.claude/projects/-work-app/3f2a.jsonl > transcript.redacted.jsonl",
      "cat session.log | toolgate redact > session.redacted.log",
      "toolgate redact --format json tool-input.json",
      "toolgate redact --quiet notes.txt",
    ],
  },
  args: {
    file: {
      type: "positional",
      description: "the file to redact (default: standard input; - also means stdin)",
      required: false,
    },
    format: { type: "enum", description: "how to read the input", options: FORMATS, default: "auto" },
    config: {
      type: "boolean",
      description: "leave out the redaction section of toolgate.config.json: built-in detectors only",
      default: true,
    },
    quiet: { type: "boolean", description: "do not print the counts on stderr", default: false },
  },
  async run({ args }) {
    const format = args.format;
    if (!["auto", "text", "json", "jsonl"].includes(format)) {
      fail(`--format must be auto, text, json or jsonl (got ${format}).`);
      return;
    }
    let input: string;
    try {
      input = readInput(args.file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      fail(
        code === "ENOENT"
          ? `${args.file} does not exist. Give an existing file, or pipe the text on stdin.`
          : `cannot read ${args.file ?? "stdin"} (${code ?? (error as Error).message}). Check the path and its permissions.`,
      );
      return;
    }
    let options: RedactOptions;
    try {
      options = await redactOptions(args.config, input.length);
    } catch (error) {
      if (!ToolgateError.is(error)) throw error;
      fail(`${error.message} (or run with --no-config)`);
      return;
    }
    let result: ReturnType<typeof redactDocument>;
    try {
      result = redactDocument(input, { format: format as DocumentFormat | "auto", redact: options });
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      fail(`the input is not valid JSON (${error.message}). Use --format text or --format jsonl, or fix the file.`);
      return;
    }
    // the counts only once the output was taken whole: a reader that stopped early (`| head -1`) got part of it,
    // and the closed pipe ends the command quietly instead of a summary of what nobody read
    process.stdout.write(result.output, (error) => {
      if (!error && !args.quiet) process.stderr.write(`${summary(result.findings, result.total)}\n`);
    });
  },
});
