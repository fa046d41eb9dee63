import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeHostProcess } from "../../../test/support/fake-host-process.js";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { findHostProcess, interactiveFromEnv, isFlag, programIndex } from "./host-environment.js";

/** A proc file system of `processes` under a temporary folder: cmdline, stat (with the parent) and fd links. */
function fakeProc(
  processes: { pid: number; parent: number; argv: string[]; stdin?: string; stdout?: string }[],
): string {
  const root = temporaryDirectory("toolgate-proc-");
  for (const { pid, parent, argv, stdin, stdout } of processes) {
    const folder = join(root, String(pid));
    mkdirSync(join(folder, "fd"), { recursive: true });
    writeFileSync(join(folder, "cmdline"), `${argv.join("\0")}\0`);
    // a command name with a space and a parenthesis: the parent is read after the last `)`
    writeFileSync(join(folder, "stat"), `${pid} (a (b) c) S ${parent} ${pid} ${pid} 0 -1\n`);
    if (stdin !== undefined) symlinkSync(stdin, join(folder, "fd", "0"));
    if (stdout !== undefined) symlinkSync(stdout, join(folder, "fd", "1"));
  }
  return root;
}

const GEMINI = /(^|[\\/])gemini(\.js)?$/;

describe("toolgate's own signals of a session's mode", () => {
  it("TOOLGATE_INTERACTIVE decides first; then toolgate run and CI are headless; else undecided", () => {
    expect(interactiveFromEnv({ TOOLGATE_INTERACTIVE: "1", CI: "true", TOOLGATE_RUN: "1" })).toBe(true);
    expect(interactiveFromEnv({ TOOLGATE_INTERACTIVE: "true" })).toBe(true);
    expect(interactiveFromEnv({ TOOLGATE_INTERACTIVE: "0" })).toBe(false);
    expect(interactiveFromEnv({ TOOLGATE_INTERACTIVE: "false" })).toBe(false);
    expect(interactiveFromEnv({ TOOLGATE_RUN: "1" })).toBe(false);
    expect(interactiveFromEnv({ CI: "true" })).toBe(false);
    expect(interactiveFromEnv({ CI: "1" })).toBe(false);
    for (const ci of ["", "0", "false"]) expect(interactiveFromEnv({ CI: ci })).toBeUndefined();
    expect(interactiveFromEnv({ TOOLGATE_INTERACTIVE: "maybe" })).toBeUndefined();
    expect(interactiveFromEnv({})).toBeUndefined();
  });
});

describe("a command line's program", () => {
  it("is its first element, or the script a JavaScript runtime runs (after the runtime's options)", () => {
    expect(programIndex(["/usr/local/bin/gemini", "-p", "hi"])).toBe(0);
    expect(programIndex(["node", "--expose-gc", "/x/cli.js", "-p", "hi"])).toBe(2);
    expect(programIndex(["/usr/bin/node", "/usr/local/bin/gemini"])).toBe(1);
    expect(programIndex(["bun", "run.js"])).toBe(1);
    expect(programIndex(["node", "--version"])).toBe(-1);
    expect(programIndex([])).toBe(-1);
    // a host's name as an argument is no host: toolgate's own hook process names the host it serves
    expect(programIndex(["sh", "-c", "toolgate hook gemini"])).toBe(0);
  });

  it("reads a flag alone, and a long flag with its value after `=`", () => {
    expect(isFlag("-p", ["-p", "--prompt"])).toBe(true);
    expect(isFlag("--prompt=hi", ["-p", "--prompt"])).toBe(true);
    expect(isFlag("-p=hi", ["-p"])).toBe(false);
    expect(isFlag("--prompt-interactive", ["--prompt"])).toBe(false);
  });
});

describe("the host process that spawned a hook, from /proc", () => {
  it("walks up from the hook's parent to the host's program, with its arguments and terminals", () => {
    const proc = fakeProc([
      { pid: 300, parent: 200, argv: ["/bin/sh", "-c", "toolgate hook gemini"] },
      { pid: 200, parent: 150, argv: ["node", "/opt/toolgate/cli.js", "hook", "gemini"] },
      // a process title over the whole command line (npm's), ending in the host's name: no file, so no host
      { pid: 150, parent: 100, argv: ["npm exec vitest run src/hosts/gemini"] },
      {
        pid: 100,
        parent: 1,
        argv: ["node", "/g/gemini.js", "-p", "a prompt"],
        stdin: "/dev/pts/3",
        stdout: "pipe:[9]",
      },
    ]);
    expect(findHostProcess(300, { program: GEMINI, proc })).toEqual({
      args: ["-p", "a prompt"],
      stdinIsTerminal: true,
      stdoutIsTerminal: false,
    });
  });

  it("takes a program with a space in its path when that file exists", () => {
    const folder = join(temporaryDirectory("toolgate-spaced-"), "my tools");
    mkdirSync(folder);
    writeFileSync(join(folder, "gemini"), "");
    const proc = fakeProc([{ pid: 100, parent: 1, argv: [join(folder, "gemini"), "-p", "hi"] }]);
    expect(findHostProcess(100, { program: GEMINI, proc })?.args).toEqual(["-p", "hi"]);
  });

  it("gives terminals it cannot read as unknown, and nothing past four levels, at pid 1, or for a pid that is gone", () => {
    const proc = fakeProc([
      { pid: 10, parent: 9, argv: ["a"] },
      { pid: 9, parent: 8, argv: ["b"] },
      { pid: 8, parent: 7, argv: ["c"] },
      { pid: 7, parent: 6, argv: ["d"] },
      { pid: 6, parent: 1, argv: ["/bin/gemini"] },
      { pid: 5, parent: 1, argv: ["/bin/gemini", "-i"] },
    ]);
    expect(findHostProcess(7, { program: GEMINI, proc })).toEqual({
      args: [],
      stdinIsTerminal: undefined,
      stdoutIsTerminal: undefined,
    });
    expect(findHostProcess(10, { program: GEMINI, proc })).toBeUndefined();
    expect(findHostProcess(5, { program: GEMINI, proc })?.args).toEqual(["-i"]);
    expect(findHostProcess(1, { program: GEMINI, proc })).toBeUndefined();
    expect(findHostProcess(4242, { program: GEMINI, proc })).toBeUndefined();
  });
});

describe("the host process that spawned a hook, from ps where there is no /proc", () => {
  const noProc = join(temporaryDirectory("toolgate-no-proc-"), "proc");

  it("walks one listing of every process, its command lines split at spaces", () => {
    const table = [
      "  PID  PPID TTY      COMMAND",
      "  300   200 pts/4    /bin/sh -c toolgate hook gemini",
      "  200   100 pts/4    node /opt/toolgate/cli.js hook gemini",
      "  100     1 pts/4    node /g/gemini.js -m flash -p a prompt",
    ].join("\n");
    expect(findHostProcess(300, { program: GEMINI, proc: noProc, ps: () => table })).toEqual({
      args: ["-m", "flash", "-p", "a", "prompt"],
      stdinIsTerminal: undefined,
      stdoutIsTerminal: undefined,
    });
    expect(findHostProcess(999, { program: GEMINI, proc: noProc, ps: () => table })).toBeUndefined();
    const failing = () => {
      throw new Error("ps: not found");
    };
    expect(findHostProcess(300, { program: GEMINI, proc: noProc, ps: failing })).toBeUndefined();
  });

  it("reads no terminal where the host has no controlling terminal, and leaves them unknown where it has one", () => {
    const host = (terminal: string) =>
      findHostProcess(300, {
        program: GEMINI,
        proc: noProc,
        ps: () => [`300 100 ${terminal} /bin/sh -c toolgate hook gemini`, `100 1 ${terminal} /g/gemini.js`].join("\n"),
      });
    // procps (Linux), macOS and FreeBSD: a scheduled or detached run's stdin and stdout are no terminal
    for (const none of ["?", "??", "-"]) {
      expect(host(none), none).toEqual({ args: [], stdinIsTerminal: false, stdoutIsTerminal: false });
    }
    // a terminal session: its stdin may still be a pipe (`echo task | host`), which ps does not show
    for (const terminal of ["pts/3", "ttys001", "console"]) {
      expect(host(terminal), terminal).toEqual({ args: [], stdinIsTerminal: undefined, stdoutIsTerminal: undefined });
    }
  });

  it("asks the real ps by default", async () => {
    // started in a session of its own (setsid): no controlling terminal, whether the tests run on a terminal or not
    const host = await startFakeHostProcess("gemini.js", ["-p", "hi"]);
    try {
      expect(findHostProcess(host.pid, { program: GEMINI, proc: noProc })).toEqual({
        args: ["-p", "hi"],
        stdinIsTerminal: false,
        stdoutIsTerminal: false,
      });
    } finally {
      host.stop();
    }
  });
});
