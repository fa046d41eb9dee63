import { spawnSync } from "node:child_process";

/** whether tmux is installed (the terminal tests are skipped where it is not) */
export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

/**
 * A private tmux server (`tmux -L <name>`), so a test's sessions never meet a person's: each call runs one tmux
 * command. Its socket folder goes inside `folder()` (`TMUX_TMPDIR`) once there is one, removed with the test's
 * workspace.
 */
export function privateTmux(name: string, folder: () => string | undefined) {
  return (...args: string[]) => {
    const root = folder();
    return spawnSync("tmux", ["-L", name, ...args], {
      encoding: "utf8",
      env: { ...process.env, ...(root === undefined ? {} : { TMUX_TMPDIR: root }) },
    });
  };
}
