// The policy benchmarks' workload, shared by bench/policy.bench.mjs (times) and bench/policy.callgrind.mjs
// (instruction counts): 200 mixed rules and a realistic call mix, so both measure the same thing.

export const cwd = "/repo";
export const homeDir = "/home/dev";
const programs = ["zz", "git", "npm", "cargo", "docker", "kubectl", "make", "python3", "go", "pnpm"];

// ---- 200 mixed rules: 120 shell prefixes, 40 file paths, 20 domains, 20 MCP --------------------------------------
export const rules = [];
const behaviors = ["allow", "ask", "deny"];
for (let index = 0; index < 120; index++) {
  const program = programs[index % programs.length];
  rules.push({ rule: `Bash(${program} task${index} *)`, behavior: behaviors[index % 3] });
}
for (let index = 0; index < 40; index++) {
  const tool = index % 2 === 0 ? "Read" : "Edit";
  rules.push({ rule: `${tool}(/src/module${index}/**)`, behavior: index % 4 === 0 ? "deny" : "allow" });
}
for (let index = 0; index < 20; index++) {
  rules.push({ rule: `WebFetch(domain:site${index}.example.com)`, behavior: index % 2 === 0 ? "allow" : "deny" });
}
for (let index = 0; index < 20; index++) {
  rules.push({ rule: `mcp__server${index % 5}__tool${index}`, behavior: behaviors[index % 3] });
}

// ---- a realistic call mix: 60% shell (a third compound), 25% files, 10% web, 5% MCP -------------------------------
/** `count` calls of the mix, the `first`-th call of the sequence first (distinct `first`s give distinct calls). */
export function makeCalls(count, first = 0) {
  const calls = [];
  for (let index = first; calls.length < count; index++) {
    const slot = index % 20;
    const n = index % 150;
    if (slot < 12) {
      const program = programs[n % programs.length];
      const simple = `${program} task${n} --flag value${index}`;
      const command =
        slot % 3 === 0
          ? `cd /repo && ${simple} | grep ok${index}`
          : slot % 3 === 1
            ? `git status --short ${index}`
            : simple;
      calls.push({ tool: "Bash", input: { command, description: "run" } });
    } else if (slot < 17) {
      const tool = slot % 2 === 0 ? "Read" : "Edit";
      calls.push({
        tool,
        input: { file_path: `/repo/src/module${n % 50}/file${index}.ts`, old_string: "a", new_string: "b" },
      });
    } else if (slot < 19) {
      calls.push({
        tool: "WebFetch",
        input: { url: `https://site${n % 30}.example.com/page${index}`, prompt: "read" },
      });
    } else {
      calls.push({ tool: `mcp__server${n % 5}__tool${n % 25}`, input: { query: `q${index}` } });
    }
  }
  return calls;
}
