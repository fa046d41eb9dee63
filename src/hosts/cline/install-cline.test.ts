import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { installCline, isToolgatePluginFile, pluginFileText, uninstallCline } from "./install-cline.js";

const URL_A = "file:///opt/toolgate/dist/hosts/cline/cline-plugin.js";

describe("install cline", () => {
  test("writes .cline/plugins/toolgate.js importing this toolgate's plugin; idempotent", () => {
    const cwd = temporaryDirectory("toolgate-install-cline-");
    const first = installCline({ scope: "project", dryRun: false, cwd });
    expect(first).toMatchObject({ changed: true, written: true, path: join(cwd, ".cline", "plugins", "toolgate.js") });
    const text = readFileSync(first.path, "utf8");
    expect(isToolgatePluginFile(text)).toBe(true);
    expect(text).toMatch(/const MODULE = "file:\/\/.*hosts\/cline\/cline-plugin\.js";/);
    expect(installCline({ scope: "project", dryRun: false, cwd }).changed).toBe(false);
  });

  test("--user writes ~/.cline/plugins/toolgate.js; there is no local scope", () => {
    const home = temporaryDirectory("toolgate-install-cline-");
    expect(installCline({ scope: "user", dryRun: false, home, command: URL_A }).path).toBe(
      join(home, ".cline", "plugins", "toolgate.js"),
    );
    expect(() => installCline({ scope: "local", dryRun: false, cwd: home })).toThrow(/no local plugins folder/);
  });

  test("a dry run writes nothing and shows the file's lines", () => {
    const cwd = temporaryDirectory("toolgate-install-cline-");
    const outcome = installCline({ scope: "project", dryRun: true, cwd, command: URL_A });
    expect(outcome).toMatchObject({ changed: true, written: false });
    expect(outcome.diff.join("\n")).toContain(URL_A);
    expect(existsSync(join(cwd, ".cline"))).toBe(false);
  });

  test("uninstall removes the file and the folders install made, and leaves a file that is not toolgate's alone", () => {
    const cwd = temporaryDirectory("toolgate-install-cline-");
    installCline({ scope: "project", dryRun: false, cwd });
    expect(uninstallCline({ scope: "project", dryRun: false, cwd })).toMatchObject({ changed: true, removed: true });
    expect(existsSync(join(cwd, ".cline"))).toBe(false);
    mkdirSync(join(cwd, ".cline", "plugins"), { recursive: true });
    writeFileSync(join(cwd, ".cline", "plugins", "toolgate.js"), "export default {};\n");
    expect(uninstallCline({ scope: "project", dryRun: false, cwd }).changed).toBe(false);
    expect(readFileSync(join(cwd, ".cline", "plugins", "toolgate.js"), "utf8")).toBe("export default {};\n");
  });

  test("a toolgate.js that is not toolgate's is set aside, not overwritten, and put back byte for byte with its mode", () => {
    const cwd = temporaryDirectory("toolgate-install-cline-");
    const path = join(cwd, ".cline", "plugins", "toolgate.js");
    mkdirSync(join(cwd, ".cline", "plugins"), { recursive: true });
    writeFileSync(path, "// mine\nexport default { name: 'mine' };\n");
    chmodSync(path, 0o640);
    const installed = installCline({ scope: "project", dryRun: false, cwd, command: URL_A });
    expect(installed.notes?.[0]).toContain("toolgate.js.toolgate-saved");
    expect(readFileSync(`${path}.toolgate-saved`, "utf8")).toBe("// mine\nexport default { name: 'mine' };\n");
    expect(readFileSync(path, "utf8")).toBe(pluginFileText(URL_A));
    expect(statSync(path).mode & 0o777).toBe(0o640);
    // a second install with another toolgate replaces toolgate's own file and keeps the saved one
    installCline({ scope: "project", dryRun: false, cwd, command: URL_A.replace("/opt/", "/srv/") });
    expect(readFileSync(`${path}.toolgate-saved`, "utf8")).toBe("// mine\nexport default { name: 'mine' };\n");
    expect(uninstallCline({ scope: "project", dryRun: false, cwd }).changed).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("// mine\nexport default { name: 'mine' };\n");
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(existsSync(`${path}.toolgate-saved`)).toBe(false);
  });

  test("a file that only looks like toolgate's (edited) is not toolgate's", () => {
    expect(isToolgatePluginFile(pluginFileText(URL_A))).toBe(true);
    expect(isToolgatePluginFile(`${pluginFileText(URL_A)}// my change\n`)).toBe(false);
    expect(isToolgatePluginFile(pluginFileText(URL_A).replace("skip: true", "skip: false"))).toBe(false);
  });
});
