import type { ToolCall } from "../core/events.js";

/**
 * The demo's scripted agent persona: it was asked to clean the build directory, and in a headless run where
 * deleting is not allowed it keeps retrying with small variations, exactly as users report (rm -> sudo rm ->
 * find -delete -> a python one-liner), ignoring what it is told, until the host's turn cap.
 */
const ATTEMPTS = [
  "rm -rf build",
  "rm -rf ./build",
  "rm -rf build/",
  "rm -r -f build",
  "sudo rm -rf build",
  "rm -rf build/*",
  "find build -delete",
  "find build -mindepth 1 -delete",
  "python3 -c \"import shutil; shutil.rmtree('build')\"",
  "rm -rf  build",
];

export function stubbornCall(turn: number): ToolCall {
  const command = ATTEMPTS[turn % ATTEMPTS.length] as string;
  return { toolUseId: `toolu_demo_${String(turn + 1).padStart(2, "0")}`, tool: "Bash", input: { command } };
}

/**
 * The simulated host's own permission rules (not toolgate's): read-only commands run, anything else needs
 * approval, and in a headless run nobody can approve, so it is denied. This is Claude Code's `-p` behaviour.
 */
export function hostAllows(command: string): boolean {
  return /^(ls|cat|pwd|git status)\b/.test(command);
}
