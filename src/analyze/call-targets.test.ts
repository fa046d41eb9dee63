import { describe, expect, test } from "vitest";
import { callTargets, sameTarget } from "./call-targets.js";

describe("callTargets", () => {
  test("path fields, shell redirections and heredocs, tee, and file-changing commands", () => {
    expect(callTargets({ file_path: "/repo/NOTES.md", content: "x" })).toEqual(["/repo/NOTES.md"]);
    expect(callTargets({ command: "cat > NOTES.md <<'EOF'\n# x\nEOF" })).toEqual(["NOTES.md"]);
    expect(callTargets({ command: "echo hi | tee -a ./log.txt" })).toEqual(["log.txt"]);
    expect(callTargets({ cmd: "rm -rf build && mv a.txt b.txt" })).toEqual(["build", "a.txt", "b.txt"]);
    expect(callTargets("*** Begin Patch\n*** Update File: src/app.ts\n@@\n*** End Patch")).toEqual(["src/app.ts"]);
    // Codex's apply_patch through `bash -lc`: the patch's files, not the `=>` and `>` of the code it adds
    const patch =
      "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: src/a.ts\n+const f = () => a > b;\n*** End Patch\nPATCH";
    expect(callTargets({ command: ["bash", "-lc", patch] })).toEqual(["src/a.ts"]);
  });

  test("reads and other commands name no target", () => {
    expect(callTargets({ command: "npm test 2>/dev/null" })).toEqual([]);
    expect(callTargets({ command: "ls -la" })).toEqual([]);
    expect(callTargets(undefined)).toEqual([]);
  });

  test("an absolute path and the same file relative to the project are the same target", () => {
    expect(sameTarget("/repo/NOTES.md", "NOTES.md")).toBe(true);
    expect(sameTarget("/repo/NOTES.md", "OTHER.md")).toBe(false);
    expect(sameTarget("/repo/xNOTES.md", "NOTES.md")).toBe(false);
  });
});
