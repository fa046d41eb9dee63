import type { ToolgateConfig } from "./schema.js";

const LISTS = ["allow", "ask", "deny", "rules", "neverGrant", "additionalDirectories"] as const;

/**
 * Overlays `over` on `base`: permission rule lists are concatenated (rules never override each other, as in Claude
 * Code), every other value from `over` wins, objects merge one level deep.
 */
export function mergeConfigs(base: ToolgateConfig, over: ToolgateConfig): ToolgateConfig {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const previous = merged[key];
    if (key === "permissions" && typeof previous === "object" && previous !== null) {
      const permissions: Record<string, unknown> = { ...previous, ...(value as object) };
      for (const list of LISTS) {
        const a = (previous as Record<string, unknown[] | undefined>)[list];
        const b = (value as Record<string, unknown[] | undefined>)[list];
        if (a !== undefined && b !== undefined) permissions[list] = unique([...a, ...b]);
      }
      merged[key] = permissions;
    } else if (isPlainObject(previous) && isPlainObject(value)) {
      merged[key] = { ...previous, ...value };
    } else {
      merged[key] = value;
    }
  }
  return merged as ToolgateConfig;
}

/** Drops repeated strings (a rule written twice means the same); objects are kept as they are. */
function unique(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    if (typeof value !== "string") return true;
    if (seen.has(value)) return false;
    seen.add(value);
    return true;
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
