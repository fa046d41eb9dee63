import { describe, expect, test } from "vitest";
import { sessionContextProject } from "./gemini-session.js";

describe("the project of a Gemini CLI session", () => {
  test("0.61: the first workspace directory of its <session_context> message", () => {
    const text =
      "<session_context>\nMy operating system is: linux\nThe project's temporary directory is: /h/.gemini/tmp/p\n" +
      "- **Workspace Directories:**\n  - /work/app\n  - /work/lib\n- **Directory Structure:**\n</session_context>";
    expect(sessionContextProject(text)).toBe("/work/app");
  });

  test("older releases: `I'm currently working in the directory: ...`; none named: undefined", () => {
    expect(sessionContextProject("Today's date is ...\nI'm currently working in the directory: /srv/site\n")).toBe(
      "/srv/site",
    );
    expect(sessionContextProject("<session_context>\nMy operating system is: linux\n</session_context>")).toBe(
      undefined,
    );
  });
});
