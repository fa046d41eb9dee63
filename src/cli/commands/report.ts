import { homedir } from "node:os";
import { ruleLanguageForTool } from "../../analyze/formats.js";
import { loadAnalysisSetup } from "../../analyze/load-analysis-setup.js";
import { ToolgateError } from "../../core/errors.js";
import { plural } from "../../core/plural.js";
import { allowRuleSuggestion } from "../../policy/grants/allow-rule-suggestion.js";
import { openReadSide, type ReadSide } from "../../root/read-side.js";
import { formatReport, type SuggestedRule, type VariantSuggestion } from "../../store/format-report.js";
import { parseSince } from "../../store/parse-since.js";
import type { CountBySignature, Store } from "../../store/ports.js";
import { defineCommand } from "../args/command-spec.js";
import { resolveSession } from "../args/resolve-session.js";
import { EXIT } from "../exit-codes.js";
import { writeJson } from "../output/json-document.js";
import { reportDocument } from "../output/report-output.js";

/**
 * Opens the store the environment and config select, drains the spool into it (the hooks append records there
 * first), runs `fn`, closes it. Errors a user can hit print one line
 * on stderr and set the documented exit code (usage 2, store 7); never a stack trace.
 */
export async function withStore(
  command: string,
  fn: (
    store: Store<unknown>,
    context: {
      redactor: ReadSide["redactor"];
      /** the read side the store came from (config, store location), for commands that open more of it */
      readSide: ReadSide;
      /** ships what the hooks spooled since the store was opened (tail calls it before each poll) */
      drain: () => Promise<number>;
    },
  ) => Promise<void>,
): Promise<void> {
  let store: Store<unknown> | undefined;
  try {
    // config, redaction and store found as the hooks find them (the composition root's read side)
    const readSide = await openReadSide({ cwd: process.cwd(), env: process.env, homeDir: homedir() });
    const { redactor } = readSide;
    const opened = await readSide.openDrainedStore();
    store = opened.store;
    if (opened.replayed > 0)
      process.stderr.write(
        `toolgate: replayed ${plural(opened.replayed, "spooled batch", "spooled batches")} into the store\n`,
      );
    const waiting = opened.waiting();
    if (waiting.batches > 0) {
      // what the hooks recorded but the store would not take is not in what this command reads: say so, and why
      const why = waiting.reason === undefined ? "" : `: ${redactor.redactText(waiting.reason)}`;
      process.stderr.write(
        `toolgate ${command}: ${plural(waiting.batches, "spooled batch", "spooled batches")} could not be shipped into the store and ${waiting.batches === 1 ? "is" : "are"} not counted here${why}. They wait in ${opened.spoolDirectory} and are shipped by the next command once the store takes writes.\n`,
      );
    }
    await fn(store, { redactor, readSide, drain: opened.drain });
  } catch (error) {
    if (!ToolgateError.is(error)) throw error;
    process.stderr.write(`toolgate ${command}: ${error.message}\n`);
    process.exitCode = error.code.startsWith("STORE") ? EXIT.store : EXIT.usage;
  } finally {
    await store?.close();
  }
}

export default defineCommand({
  meta: {
    name: "report",
    summary:
      "Summarise recorded denials: top tools and calls, the rule to add or narrow, sessions with loops or aborts.",
    details:
      "Also counts denials per day. Reads the store chosen by TOOLGATE_DATABASE_URL, TOOLGATE_DB or the config's\n" +
      "store section.",
    exitCodes: "0 done, 2 bad usage or config, 7 the store could not be opened.",
    examples: [
      "toolgate report",
      "toolgate report --since 30d --tool Bash",
      "toolgate report --session 3f2c9a1e --json",
    ],
  },
  args: {
    since: {
      type: "string",
      description: "only denials newer than this: 7d, 12h, or a date",
      default: "7d",
      valueHint: "duration|date",
    },
    session: {
      type: "string",
      description: "only this session: its id, or enough of its start to name one (3f2c9a1e)",
      valueHint: "id",
    },
    tool: {
      type: "string",
      description: "only this tool, canonically (shell) or as any host names it",
      valueHint: "tool",
    },
    top: { type: "string", description: "rows per ranked list, 1 to 1000", default: "10", valueHint: "count" },
    json: { type: "boolean", description: "print one JSON document (shape in docs/cli.md)", default: false },
  },
  async run({ args }) {
    await withStore("report", async (store, { redactor }) => {
      const top = Number(args.top);
      if (!Number.isInteger(top) || top < 1 || top > 1000) {
        throw new ToolgateError({
          code: "INPUT_INVALID",
          message: `--top must be a whole number from 1 to 1000 (got ${args.top}).`,
        });
      }
      const since = parseSince(args.since, Date.now());
      const session = args.session ? await resolveSession(store.denials, args.session) : undefined;
      const report = await store.denials.report({
        since,
        top,
        ...(session ? { sessionId: session } : {}),
        ...(args.tool ? { tool: args.tool } : {}),
      });
      // in the host's own rule language, and none where a deny rule in the settings would still win (the policy's
      // canGrant), for a heredoc, or for a call only the OS, a sandbox or toolgate refused
      const setup = await loadAnalysisSetup({ cwd: process.cwd(), homeDir: homedir(), env: process.env });
      const suggestFor = async (row: CountBySignature): Promise<VariantSuggestion> => {
        const suggestion = allowRuleSuggestion({
          tool: row.tool,
          input: row.sample.input,
          sources: [row.source],
          denyRuleWins: row.deniedByRule || !setup.canGrant({ tool: row.tool, input: row.sample.input }),
          language: await ruleLanguageForTool(row.tool),
        });
        return suggestion.rule === null ? suggestion : { ...suggestion, rule: redactor.redactText(suggestion.rule) };
      };
      const suggested = new Map<string, VariantSuggestion>();
      for (const row of [...report.topSignatures, ...report.topPatterns.flatMap((pattern) => pattern.variants)]) {
        const key = `${row.tool}\u0000${row.signature}`;
        if (!suggested.has(key)) suggested.set(key, await suggestFor(row));
      }
      const suggestions: SuggestedRule[] = report.topSignatures.map((row) => {
        const suggestion = suggested.get(`${row.tool}\u0000${row.signature}`) as VariantSuggestion;
        return {
          tool: row.tool,
          signature: row.signature,
          count: row.count,
          rule: suggestion.rule,
          ...(suggestion.rule === null ? { why: suggestion.why } : { language: suggestion.language }),
          example: row.sample.inputSummary,
        };
      });
      if (args.json) {
        const window = {
          since: new Date(since).toISOString(),
          sessionId: session ?? null,
          tool: args.tool ?? null,
        };
        writeJson(reportDocument({ store: store.location, window, report, suggestions }), { pretty: true });
        return;
      }
      const window = [`since ${new Date(since).toISOString().slice(0, 16).replace("T", " ")} UTC`];
      if (session) window.push(`session ${session}`);
      if (args.tool) window.push(`tool ${args.tool}`);
      process.stdout.write(
        formatReport({
          report,
          suggestions,
          location: store.location,
          window: window.join(", "),
          suggest: (variant) =>
            suggested.get(`${variant.tool}\u0000${variant.signature}`) ?? {
              rule: null,
              why: "no allow rule changes this",
            },
        }),
      );
    });
  },
});
