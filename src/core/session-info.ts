import { audit } from "./audit-event.js";
import type { TurnStartedEvent } from "./events.js";
import type { StepContext } from "./step-context.js";

/**
 * What a person scans a session list by: the project (the host's working directory) and the first line of the
 * first prompt. Both are redacted with toolgate's redaction and bounded before they leave the core (as a
 * `session.info` audit event, stored once per session); the first of each wins.
 */
export interface SessionInfo {
  /** the project path, redacted, at most SESSION_INFO_MAX_CHARS (a longer one keeps its end) */
  project?: string;
  /** the first non-blank line of the first prompt, redacted, at most SESSION_INFO_MAX_CHARS */
  firstPrompt?: string;
}

/** The most characters (code points) kept of the project path and of the prompt's first line. */
export const SESSION_INFO_MAX_CHARS = 200;
/** How much of the first line is read (and redacted) at all: a longer line is cut here first. */
const SCAN_CHARS = 4096;
const ELLIPSIS = "…";

/** The first line of a prompt that holds more than white space, trimmed; undefined for a blank prompt. */
export function firstPromptLine(prompt: string): string | undefined {
  const head = prompt.length > SCAN_CHARS * 4 ? prompt.slice(0, SCAN_CHARS * 4) : prompt;
  for (const line of head.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed !== "") return trimmed.length > SCAN_CHARS ? trimmed.slice(0, SCAN_CHARS) : trimmed;
  }
  return undefined;
}

/** C0 controls and DEL become a space: a stored line is one line. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what this removes
  return text.replace(/[\u0000-\u001f\u007f]/g, " ");
}

function keepStart(text: string): string {
  const points = Array.from(text);
  if (points.length <= SESSION_INFO_MAX_CHARS) return text;
  return `${points.slice(0, SESSION_INFO_MAX_CHARS - 1).join("")}${ELLIPSIS}`;
}

function keepEnd(text: string): string {
  const points = Array.from(text);
  if (points.length <= SESSION_INFO_MAX_CHARS) return text;
  return `${ELLIPSIS}${points.slice(points.length - SESSION_INFO_MAX_CHARS + 1).join("")}`;
}

/**
 * The session facts as they may be stored: each redacted (`redactText`, the core's port) and then bounded, so a
 * secret is never cut in half before redaction sees it. Absent or blank facts are left out; undefined when none is
 * left.
 */
export function sessionInfoOf(
  facts: { project?: string | undefined; prompt?: string | undefined },
  redactText: (text: string) => string,
): SessionInfo | undefined {
  const info: SessionInfo = {};
  const project = facts.project?.trim();
  if (project !== undefined && project !== "") {
    info.project = keepEnd(oneLine(redactText(project.length > SCAN_CHARS ? project.slice(-SCAN_CHARS) : project)));
  }
  const line = facts.prompt === undefined ? undefined : firstPromptLine(facts.prompt);
  if (line !== undefined) info.firstPrompt = keepStart(oneLine(redactText(line)).trim());
  return info.project === undefined && info.firstPrompt === undefined ? undefined : info;
}

/**
 * At a turn's start: emits a `session.info` audit event with the facts not yet emitted for this session (the first
 * project, the first prompt), and marks them emitted in the state. Nothing when the event carries neither.
 */
export function describeSession(context: StepContext, event: TurnStartedEvent): void {
  const described = context.state.described;
  // most turns carry nothing new to describe: answered before any object is built
  const newProject = described?.project !== true && event.project !== undefined;
  const newPrompt = described?.prompt !== true && event.prompt !== undefined;
  if (!newProject && !newPrompt) return;
  const wanted = {
    ...(described?.project === true ? {} : { project: event.project }),
    ...(described?.prompt === true ? {} : { prompt: event.prompt }),
  };
  if (wanted.project === undefined && wanted.prompt === undefined) return;
  const info = sessionInfoOf(wanted, context.config.ports.redactText);
  if (info === undefined) return;
  context.state.described = {
    ...described,
    ...(info.project === undefined ? {} : { project: true }),
    ...(info.firstPrompt === undefined ? {} : { prompt: true }),
  };
  context.effects.push(audit(context, { kind: "session.info", event, detail: { ...info } }));
}
