import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DoctorCheck, type DoctorContext, fail, ok, warn } from "../common/doctor-check.js";
import { parseJsonc } from "../common/json-file-edit.js";
import { listCodexHooks } from "./codex-app-server.js";
import { codexHome, codexRulesFiles, isTrustedCodexProject, loadCodexExecpolicy } from "./codex-execpolicy.js";
import { isToolgateCodexCommand } from "./codex-hooks-file.js";
import { codexBinary, MANUAL_TRUST_STEP } from "./codex-installer.js";
import { codexHooksPath } from "./install-codex.js";

const SCOPES = ["user", "project"] as const;

function environment(context: DoctorContext): Readonly<Record<string, string | undefined>> {
  return { HOME: context.home, ...context.env };
}

/** Codex is set up here when its home ($CODEX_HOME or ~/.codex) or a project .codex/ folder exists. */
export function codexFound(context: DoctorContext): boolean {
  return existsSync(codexHome(environment(context))) || existsSync(join(context.cwd, ".codex"));
}

/** Where doctor looks for Codex (for the "no host found" line). */
export function codexLocations(context: DoctorContext): string[] {
  return [codexHome(environment(context)), join(context.cwd, ".codex")];
}

function toolgateEntries(path: string): number | Error {
  try {
    const file = parseJsonc(readFileSync(path, "utf8")) as {
      hooks?: Record<string, { hooks?: { command?: unknown }[] }[]>;
    };
    let count = 0;
    for (const groups of Object.values(file.hooks ?? {})) {
      for (const group of Array.isArray(groups) ? groups : []) {
        count += (group.hooks ?? []).filter((entry) => isToolgateCodexCommand(entry.command)).length;
      }
    }
    return count;
  } catch (error) {
    return error as Error;
  }
}

/**
 * toolgate's entries in Codex's hooks.json (user and project), whether Codex itself lists them as trusted and
 * enabled for this project (asked through `codex app-server`, never computed), whether the project's `.codex/` is
 * loaded at all, and which `.rules` forms toolgate does not understand.
 */
export async function checkCodex(context: DoctorContext): Promise<DoctorCheck[]> {
  const env = environment(context);
  const checks: DoctorCheck[] = [];
  const installed: string[] = [];
  for (const scope of SCOPES) {
    const path = codexHooksPath({ scope, cwd: context.cwd, env });
    if (!existsSync(path)) continue;
    const count = toolgateEntries(path);
    const name = `codex hooks (${scope})`;
    if (count instanceof Error) {
      checks.push(fail(name, `${path} is not valid JSON (${count.message})`, { fix: `Fix the JSON in ${path}.` }));
    } else if (count > 0) {
      installed.push(path);
      checks.push(ok(name, `${path} runs toolgate on ${count} events`));
    }
  }
  if (installed.length === 0) {
    checks.push(
      warn("codex hooks", "no toolgate entry in Codex's hooks.json", {
        fix: "toolgate install codex --user   # or --project",
      }),
    );
    return checks;
  }
  const projectTrusted = isTrustedCodexProject({ home: codexHome(env), project: context.cwd });
  const projectHooks = codexHooksPath({ scope: "project", cwd: context.cwd, env });
  if (installed.includes(projectHooks) && !projectTrusted) {
    checks.push(
      warn(
        "codex project trust",
        `Codex does not trust ${context.cwd}, so it ignores ${projectHooks} and the project's .codex/rules`,
        {
          fix: `Open \`codex\` in ${context.cwd} once and trust the project, or use \`toolgate install codex --user\`.`,
        },
      ),
    );
  }
  try {
    const hooks = await listCodexHooks({ codex: codexBinary(env), cwd: context.cwd, env: { ...process.env, ...env } });
    const ours = hooks.filter((hook) => isToolgateCodexCommand(hook.command));
    const active = ours.filter((hook) => hook.enabled && hook.trustStatus === "trusted");
    const inactive = ours.filter((hook) => !hook.enabled || hook.trustStatus !== "trusted");
    if (ours.length === 0) {
      checks.push(
        fail("codex hook trust", `Codex lists none of toolgate's hooks for ${context.cwd}`, { fix: MANUAL_TRUST_STEP }),
      );
    } else if (inactive.length > 0) {
      checks.push(
        fail(
          "codex hook trust",
          `Codex will not run ${inactive.length} of toolgate's ${ours.length} hooks: ${inactive.map((hook) => `${hook.eventName} (${hook.enabled ? hook.trustStatus : "disabled"})`).join(", ")}`,
          {
            fix: `toolgate install codex --${installed.includes(projectHooks) ? "project" : "user"}   # trusts them through codex app-server; or: ${MANUAL_TRUST_STEP}`,
          },
        ),
      );
    } else {
      checks.push(ok("codex hook trust", `Codex trusts and runs toolgate's ${active.length} hooks here`));
    }
  } catch (error) {
    checks.push(
      warn("codex hook trust", `could not ask Codex (${(error as Error).message})`, { fix: MANUAL_TRUST_STEP }),
    );
  }
  const { files, untrustedProjectFiles } = codexRulesFiles({ cwd: context.cwd, env });
  const policy = loadCodexExecpolicy({ cwd: context.cwd, env });
  if (policy.problems.length > 0) {
    checks.push(
      warn(
        "codex rules",
        [
          `toolgate reads ${policy.rules.length} prefix_rule(s) from ${files.length} file(s); these forms it does not understand (Codex applies what its own parser accepts, and toolgate counts those refusals from the rollout):`,
          ...policy.problems.slice(0, 20).map((problem) => `${problem.source}: ${problem.message}`),
        ].join("\n"),
        {
          fix: 'Write them as literal prefix_rule([...], "...") or prefix_rule(pattern = [...], decision = "...") calls so toolgate can deny first with its guidance.',
        },
      ),
    );
  } else if (files.length > 0) {
    checks.push(ok("codex rules", `${policy.rules.length} prefix_rule(s) from ${files.join(", ")}`));
  }
  if (untrustedProjectFiles.length > 0) {
    checks.push(
      warn("codex rules", `Codex ignores ${untrustedProjectFiles.join(", ")}: the project is not trusted`, {
        fix: `Open \`codex\` in ${context.cwd} once and trust the project.`,
      }),
    );
  }
  return checks;
}
