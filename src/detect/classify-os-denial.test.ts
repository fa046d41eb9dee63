import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyOsDenial, type OsDenialInput } from "./classify-os-denial.js";

type Row = [label: string, input: Omit<OsDenialInput, "tool"> & { tool?: string }, kind: string, path?: string];

const on = { sandboxed: true } as const;

/** peers.md 4.4 (Codex is_likely_sandbox_denied conformance) */
const codexCases: Row[] = [
  ["exit 0 + permission denied text", { exitCode: 0, stderr: "permission denied", ...on }, "none"],
  [
    "sandbox off + exit 1 + Operation not permitted",
    { exitCode: 1, stderr: "Operation not permitted" },
    "os-permission",
  ],
  [
    "sandbox on + exit 1 + Operation not permitted",
    { exitCode: 1, stderr: "Operation not permitted", ...on },
    "sandbox-filesystem",
  ],
  ["sandbox on + exit 127 command not found", { exitCode: 127, stderr: "bash: foo: command not found", ...on }, "none"],
  ["sandbox on + exit 2 without keywords", { exitCode: 2, stderr: "usage: tar [-x]", ...on }, "none"],
  ["sandbox on + exit 126 without keywords", { exitCode: 126, stderr: "", ...on }, "none"],
  ["exit 1 without text (requires keywords)", { exitCode: 1, ...on }, "none"],
  [
    "aggregated output: cargo read-only",
    { exitCode: 101, output: "cargo failed: Read-only file system when writing target", ...on },
    "sandbox-filesystem",
  ],
  ["seccomp: exit 159 without text", { exitCode: 159, ...on }, "sandbox-network"],
  ["exit 159 without a sandbox is just an exit code", { exitCode: 159 }, "none"],
  ["SIGSYS signal without a sandbox (container seccomp)", { signal: "SIGSYS" }, "os-permission"],
  [
    "network policy text with exit 0",
    { exitCode: 0, stdout: 'CODEX_NETWORK_POLICY_DECISION {"decision":"deny"}', ...on },
    "none",
  ],
];

/** realistic outputs of common tools */
const toolCases: Row[] = [
  [
    "npm global install EACCES",
    {
      exitCode: 243,
      stderr: [
        "npm error code EACCES",
        "npm error syscall mkdir",
        "npm error path /usr/lib/node_modules/typescript",
        "npm error errno -13",
        "npm error Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/typescript'",
      ].join("\n"),
    },
    "os-permission",
    "/usr/lib/node_modules/typescript",
  ],
  [
    "npm offline in a sandbox",
    {
      exitCode: 1,
      stderr:
        "npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/zod failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
      ...on,
    },
    "sandbox-network",
  ],
  [
    "npm offline without a sandbox is a network failure, not a denial",
    {
      exitCode: 1,
      stderr:
        "npm error code ENOTFOUND\nnpm error network request failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
    },
    "none",
  ],
  [
    "git index.lock on a read-only file system",
    { exitCode: 128, stderr: "fatal: Unable to create '/work/app/.git/index.lock': Read-only file system", ...on },
    "sandbox-filesystem",
    "/work/app/.git/index.lock",
  ],
  [
    "git config lock permission",
    { exitCode: 255, stderr: "error: could not lock config file .git/config: Permission denied" },
    "os-permission",
    ".git/config",
  ],
  [
    "git clone cannot resolve host in a sandbox",
    {
      exitCode: 128,
      stderr:
        "Cloning into 'app'...\nfatal: unable to access 'https://github.com/acme/app.git/': Could not resolve host: github.com",
      ...on,
    },
    "sandbox-network",
  ],
  [
    "git push with a wrong SSH key is authentication, not the OS",
    {
      exitCode: 128,
      stderr: "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.",
    },
    "none",
  ],
  [
    "git push over HTTPS without rights",
    {
      exitCode: 128,
      stderr:
        "remote: Permission to acme/app.git denied to bob.\nfatal: unable to access 'https://github.com/acme/app.git/': The requested URL returned error: 403",
    },
    "none",
  ],
  [
    "python PermissionError",
    {
      exitCode: 1,
      stderr:
        "Traceback (most recent call last):\n  File \"w.py\", line 1, in <module>\nPermissionError: [Errno 13] Permission denied: '/etc/hosts'",
    },
    "os-permission",
    "/etc/hosts",
  ],
  [
    "python read-only file system in a sandbox",
    { exitCode: 1, stderr: "OSError: [Errno 30] Read-only file system: '/home/dev/.cache/pip'", ...on },
    "sandbox-filesystem",
    "/home/dev/.cache/pip",
  ],
  ["python ModuleNotFoundError", { exitCode: 1, stderr: "ModuleNotFoundError: No module named 'requests'" }, "none"],
  [
    "node listen EPERM in a sandbox (the 21-call loop)",
    {
      exitCode: 1,
      stderr:
        "Error: listen EPERM: operation not permitted 0.0.0.0:8080\n    at Server.setupListenHandle [as _listen2] (node:net:1872:21)",
      ...on,
    },
    "sandbox-network",
  ],
  [
    "node listen EACCES on port 80 without a sandbox",
    { exitCode: 1, stderr: "Error: listen EACCES: permission denied 0.0.0.0:80" },
    "os-permission",
  ],
  [
    "node EPERM mkdir in a sandbox",
    { exitCode: 1, stderr: "Error: EPERM: operation not permitted, mkdir '/Users/dev/.stim'", ...on },
    "sandbox-filesystem",
    "/Users/dev/.stim",
  ],
  [
    "node test failure mentioning permission in a source line",
    { exitCode: 1, stdout: "src/auth.test.ts:12:5 - expected 'permission denied' to equal 'ok'" },
    "none",
  ],
  [
    "cargo read-only target",
    {
      exitCode: 101,
      stderr:
        "error: failed to open: /work/app/target/debug/.cargo-lock\n\nCaused by:\n  Read-only file system (os error 30)",
      ...on,
    },
    "sandbox-filesystem",
    "/work/app/target/debug/.cargo-lock",
  ],
  [
    "cargo offline in a sandbox",
    {
      exitCode: 101,
      stderr:
        "warning: spurious network error (3 tries remaining): [6] Couldn't resolve host name (Could not resolve host: index.crates.io)",
      ...on,
    },
    "sandbox-network",
  ],
  [
    "cargo compile error",
    { exitCode: 101, stderr: "error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:5" },
    "none",
  ],
  [
    "docker socket permission",
    {
      exitCode: 1,
      stderr:
        'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json": dial unix /var/run/docker.sock: connect: permission denied',
    },
    "os-permission",
    "/var/run/docker.sock",
  ],
  [
    "docker socket in a sandbox is a file refusal",
    { exitCode: 1, stderr: "dial unix /var/run/docker.sock: connect: operation not permitted", ...on },
    "sandbox-filesystem",
    "/var/run/docker.sock",
  ],
  ["docker image not found", { exitCode: 125, stderr: "Unable to find image 'nope:latest' locally" }, "none"],
  [
    "ls per-path refusal with exit 0 (macOS TCC)",
    { exitCode: 0, stdout: "a.txt\nb.txt", stderr: "ls: Desktop: Operation not permitted", ...on },
    "sandbox-filesystem",
    "Desktop",
  ],
  [
    "ls cannot open directory (exit 2 with text)",
    { exitCode: 2, stderr: "ls: cannot open directory '/root': Permission denied" },
    "os-permission",
    "/root",
  ],
  ["ls no such file", { exitCode: 2, stderr: "ls: cannot access 'nope': No such file or directory" }, "none"],
  [
    "mkdir permission",
    { exitCode: 1, stderr: "mkdir: cannot create directory '/opt/app': Permission denied" },
    "os-permission",
    "/opt/app",
  ],
  [
    "mkdir read-only (BSD wording) in a sandbox",
    { exitCode: 1, stderr: "mkdir: /System/x: Read-only file system", ...on },
    "sandbox-filesystem",
    "/System/x",
  ],
  ["mkdir exists", { exitCode: 1, stderr: "mkdir: cannot create directory 'src': File exists" }, "none"],
  [
    "touch in Codex read-only sandbox",
    { exitCode: 1, output: "touch: cannot touch 'victim/x': Read-only file system", ...on },
    "sandbox-filesystem",
    "victim/x",
  ],
  [
    "curl cannot resolve in a sandbox",
    { exitCode: 6, stderr: "curl: (6) Could not resolve host: example.com", ...on },
    "sandbox-network",
  ],
  [
    "curl cannot resolve without a sandbox",
    { exitCode: 6, stderr: "curl: (6) Could not resolve host: example.com" },
    "none",
  ],
  [
    "curl connect refused by Seatbelt",
    {
      exitCode: 7,
      stderr: "curl: (7) Failed to connect to example.com port 443 after 3 ms: Operation not permitted",
      ...on,
    },
    "sandbox-network",
  ],
  ["curl HTTP 403", { exitCode: 22, stderr: "curl: (22) The requested URL returned error: 403" }, "none"],
  [
    "Seatbelt sandbox_apply",
    { exitCode: 71, stderr: "sandbox-exec: sandbox_apply: Operation not permitted", ...on },
    "sandbox-filesystem",
  ],
  [
    "bash script not executable",
    { exitCode: 126, stderr: "bash: ./deploy.sh: Permission denied" },
    "os-permission",
    "./deploy.sh",
  ],
  [
    "a script refused, the shell named by its path (Gemini CLI runs /usr/bin/bash)",
    { exitCode: 126, stderr: "/usr/bin/bash: line 4: ./ne.sh: Permission denied" },
    "os-permission",
    "./ne.sh",
  ],
  [
    "a per-path refusal in capitals, exit 0 (the line patterns ignore case, and so does the quick check before them)",
    { exitCode: 0, stdout: "done", stderr: "rm: /mnt/ro/x: READ-ONLY FILE SYSTEM" },
    "os-permission",
    "/mnt/ro/x",
  ],
  [
    "find named by its path, exit 0 with a per-path refusal",
    { exitCode: 0, stderr: "/usr/bin/find: '/proc/1/fd': Permission denied" },
    "os-permission",
    "/proc/1/fd",
  ],
  [
    "Windows access denied",
    { exitCode: 1, stderr: "Remove-Item : Access to the path 'C:\\Windows\\System32\\x.dll' is denied." },
    "os-permission",
    "C:\\Windows\\System32\\x.dll",
  ],
  [
    "Read tool EACCES (no exit code)",
    { tool: "Read", output: "EACCES: permission denied, open '/root/.ssh/id_rsa'" },
    "os-permission",
    "/root/.ssh/id_rsa",
  ],
];

const negativeCases: Row[] = [
  ["rg exit 1 (no match)", { tool: "Bash", exitCode: 1, stdout: "", ...on }, "none"],
  [
    "rg finds the words in code",
    { exitCode: 0, stdout: "src/a.ts:3:throw new Error('Permission denied')", ...on },
    "none",
  ],
  ["command not found", { exitCode: 127, stderr: "zsh: command not found: pnpm", ...on }, "none"],
  ["exit 2 alone", { exitCode: 2, ...on }, "none"],
  ["exit 126 alone", { exitCode: 126 }, "none"],
  ["exit 127 alone", { exitCode: 127, ...on }, "none"],
  ['"not allowed" alone', { exitCode: 1, stderr: "Error: this operation is not allowed", ...on }, "none"],
  ["test failure", { exitCode: 1, stdout: "FAIL src/x.test.ts\n  expected 2 to be 3" }, "none"],
  ["timeout", { exitCode: 124, stderr: "timed out after 30s" }, "none"],
  ["word forbidden from a server", { exitCode: 1, stderr: "Error: 403 Forbidden" }, "none"],
];

describe("classifyOsDenial", () => {
  for (const [label, input, kind, path] of [...codexCases, ...toolCases, ...negativeCases]) {
    it(`${label} -> ${kind}${path === undefined ? "" : ` (${path})`}`, () => {
      const result = classifyOsDenial({ tool: "Bash", ...input });
      expect(result.kind).toBe(kind);
      if (kind === "none") {
        expect(result.evidence).toBe("");
      } else {
        expect(result.evidence.length).toBeGreaterThan(0);
        expect(result.path).toBe(path);
      }
    });
  }

  it("quotes the deciding line, redacted and bounded", () => {
    const result = classifyOsDenial({
      tool: "Bash",
      exitCode: 1,
      stderr: `curl: (7) Failed to connect to https://u:pa55word@host port 443: Operation not permitted ${"x".repeat(400)}`,
      sandboxed: true,
    });
    expect(result.kind).toBe("sandbox-network");
    expect(result.evidence.length).toBeLessThanOrEqual(300);
    expect(result.evidence).not.toContain("pa55word");
  });

  it("redacts a secret inside the path", () => {
    const result = classifyOsDenial({
      tool: "Read",
      output: "EACCES: permission denied, open '/tmp/password=hunter22/x'",
    });
    expect(result.path).toMatch(/^\/tmp\/password=\[REDACTED:password\]/);
    expect(result.path).not.toContain("hunter22");
  });

  it("finds the refusal at the end of a very long output", () => {
    const stdout = "building...\n".repeat(100_000);
    const result = classifyOsDenial({
      tool: "Bash",
      exitCode: 1,
      stdout,
      stderr: "Error: EROFS: read-only file system, open '/x'",
    });
    expect(result).toMatchObject({ kind: "os-permission", path: "/x" });
  });
});

describe("classifyOsDenial properties", () => {
  const line = fc.oneof(
    fc.constantFrom(
      "Operation not permitted",
      "permission denied",
      "EACCES",
      "listen EPERM: operation not permitted 0.0.0.0:8080",
      "Could not resolve host: x",
      "rg: x: Permission denied",
      "src/a.ts:1: permission denied",
      "Permission denied (publickey).",
      "",
    ),
    fc.string({ maxLength: 40 }),
  );
  const output = fc.array(line, { maxLength: 6 }).map((lines) => lines.join("\n"));

  it("never throws, and `none` carries no evidence", () => {
    fc.assert(
      fc.property(
        output,
        fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
        fc.boolean(),
        (text, exitCode, sandboxed) => {
          const result = classifyOsDenial({ tool: "Bash", exitCode, stderr: text, sandboxed });
          if (result.kind === "none") expect(result.evidence).toBe("");
          else expect(result.evidence.length).toBeGreaterThan(0);
          if (!sandboxed) expect(result.kind.startsWith("sandbox")).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("a text without a refusal or network word is never a denial, whatever the exit code", () => {
    const plain = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", "1", ":", "/", ".", "x"), maxLength: 200 });
    fc.assert(
      fc.property(plain, fc.integer({ min: 1, max: 158 }), fc.boolean(), (text, exitCode, sandboxed) => {
        expect(classifyOsDenial({ tool: "Bash", exitCode, stderr: text, sandboxed }).kind).toBe("none");
      }),
      { numRuns: 500 },
    );
  });
});
