import type { DenialSource } from "../../core/events.js";
import { type TranscriptLines, transcriptLinesOf } from "../common/hook-host.js";
import { type CallLine, callLineOf } from "./claude-call-tokens.js";

/**
 * Finds the denials in a Claude Code transcript (JSONL under `~/.claude/projects/...`). Some denials reach no hook
 * at all (a Read/Edit refused by a path rule, a person's "No" at the prompt, a call to a tool a bare deny removed),
 * so the Stop/SubagentStop/SessionEnd hooks reconcile the transcript to record each denial once.
 *
 * A tool_result is a denial when Claude Code marked it (`permissionDecision.decision === "reject"` or a
 * `toolDenialKind`, both written by 2.1.330) or when its text is one of Claude Code's denial texts.
 */
export interface TranscriptDenial {
  toolUseId: string;
  tool: string;
  input: unknown;
  /** the text the model received */
  text: string;
  source: DenialSource;
  /** Claude Code's `permissionDecision.reasonType`, when written */
  decisionReasonType?: string;
  /** the rule source Claude Code named (`projectSettings`, ...) */
  ruleSource?: string;
  agentId?: string;
  /** when Claude Code wrote the refusal (the result line's `timestamp`), so a denial found at Stop keeps its place */
  at?: number;
  /**
   * the assistant line the call came from (the `tool_use` the result answers), with its request's tokens: a Stop
   * that waits for this call's tokens takes them from here rather than searching the transcript again
   */
  callLine?: CallLine;
}

interface TranscriptLine {
  type?: string;
  timestamp?: string;
  agentId?: string;
  toolDenialKind?: string;
  permissionDecision?: { decision?: string; source?: string; reasonType?: string; ruleSource?: string };
  message?: { content?: unknown };
}

interface ContentBlock {
  type?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

const USER_REJECTED = "The user doesn't want to proceed with this tool use.";
const NO_SUCH_TOOL = /No such tool available: ([\w.-]+)/;
const PATH_DENIED = "File is in a directory that is denied by your permission settings.";
const HOOK_ERROR = /^PreToolUse:[\w.-]+ hook error: /;
/** a result marked as an error, as JSON writes the key (any whitespace before the value) */
const ERROR_RESULT = /"is_error":\s*true/;
const RULE_DENIED = /^Permission to use \S+ (with .+ )?has been denied\.?$/s;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: ContentBlock & { text?: unknown }) => (typeof block.text === "string" ? block.text : ""))
    .join("");
}

/** The denial source for a rejected tool_result, from Claude Code's markers first and its texts second. */
export function classifyTranscriptDenial(options: {
  text: string;
  toolDenialKind?: string;
  reasonType?: string;
  decisionSource?: string;
}): DenialSource | undefined {
  const { text, toolDenialKind, reasonType, decisionSource } = options;
  if (HOOK_ERROR.test(text) || reasonType === "hook" || decisionSource === "hook") return "hook";
  if (text.includes(USER_REJECTED) || decisionSource === "user_reject") return "user";
  if (
    reasonType === "classifier" ||
    toolDenialKind === "automode-blocked" ||
    toolDenialKind === "automode-unavailable"
  ) {
    return "classifier";
  }
  if (reasonType === "mode") return "mode";
  if (toolDenialKind === "permission-rule" || reasonType === "rule" || reasonType === "subcommandResults")
    return "rule";
  if (text.includes(PATH_DENIED) || NO_SUCH_TOOL.test(text) || RULE_DENIED.test(text)) return "rule";
  if (toolDenialKind === "user-rejected") return "headless";
  return undefined;
}

/**
 * Parses transcript text (whole file or a tail) and returns its denials in order. Lines that do not parse are
 * skipped (the last line of a live transcript may be partial).
 */
export function findTranscriptDenials(text: string): TranscriptDenial[] {
  return findTranscriptDenialsIn(transcriptLinesOf(text));
}

/**
 * The same, reading only the lines that matter: a denial is a tool_result marked `is_error`, so only lines holding
 * `"is_error"` are parsed first, then only the lines that name the tool_use ids those results answer (for the tool
 * and its input: the newest `tool_use` with that id before its result, as Claude Code writes it). A long session's
 * transcript is megabytes of tool output that holds neither.
 */
export function findTranscriptDenialsIn(transcript: TranscriptLines): TranscriptDenial[] {
  const pending: { denial: TranscriptDenial; at: number }[] = [];
  for (const { line: raw, at } of transcript.linesWith(['"is_error"'])) {
    // a line whose results are all `"is_error":false` (Claude Code writes it on many a call that ran) is not parsed
    if (!raw.includes('"tool_result"') || !ERROR_RESULT.test(raw)) continue;
    const line = parseLine(raw);
    if (line?.type !== "user") continue;
    for (const block of blocksOf(line)) {
      if (block.type !== "tool_result" || block.is_error !== true || typeof block.tool_use_id !== "string") continue;
      const resultText = textOf(block.content);
      const rejected = line.permissionDecision?.decision === "reject" || line.toolDenialKind !== undefined;
      const source = classifyTranscriptDenial({
        text: resultText,
        toolDenialKind: line.toolDenialKind,
        reasonType: rejected ? line.permissionDecision?.reasonType : undefined,
        decisionSource: rejected ? line.permissionDecision?.source : undefined,
      });
      if (source === undefined) continue;
      const denial: TranscriptDenial = {
        toolUseId: block.tool_use_id,
        tool: NO_SUCH_TOOL.exec(resultText)?.[1] ?? "unknown",
        input: {},
        text: resultText,
        source,
      };
      if (rejected && line.permissionDecision?.reasonType)
        denial.decisionReasonType = line.permissionDecision.reasonType;
      if (rejected && line.permissionDecision?.ruleSource) denial.ruleSource = line.permissionDecision.ruleSource;
      if (line.agentId) denial.agentId = line.agentId;
      const written = typeof line.timestamp === "string" ? Date.parse(line.timestamp) : Number.NaN;
      if (Number.isFinite(written) && written > 0) denial.at = written;
      pending.push({ denial, at });
    }
  }
  // the tool and input of the call each result answers: the newest tool_use with its id before the result's line.
  // Searched newest result first: a file is searched through a window (read-transcript.ts), and a search back from
  // an older result starts inside the window the newer one's search left, where in file order each search started
  // past it and read a window again (a first Stop with 56 refusals read 15 MB of a 2 MB transcript)
  const paired: TranscriptDenial[] = new Array(pending.length);
  for (let index = pending.length - 1; index >= 0; index -= 1) {
    const { denial, at } = pending[index] as (typeof pending)[number];
    const use = transcript.lastWith(JSON.stringify(denial.toolUseId), at, (raw, lineAt) =>
      raw.includes('"tool_use"') ? toolUseIn(raw, denial.toolUseId, lineAt) : undefined,
    );
    paired[index] =
      use === undefined
        ? denial
        : {
            ...denial,
            tool: use.tool,
            input: use.input ?? {},
            ...(use.line === undefined ? {} : { callLine: use.line }),
          };
  }
  return paired;
}

/**
 * The tool_use block with this id in an assistant line (the last one, as a later block would win), with the line
 * (`at`: its position) as a call line.
 */
function toolUseIn(
  raw: string,
  id: string,
  at: number,
): { tool: string; input: unknown; line: CallLine | undefined } | undefined {
  const line = parseLine(raw);
  if (line?.type !== "assistant") return undefined;
  let use: { tool: string; input: unknown } | undefined;
  for (const block of blocksOf(line)) {
    if (block.type === "tool_use" && block.id === id) use = { tool: String(block.name), input: block.input };
  }
  return use === undefined ? undefined : { ...use, line: callLineOf(line, at) };
}

function parseLine(raw: string): TranscriptLine | undefined {
  try {
    const line = JSON.parse(raw) as unknown;
    return typeof line === "object" && line !== null ? (line as TranscriptLine) : undefined;
  } catch {
    return undefined;
  }
}

function blocksOf(line: TranscriptLine): ContentBlock[] {
  return Array.isArray(line.message?.content) ? (line.message.content as ContentBlock[]) : [];
}

/** The id of the newest tool_use for this tool and input: PermissionRequest payloads carry no tool_use_id. */
export function findToolUseId(options: {
  transcript: string | TranscriptLines;
  tool: string;
  input: unknown;
}): string | undefined {
  const wanted = JSON.stringify(options.input);
  const transcript =
    typeof options.transcript === "string" ? transcriptLinesOf(options.transcript) : options.transcript;
  // searched back from the end: the newest `"tool_use"` line whose block matches (only the lines searched are read)
  return transcript.lastWith('"tool_use"', Number.MAX_SAFE_INTEGER, (raw) => {
    const line = parseLine(raw);
    if (line?.type !== "assistant") return undefined;
    for (const block of [...blocksOf(line)].reverse()) {
      if (block.type === "tool_use" && block.name === options.tool && JSON.stringify(block.input) === wanted) {
        return block.id;
      }
    }
    return undefined;
  });
}
