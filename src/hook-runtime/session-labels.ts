/** the variable a person sets to label the sessions a hook opens: `TOOLGATE_LABELS="workflow=ci,repo=web-app"` */
export const LABELS_ENV = "TOOLGATE_LABELS";

const KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_LABELS = 16;
const MAX_VALUE = 200;

/**
 * The session labels a person set in `TOOLGATE_LABELS` (`key=value` pairs, comma-separated; `toolgate run` passes
 * its environment to the agent, so its hooks see them): stored with every denial of a new session, and offered by the
 * dashboard's label filter. A pair without `=`, with a key other than letters, digits, `_ . -`, or an empty value is
 * left out; at most 16 pairs, values cut to 200 characters. Undefined when none is set.
 */
export function labelsFromEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> | undefined {
  const text = env[LABELS_ENV];
  if (!text) return undefined;
  const labels: Record<string, string> = {};
  let count = 0;
  for (const pair of text.split(",")) {
    const equals = pair.indexOf("=");
    if (equals < 0) continue;
    const key = pair.slice(0, equals).trim();
    const value = pair
      .slice(equals + 1)
      .trim()
      .slice(0, MAX_VALUE);
    if (!KEY.test(key) || value === "" || Object.hasOwn(labels, key)) continue;
    labels[key] = value;
    count += 1;
    if (count === MAX_LABELS) break;
  }
  return count === 0 ? undefined : labels;
}
