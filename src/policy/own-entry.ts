/**
 * A table's own entry for a key that comes from a call (a program name, a tool name), or undefined. Plain `table[key]`
 * would find `Object.prototype`'s members: a program named `hasOwnProperty` or `constructor` would read as a table
 * entry (a function), and a shell command named after one could pass for a read-only command.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
