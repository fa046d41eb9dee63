import type { Behavior } from "../../core/decision.js";
import type { PermissionMode } from "../policy-types.js";

/** A rule in toolgate config form (`permissions.rules[]`), as produced by the importers. */
export interface ImportedRule {
  rule: string;
  behavior: Behavior;
  priority?: number;
  interactive?: boolean;
  modes?: PermissionMode[];
}

/** What an importer produced: rules it could express, and every entry it could not, with the reason. */
export interface ImportResult {
  rules: ImportedRule[];
  unsupported: { entry: string; reason: string }[];
  notes: string[];
}
