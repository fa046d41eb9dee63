/**
 * The line toolgate prints when headless `opencode run` auto-rejected an ask and stopped the run (exit 0, empty
 * output): the tool, the call, the pattern, and the opencode.json rule that would allow it.
 */
export function describeHostStop(options: {
  tool: string;
  /** what was asked for (`rm -rf victim`) */
  subject: string;
  /** opencode's permission name (`bash`, `edit`, `external_directory`) */
  permission: string;
  /** the pattern opencode offers to always allow (`rm *`) */
  rulePattern: string;
}): { line: string; ruleToAdd: string } {
  const ruleToAdd = `"permission": { ${JSON.stringify(options.permission)}: { ${JSON.stringify(options.rulePattern)}: "allow" } }`;
  const line =
    `toolgate: opencode run auto-rejected ${options.tool} ${JSON.stringify(options.subject)} ` +
    `(pattern ${JSON.stringify(options.rulePattern)}) and stopped the run; nobody can answer an ask headless. ` +
    `To allow it, add to opencode.json: ${ruleToAdd}`;
  return { line, ruleToAdd };
}
