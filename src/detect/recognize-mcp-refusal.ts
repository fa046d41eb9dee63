import type { OsDenialKind } from "../core/events.js";
import { classifyOsDenial } from "./classify-os-denial.js";
import { redactText } from "./redact.js";
import { truncateCodePoints } from "./summarize-input.js";

/**
 * Tells an MCP server's permission refusal (an `isError` tool result that says the server would not do it: a path
 * outside its allowed directories, an access-denied error, an OS EACCES/EPERM it passed on) from an ordinary tool
 * error (a missing file, a bad argument), so the proxy counts refusals as denials and leaves other errors alone.
 * Pure and linear in the size of the text.
 *
 * To extend: add a server's wording to `MCP_REFUSAL_LINE` with a positive and a negative row in
 * `recognize-mcp-refusal.test.ts`.
 */

export interface McpRefusal {
  kind: OsDenialKind;
  /** the line that decided (redacted, at most 300 characters) */
  evidence: string;
  /** the refused path when the text names one */
  path?: string;
}

/**
 * Wordings of MCP servers that refuse by policy: the reference filesystem server (`Access denied - path outside
 * allowed directories: /x not in /y`), servers that name their allow-list, and common authorization refusals.
 */
export const MCP_REFUSAL_LINE =
  /\baccess denied\b|outside (?:of )?(?:the )?allowed (?:directories|directory|paths|roots)|not (?:in|within) (?:the )?allowed (?:directories|paths|roots)|\bnot allowed by (?:the )?(?:server|policy|configuration)\b|\bdenied by (?:the )?(?:server|policy)\b|\bpermission denied\b|\binsufficient (?:permissions?|scopes?)\b|\bnot authorized to\b|\bunauthorized\b|\bforbidden\b|resource not accessible by/i;

/** Where the filesystem server names the refused path: `...allowed directories: /x not in /y`. */
const REFUSED_PATH = /(?:directories|Access denied)[^:\n]{0,80}: (\/[^\s,]{1,4096}) not in /;

const MAX_SCAN = 64 * 1024;

/** The text of an `isError` tool result, classified; undefined when it is an ordinary error. */
export function recognizeMcpRefusal(options: { tool: string; text: string }): McpRefusal | undefined {
  const text = options.text.length <= MAX_SCAN ? options.text : options.text.slice(0, MAX_SCAN);
  const os = classifyOsDenial({ tool: options.tool, output: text, exitCode: 1 });
  if (os.kind !== "none") {
    return { kind: os.kind, evidence: os.evidence, ...(os.path === undefined ? {} : { path: os.path }) };
  }
  for (const line of text.split("\n")) {
    if (!MCP_REFUSAL_LINE.test(line)) continue;
    const path = REFUSED_PATH.exec(line)?.[1];
    const evidence = truncateCodePoints(redactText(line.trim()), 300);
    return path === undefined
      ? { kind: "os-permission", evidence }
      : { kind: "sandbox-filesystem", evidence, path: redactText(path) };
  }
  return undefined;
}
