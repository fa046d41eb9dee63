import {
  projectOrUserSettings,
  type SettingsFileInstallOptions,
  type SettingsFileInstallOutcome,
  settingsFileInstaller,
} from "../common/settings-file-installer.js";
import { addGeminiHooks, removeGeminiHooks } from "./gemini-settings-hooks.js";

/** `user`: ~/.gemini/settings.json (every project); `project`: .gemini/settings.json (a trusted workspace only) */
export type GeminiInstallOptions = SettingsFileInstallOptions;
export type GeminiInstallOutcome = SettingsFileInstallOutcome;

/** Where each scope's Gemini CLI settings live. Gemini has no local (uncommitted) settings file. */
export const geminiSettingsPath = projectOrUserSettings({
  displayName: "Gemini CLI",
  folder: ".gemini",
  file: "settings.json",
});

const installer = settingsFileInstaller({
  host: "gemini",
  path: geminiSettingsPath,
  add: addGeminiHooks,
  remove: removeGeminiHooks,
});

/** Merges toolgate's hooks into the scope's Gemini settings file (idempotent), showing the diff. */
export const installGemini = installer.install;

/** Removes exactly toolgate's hook entries from the scope's Gemini settings file. */
export const uninstallGemini = installer.uninstall;
