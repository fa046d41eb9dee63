import { ownEntry } from "../own-entry.js";
/**
 * How many leading words name a command's family: `git push origin main` -> `git push` (git has arity 2),
 * `npm run test -- --watch` -> `npm run test` (`npm run` has arity 3). Like the BashArity table some hosts use: the longest
 * listed prefix wins; unlisted programs have arity 1. Option words (`-C dir`) are skipped when counting.
 */
export const COMMAND_ARITY: Readonly<Record<string, number>> = {
  git: 2,
  "git stash": 3,
  "git remote": 3,
  "git submodule": 3,
  "git worktree": 3,
  npm: 2,
  "npm run": 3,
  "npm exec": 3,
  pnpm: 2,
  "pnpm run": 3,
  "pnpm exec": 3,
  yarn: 2,
  "yarn run": 3,
  bun: 2,
  "bun run": 3,
  bunx: 2,
  npx: 2,
  deno: 2,
  "deno task": 3,
  node: 1,
  pip: 2,
  pip3: 2,
  uv: 2,
  "uv run": 3,
  poetry: 2,
  "poetry run": 3,
  cargo: 2,
  go: 2,
  "go mod": 3,
  make: 2,
  docker: 2,
  "docker compose": 3,
  "docker container": 3,
  "docker image": 3,
  kubectl: 2,
  helm: 2,
  gh: 3,
  terraform: 2,
  brew: 2,
  apt: 2,
  "apt-get": 2,
  systemctl: 2,
  dotnet: 2,
  mvn: 2,
  gradle: 2,
  "./gradlew": 2,
  composer: 2,
  bundle: 2,
  "bundle exec": 3,
  rake: 2,
  mix: 2,
  swift: 2,
  aws: 3,
  gcloud: 3,
  az: 3,
  vercel: 2,
  wrangler: 2,
  turbo: 2,
  nx: 2,
  tsc: 1,
  pytest: 1,
  vitest: 2,
  jest: 1,
  python: 1,
  python3: 1,
};

/** Options that take a value before a subcommand (`git -C dir push`). */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ["-C", "-c", "--git-dir", "--work-tree"],
  docker: ["-H", "--host", "--context", "-c"],
  kubectl: ["-n", "--namespace", "--context"],
  npm: ["--prefix", "-w", "--workspace"],
  pnpm: ["--filter", "-C", "--dir"],
  make: ["-C", "-f", "-j"],
  cargo: ["--manifest-path"],
};

/** The family prefix of a command's words (program name without its directory). */
export function commandPrefix(words: readonly string[]): string[] {
  const [first, ...rest] = words;
  if (first === undefined) return [];
  const program = first.includes("/") && !first.startsWith("./") ? first.slice(first.lastIndexOf("/") + 1) : first;
  const valueOptions = ownEntry(VALUE_OPTIONS, program) ?? [];
  const positional: string[] = [];
  for (let index = 0; index < rest.length && positional.length < 3; index++) {
    const word = rest[index] as string;
    if (word.startsWith("-")) {
      if (valueOptions.includes(word)) index++;
      continue;
    }
    positional.push(word);
  }
  const prefix = [program];
  let arity = ownEntry(COMMAND_ARITY, program) ?? 1;
  while (prefix.length < arity && positional.length > 0) {
    prefix.push(positional.shift() as string);
    const longer = ownEntry(COMMAND_ARITY, prefix.join(" "));
    if (longer !== undefined) arity = longer;
  }
  return prefix;
}
