import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactValue } from "../../src/detect/redact.js";
import { cliPath, ensureBuilt } from "../cli/cli-fixture.js";
import { secretCorpus } from "../support/redaction-corpus.mjs";

/**
 * Issue 12, class 3: every planted secret stays out of everything toolgate stores, logs or sends. The BUILT hook
 * (`toolgate hook claude-code`) gets the events Claude Code sends (shapes of test/fixtures/claude-code/*.json), one
 * session per secret kind the redactor knows (the first sample of each kind in test/support/redaction-corpus.mjs),
 * with the secret planted in every place a host can put one. Every sink is on: JSON logs to a file, a command hook,
 * a webhook on 127.0.0.1, the SQLite store (TOOLGATE_DB) and the spool (an outage phase, the webhook answering 503,
 * leaves every kind's delivery there). Then every byte of every file toolgate wrote,
 * every webhook body and header, every hook answer and the CLI's `tail --json` and `report --json` is searched for
 * each secret and for every 8-character fragment of it.
 */

interface Sample {
  kind: string;
  text: string;
  secrets: string[];
}

/** deterministic fake text over an alphabet (seeded by a label), so no secret-shaped literal sits in the source */
function fake(label: string, alphabet: string, length: number): string {
  let out = "";
  for (let block = 0; out.length < length; block++) {
    const digest = createHash("sha256").update(`${label}:${block}`).digest();
    for (const byte of digest) if (out.length < length) out += alphabet[byte % alphabet.length];
  }
  return out;
}

const HEX = "0123456789abcdef";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const part = (...pieces: string[]) => pieces.join("");

/** the kinds known-secret-detectors.ts knows that the shared corpus has no sample of (yet) */
function extraSamples(): Sample[] {
  const openrouter = part("sk-", "or-v1-") + fake("openrouter", HEX, 64);
  const slackWebhook = `T${fake("slack-t", ALNUM, 10)}/B${fake("slack-b", ALNUM, 10)}/${fake("slack-x", ALNUM, 24)}`;
  const supabase = part("sb", "p_") + fake("supabase", HEX, 40);
  const telegram = `${fake("telegram-id", "0123456789", 9)}:${part("A", "A")}${fake("telegram", `${ALNUM}_-`, 33)}`;
  return [
    { kind: "openrouter-api-key", text: `OPENROUTER_KEY=${openrouter} node agent.js`, secrets: [openrouter] },
    {
      kind: "slack-webhook",
      text: `curl -X POST -d '{"text":"hi"}' https://${part("hooks.", "slack.com")}/services/${slackWebhook}`,
      secrets: [slackWebhook],
    },
    { kind: "supabase-token", text: `supabase login --token ${supabase}`, secrets: [supabase] },
    {
      kind: "telegram-bot-token",
      text: `curl https://api.telegram.org/bot${telegram}/getMe`,
      secrets: [telegram],
    },
  ];
}

/** one sample per kind: the first in the corpus (the reserved-character URL rows are variants of url-password) */
function samplesByKind(): Sample[] {
  const seen = new Map<string, Sample>();
  for (const row of [...secretCorpus(), ...extraSamples()]) if (!seen.has(row.kind)) seen.set(row.kind, row);
  return [...seen.values()];
}

const FRAGMENT = 8;

/** whether the redactor, having found the secret in the sample's text, also removes a copy of it elsewhere */
function knownAsUnit(sample: Sample): boolean {
  const secret = sample.secrets[0] as string;
  return !JSON.stringify(redactValue([sample.text, `/srv/${secret}/x`])).includes(secret);
}

/** the secret, its JSON-escaped and URL-encoded forms, and every 8-character window (any longer fragment holds one) */
function needlesOf(secret: string): string[] {
  const needles = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  for (let start = 0; start + FRAGMENT <= secret.length; start++) needles.add(secret.slice(start, start + FRAGMENT));
  return [...needles];
}

interface HookRun {
  event: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

// PLANTED_ONLY=<kind> runs one kind; PLANTED_KEEP=1 keeps the temp directory to look at; PLANTED_CLI=<main.js> runs
// another build (a mutant, to see the test fail): debugging only
/** a secret in the user's own config (a hook's command line): it may stay there, and go nowhere else */
const configSecret = secretCorpus(7).find((row) => row.kind === "github-token")?.secrets[0] as string;
const samples = samplesByKind().filter((s) => !process.env.PLANTED_ONLY || s.kind === process.env.PLANTED_ONLY);
let root = "";
let home = "";
let project = "";
let inputs = "";
let out = "";
let server: Server;
const received: Received[] = [];
const hookRuns = new Map<string, HookRun[]>();
const cliOutputs: { name: string; text: string }[] = [];

/** the outage phase: the webhook answers 503, so its deliveries wait in the spool */
let outage = false;

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    TOOLGATE_DB: join(out, "toolgate.db"),
    TOOLGATE_INTERACTIVE: "0",
    // escalate on the second denial of a pattern, so escalation texts and events (with suggested rules) are covered
    TOOLGATE_DENY_THRESHOLD: "2",
    CLAUDE_PROJECT_DIR: project,
  };
}

function run(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [process.env.PLANTED_CLI ?? cliPath, ...args], { cwd: project, env: env() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

/** The events of one session, each with the sample planted where a host can put a secret. */
function eventsFor(sample: Sample, index: number): Record<string, unknown>[] {
  const sessionId = `5ec7e75e-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const secret = sample.secrets[0] as string;
  const transcriptPath = join(inputs, `${sessionId}.jsonl`);
  const common = {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: project,
    prompt_id: "8fe228cb-b019-4199-8528-1effaf441548",
    permission_mode: "default",
    effort: { level: "medium" },
  };
  const id = (n: number) => `toolu_planted_${index}_${n}`;
  // a transcript that holds a denied call (reconciled at Stop) but not the PermissionRequest's call
  const deniedInput = { command: `${sample.text} --force`, description: "retry" };
  const lines = [
    {
      type: "assistant",
      sessionId,
      message: { role: "assistant", content: [{ type: "tool_use", id: id(9), name: "Bash", input: deniedInput }] },
    },
    {
      type: "user",
      sessionId,
      toolDenialKind: "permission-rule",
      permissionDecision: { decision: "reject", source: "config", reasonType: "rule" },
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: id(9),
            is_error: true,
            content: `Permission to use Bash with command ${deniedInput.command} has been denied.`,
          },
        ],
      },
    },
  ];
  writeFileSync(transcriptPath, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  const pre = (n: number, tool: string, input: unknown) => ({
    ...common,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: id(n),
  });
  return [
    { ...common, hook_event_name: "UserPromptSubmit", prompt: "Deploy the app." },
    // a Bash command
    pre(1, "Bash", { command: sample.text, description: "run it" }),
    // a file path
    pre(2, "Read", { file_path: `/srv/app/${sample.text}` }),
    // a URL with credentials
    pre(3, "WebFetch", {
      url: `https://deploy:${encodeURIComponent(secret)}@ci.example.com/api/json`,
      prompt: "status",
    }),
    // an env-like KEY=value argument
    pre(4, "Bash", { command: `env DEPLOY_TOKEN='${secret}' ./deploy.sh`, description: "deploy" }),
    // a tool_input field named like a secret
    pre(5, "mcp__deploy__push", { target: "prod", client_secret: secret }),
    // a failure's error text
    {
      ...common,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "./deploy.sh", description: "deploy" },
      tool_use_id: id(6),
      error: `Exit code 1\n${sample.text}`,
      is_interrupt: false,
      duration_ms: 13,
    },
    // an output that shows an OS refusal
    {
      ...common,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: sample.text, description: "deploy" },
      tool_response: {
        stdout: sample.text,
        // the refused path (kept as the refusal's evidence and path) holds the secret too, when the redactor knows it
        // as a unit in the input (a line of a PEM body or one cookie of a Cookie header is no secret on its own)
        stderr: `bash: /srv/app/${knownAsUnit(sample) && !/[:\n]/.test(secret) ? secret : "deploy_key"}: Permission denied`,
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      },
      tool_use_id: id(7),
      duration_ms: 26,
    },
    // a headless PermissionRequest whose call is not in the transcript
    {
      ...common,
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
      tool_input: { command: sample.text, description: "approve it" },
      permission_suggestions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
    },
    // an auto-mode classifier's refusal, its reason quoting the call
    {
      ...common,
      hook_event_name: "PermissionDenied",
      permission_mode: "auto",
      tool_name: "Bash",
      tool_input: { command: `${sample.text} && echo done`, description: "deploy" },
      tool_use_id: id(8),
      reason: `Classifier refused: ${sample.text}`,
    },
    // a transcript line reconciled at Stop
    {
      ...common,
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "FINAL: done.",
      background_tasks: [],
      session_crons: [],
    },
  ];
}

/** every file under a directory, recursively */
function filesUnder(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path));
    else if (statSync(path).isFile()) files.push(path);
  }
  return files;
}

/** Each artifact toolgate produced: files (raw bytes), webhook deliveries, hook answers, CLI outputs. */
function artifacts(): { name: string; bytes: Buffer }[] {
  const list: { name: string; bytes: Buffer }[] = [];
  for (const directory of [out, home]) {
    for (const file of filesUnder(directory)) list.push({ name: file, bytes: readFileSync(file) });
  }
  received.forEach((request, index) => {
    list.push({ name: `webhook ${index} headers`, bytes: Buffer.from(JSON.stringify(request.headers)) });
    list.push({ name: `webhook ${index} body`, bytes: Buffer.from(request.body) });
  });
  for (const [kind, runs] of hookRuns) {
    for (const hook of runs) {
      list.push({ name: `${kind} ${hook.event} stdout`, bytes: Buffer.from(hook.stdout) });
      list.push({ name: `${kind} ${hook.event} stderr`, bytes: Buffer.from(hook.stderr) });
    }
  }
  for (const output of cliOutputs) list.push({ name: output.name, bytes: Buffer.from(output.text) });
  return list;
}

function leaksOf(sample: Sample, list: { name: string; bytes: Buffer }[]): string[] {
  const found: string[] = [];
  for (const secret of sample.secrets) {
    for (const needle of needlesOf(secret)) {
      const bytes = Buffer.from(needle, "utf8");
      for (const artifact of list) {
        if (artifact.bytes.includes(bytes)) found.push(`${artifact.name}: ${JSON.stringify(needle)}`);
      }
    }
  }
  return [...new Set(found)];
}

describe("planted secrets: nothing toolgate stores, logs or sends holds one", () => {
  beforeAll(async () => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), "toolgate-planted-"));
    home = join(root, "home");
    project = join(root, "project");
    inputs = join(root, "inputs");
    out = join(root, "out");
    for (const directory of [home, project, inputs, out]) mkdirSync(directory, { recursive: true });
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(outage ? 503 : 200).end(outage ? "down" : "ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const config = {
      permissions: { deny: ["Bash", "Read", "WebFetch", "mcp__deploy__push"] },
      store: { spoolDirectory: join(out, "spool") },
      audit: {
        logs: { destination: join(out, "toolgate.log"), level: "debug" },
        hooks: [
          { name: "append", events: ["*"], command: `{ cat; echo; } >> '${join(out, "command-hook.jsonl")}'` },
          { name: "webhook", events: ["*"], url: `http://127.0.0.1:${port}/toolgate`, retries: 0, timeoutMs: 5000 },
          // no name: its logged name comes from the command line, which carries a secret of the user's own config
          { command: `HOOK_TOKEN=${configSecret} cat > /dev/null` },
        ],
      },
    };
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(config, null, 2));

    // one process at a time: concurrent hook processes are the concurrency tests' subject, not this one's
    let next = 0;
    const worker = async () => {
      while (next < samples.length) {
        const index = next++;
        const sample = samples[index] as Sample;
        const runs: HookRun[] = [];
        for (const event of eventsFor(sample, index)) {
          const result = await run(["hook", "claude-code"], JSON.stringify(event));
          runs.push({ event: String(event.hook_event_name), ...result });
        }
        hookRuns.set(sample.kind, runs);
      }
    };
    await worker();
    for (const args of [
      ["tail", "--json", "--no-follow", "--lines", "10000"],
      ["report", "--json"],
    ]) {
      const result = await run(args, "");
      cliOutputs.push({ name: `toolgate ${args.join(" ")} stdout`, text: result.stdout });
      cliOutputs.push({ name: `toolgate ${args.join(" ")} stderr`, text: result.stderr });
    }

    // an outage: the webhook fails, so the deliveries of each kind's next denial wait in the spool
    outage = true;
    const outageWorker = async (start: number) => {
      for (let index = start; index < samples.length; index += 2) {
        const sample = samples[index] as Sample;
        const runs = hookRuns.get(sample.kind) ?? [];
        const events = eventsFor(sample, index);
        // one more planted call, and the Stop that flushes the turn's batch to the hooks
        for (const event of [{ ...events[1], tool_use_id: `toolu_outage_${index}` }, events[events.length - 1]]) {
          const result = await run(["hook", "claude-code"], JSON.stringify(event));
          runs.push({ event: `${String(event?.hook_event_name)} (outage)`, ...result });
        }
      }
    };
    await outageWorker(0);
    await outageWorker(1);
    const pending = await run(["tail", "--json", "--no-follow", "--lines", "10000"], "");
    cliOutputs.push({ name: "toolgate tail during the outage stdout", text: pending.stdout });
    cliOutputs.push({ name: "toolgate tail during the outage stderr", text: pending.stderr });
  }, 600_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (root !== "" && !process.env.PLANTED_KEEP) rmSync(root, { recursive: true, force: true });
  });

  it("reached every sink: each planted call is a record in the store, the hooks and the webhook", () => {
    const tail = cliOutputs.find((output) => output.name === "toolgate tail --json --no-follow --lines 10000 stdout");
    const records = (tail?.text ?? "")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { sessionId: string; tool: string; source: string });
    samples.forEach((sample, index) => {
      const session = records.filter((record) => record.sessionId.endsWith(String(index).padStart(12, "0")));
      // five rule denials, the OS refusal, the headless PermissionRequest, the classifier's, the transcript's at Stop
      const stderr = (hookRuns.get(sample.kind) ?? []).map((hook) => `${hook.event}: ${hook.stderr}`).join("\n");
      expect(session.length, `${sample.kind}: ${JSON.stringify(session)}\n${stderr}`).toBe(9);
      expect(new Set(session.map((record) => record.source))).toEqual(
        new Set(["rule", "sandbox", "headless", "classifier"]),
      );
      for (const hook of hookRuns.get(sample.kind) ?? []) {
        expect(hook.code, `${sample.kind} ${hook.event}: ${hook.stderr}`).toBe(0);
      }
    });
    const hookLines = readFileSync(join(out, "command-hook.jsonl"), "utf8").split("\n").filter(Boolean);
    const deniedPayloads = hookLines
      .map((line) => JSON.parse(line) as { event: string; idempotency_key?: string })
      .filter((payload) => payload.event === "permission_denied");
    // nine planted denials per kind and the one of the outage. Delivery is at least once (docs/storage.md): a
    // command hook that appended its line but was not seen to finish before its process's drain budget ran out is
    // run again by a later process, with the same idempotency_key; a receiver counts each key once, as here.
    expect(deniedPayloads.every((payload) => typeof payload.idempotency_key === "string")).toBe(true);
    expect(new Set(deniedPayloads.map((payload) => payload.idempotency_key)).size).toBe(samples.length * 10);
    const webhookDenials = received.filter((request) => request.body.includes('"permission_denied"'));
    // (the outage's failed deliveries are sent again by every later process: count each key once)
    const keys = new Set(webhookDenials.map((request) => request.headers["idempotency-key"]));
    expect(keys.size).toBe(samples.length * 10);
    expect([...keys].every((key) => typeof key === "string" && key !== "")).toBe(true);
    expect(readFileSync(join(out, "toolgate.log"), "utf8")).toContain("permission_denied");
    // the outage left the webhook's deliveries of the planted calls in the spool
    const spooled = filesUnder(join(out, "spool")).map((file) => readFileSync(file, "utf8"));
    expect(spooled.filter((text) => text.includes("toolu_outage_")).length).toBeGreaterThan(0);
    expect(new Set(spooled.join("\n").match(/toolu_outage_\d+/g)).size).toBe(samples.length);
    expect(statSync(join(out, "toolgate.db")).size).toBeGreaterThan(0);
  });

  it("a secret in a hook's command line (the user's own config) goes nowhere else", () => {
    expect(leaksOf({ kind: "config", text: "", secrets: [configSecret] }, artifacts())).toEqual([]);
  });

  it.each(samples.map((sample) => [sample.kind, sample] as const))(
    "%s: no secret or fragment of one anywhere",
    (_kind, sample) => {
      expect(leaksOf(sample, artifacts())).toEqual([]);
    },
  );
});
