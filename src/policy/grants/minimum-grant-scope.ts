import type { GrantScope } from "../../core/effects.js";
import { hostOf } from "../match/domain-specifier.js";
import { commonDirectory, normalizePath } from "../paths.js";
import { analyzeShellCommand } from "../shell/analyze-shell-command.js";
import { canonicalToolName, commandOf, pathOf, toolFamily, urlOf } from "../tool-families.js";
import { pathSpecifier } from "./path-rule-text.js";
import { SAFE_GRANT_PREFIXES } from "./safe-grant-prefixes.js";

export interface GrantScopeRequest {
  tool: string;
  /** the inputs of the repeated requests, oldest first; the newest is last */
  inputs: readonly unknown[];
  /** the escalation family (`commandPattern`) */
  pattern: string;
  /** whether the configuration allows granting the whole tool (`escalation.grantWholeTool`) */
  wholeTool: boolean;
}

const SAFE_PREFIX_WORDS = [...SAFE_GRANT_PREFIXES]
  .map((prefix) => prefix.split(" "))
  .sort((a, b) => b.length - a.length);

/**
 * The minimum scope that covers the repeated requests, as a Claude Code rule:
 * 1. the whole tool, only when configured (`wholeTool`);
 * 2. the exact call when every request was the same call;
 * 3. shell: a command prefix when every request starts with the same prefix from the safe table
 *    (`Bash(npm run test *)`); otherwise only the newest exact call;
 * 4. file tools: the smallest common directory of the paths (`Edit(//repo/src/**)`), never the filesystem root;
 * 5. WebFetch: the domain, when all requests went to one host;
 * 6. tools without a specifier syntax (MCP and others) can only be granted as the whole tool.
 */
export function minimumGrantScope(request: GrantScopeRequest): GrantScope {
  const tool = canonicalToolName(request.tool);
  const family = toolFamily(tool);
  if (request.wholeTool || family === "mcp" || family === "other" || request.inputs.length === 0) {
    return { tool, kind: "tool", rule: tool, description: `every ${tool} call` };
  }
  const newest = request.inputs[request.inputs.length - 1];
  if (family === "shell") return shellScope(tool, request.inputs, newest);
  if (family === "web") {
    const hosts = new Set(request.inputs.map((input) => hostOf(urlOf(input) ?? "")));
    const host = hostOf(urlOf(newest) ?? "");
    if (host === undefined || hosts.size !== 1)
      return { tool, kind: "tool", rule: tool, description: `every ${tool} call` };
    return { tool, kind: "domain", rule: `${tool}(domain:${host})`, description: `${tool} requests to ${host}` };
  }
  const paths = request.inputs.map((input) => pathOf(input)).filter((path): path is string => path !== undefined);
  const newestPath = pathOf(newest);
  if (newestPath === undefined) return { tool, kind: "tool", rule: tool, description: `every ${tool} call` };
  const absolute = paths.map((path) => (path.startsWith("/") ? normalizePath(path) : normalizePath(`/${path}`)));
  const relative = !newestPath.startsWith("/");
  const unique = new Set(absolute);
  if (unique.size === 1) {
    const path = relative ? (absolute[0] as string).slice(1) : (absolute[0] as string);
    return { tool, kind: "exact", rule: `${tool}(${pathSpecifier(path)})`, description: `${tool} on ${path}` };
  }
  const directory = commonDirectory(absolute);
  if (directory === "/" || paths.some((path) => path.startsWith("/") === relative)) {
    const path = relative ? normalizePath(`/${newestPath}`).slice(1) : normalizePath(newestPath);
    return { tool, kind: "exact", rule: `${tool}(${pathSpecifier(path)})`, description: `${tool} on ${path}` };
  }
  const shown = relative ? directory.slice(1) : directory;
  return {
    tool,
    kind: "directory",
    rule: `${tool}(${pathSpecifier(shown)}/**)`,
    description: `${tool} on files under ${shown}/`,
  };
}

function shellScope(tool: string, inputs: readonly unknown[], newest: unknown): GrantScope {
  const commands = inputs.map((input) => (commandOf(input) ?? "").trim().replace(/\s+/g, " "));
  const latest = (commandOf(newest) ?? "").trim().replace(/\s+/g, " ");
  const exact: GrantScope = { tool, kind: "exact", rule: `${tool}(${latest})`, description: `the command "${latest}"` };
  if (new Set(commands).size === 1) return exact;
  const wordLists: string[][] = [];
  for (const command of commands) {
    const analysis = analyzeShellCommand(command);
    const sub = analysis.subcommands[0];
    if (!analysis.complete || analysis.subcommands.length !== 1 || sub === undefined) return exact;
    if (sub.redirects.length > 0 || sub.wrappers.length > 0) return exact;
    wordLists.push(sub.words);
  }
  for (const prefix of SAFE_PREFIX_WORDS) {
    if (wordLists.every((words) => prefix.every((word, index) => words[index] === word))) {
      const text = prefix.join(" ");
      return {
        tool,
        kind: "prefix",
        rule: `${tool}(${text} *)`,
        description: `${tool} commands starting with "${text}"`,
      };
    }
  }
  return exact;
}
