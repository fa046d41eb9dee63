// Instructions executed (callgrind Ir, V8's hash-seed prime search left out) by the bundled hook entry on Gemini CLI's
// AfterAgent while one wasted call toolgate refused at BeforeTool waits for its tokens (the recorded 7 KB session file
// test/fixtures/gemini/hook-refused.session.jsonl), after a warm-up round; then whether the session's summary named them.
// Usage: npm run build && node bench/gemini-refusal-tokens.callgrind.mjs [<tree with dist/> [<runs>]]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repository = join(dirname(fileURLToPath(import.meta.url)), "..");
const [tree = repository, runsText] = process.argv.slice(2);
const runs = Number(runsText ?? 1);
const entry = join(tree, "dist", "hook", "toolgate-hook.cjs");
const root = mkdtempSync(join(tmpdir(), "toolgate-gemini-tokens-"));
const home = join(root, "home");
const project = join(root, "project");
mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
mkdirSync(project);
writeFileSync(
  join(home, ".gemini", "policies", "deny-rm.toml"),
  '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 200\n',
);
const env = { PATH: process.env.PATH, HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
// the recorded session file, its calls moved a year on (recorded after the refusals this script makes now)
const session = readFileSync(
  join(repository, "test", "fixtures", "gemini", "hook-refused.session.jsonl"),
  "utf8",
).replaceAll("2026-11-28T02:47:24.", "2027-11-28T02:47:24.");
const hook = (payload, valgrind, out) => {
  const argv = valgrind
    ? ["valgrind", "--tool=callgrind", `--callgrind-out-file=${out}`, process.execPath, entry, "hook", "gemini"]
    : [process.execPath, entry, "hook", "gemini"];
  const r = spawnSync(argv[0], argv.slice(1), { input: JSON.stringify(payload), env, cwd: project, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.slice(-800)}`);
  return r;
};
const base = (id, event) => ({
  session_id: id,
  transcript_path: join(root, `${id}.jsonl`),
  cwd: project,
  hook_event_name: event,
  timestamp: new Date().toISOString(),
});
const before = (id, command) =>
  hook({ ...base(id, "BeforeTool"), tool_name: "run_shell_command", tool_input: { command } });
const counts = [];
for (let round = 0; round < runs + 1; round += 1) {
  const id = `s${round}`;
  writeFileSync(join(root, `${id}.jsonl`), session);
  hook({ ...base(`drain${round}`, "SessionEnd"), reason: "exit" });
  before(id, "rm -rf victim");
  before(id, "rm -rf ./victim");
  const out = join(root, "callgrind.out");
  const r = hook(
    { ...base(id, "AfterAgent"), prompt: "p", prompt_response: "r", stop_hook_active: false },
    round > 0,
    out,
  );
  if (round === 0) continue; // warm-up
  const total = Number(/==\d+== Collected : (\d+)/.exec(r.stderr)[1]);
  const annotated = spawnSync("callgrind_annotate", ["--threshold=100", out], { encoding: "utf8" }).stdout ?? "";
  const line = /^\s*([\d,]+) \([^)]*\)\s+\S*detail::sprp\(/m.exec(annotated);
  counts.push(total - (line === null ? 0 : Number(line[1].replaceAll(",", ""))));
}
// the session's summary after a SessionEnd of the last session: is wastedTokens named?
hook({ ...base(`s${runs}`, "SessionEnd"), reason: "exit" });
const report = spawnSync(
  process.execPath,
  [join(tree, "dist", "cli", "main.js"), "report", "--json", "--session", `s${runs}`],
  { env, cwd: project, encoding: "utf8" },
);
const figures = JSON.parse(report.stdout).figures;
console.log(
  JSON.stringify({
    tree,
    counts: counts.map((c) => (c / 1e6).toFixed(1)),
    wastedCalls: figures.wastedCalls,
    wastedTokens: figures.wastedTokens,
  }),
);
rmSync(root, { recursive: true, force: true });
