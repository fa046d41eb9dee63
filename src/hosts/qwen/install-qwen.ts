import { readSettingsFile } from "../common/settings-file.js";
import {
  projectOrUserSettings,
  type SettingsFileInstallOptions,
  type SettingsFileInstallOutcome,
  settingsFileInstaller,
} from "../common/settings-file-installer.js";
import { addQwenToolgateHooks, removeQwenToolgateHooks } from "./qwen-settings-hooks.js";

/** `project` (.qwen/settings.json) or `user` (~/.qwen/settings.json, the default); Qwen has no local file */
export type QwenInstallOptions = SettingsFileInstallOptions;
export type QwenInstallOutcome = SettingsFileInstallOutcome;

/** Where each scope's Qwen Code settings live. */
export const qwenSettingsPath = projectOrUserSettings({
  displayName: "Qwen Code",
  folder: ".qwen",
  file: "settings.json",
});

/** Reads a Qwen settings file (JSONC); `{}` when missing or empty; CONFIG_INVALID when it is not an object. */
export const readQwenSettings = readSettingsFile;

const installer = settingsFileInstaller({
  host: "qwen",
  path: qwenSettingsPath,
  add: addQwenToolgateHooks,
  remove: removeQwenToolgateHooks,
});

/** Merges toolgate's hooks into the scope's Qwen settings file (idempotent, shows the diff). */
export const installQwen = installer.install;

/** Removes exactly toolgate's hook entries from the scope's Qwen settings file. */
export const uninstallQwen = installer.uninstall;
