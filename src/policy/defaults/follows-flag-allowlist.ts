import type { FlagAllowlist } from "./flag-allowlists.js";

/** The operands of a command whose flags all appear in its allowlist, or undefined when one does not. */
export function allowlistedOperands(args: readonly string[], allowlist: FlagAllowlist): string[] | undefined {
  const flags = new Set(allowlist.flags);
  const valueFlags = new Set(allowlist.valueFlags ?? []);
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = equals === -1 ? arg : arg.slice(0, equals);
      if (flags.has(name) && equals === -1) continue;
      if (!valueFlags.has(name)) return undefined;
      if (equals === -1) index++;
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (flags.has(arg)) continue;
      if (valueFlags.has(arg)) {
        index++;
        continue;
      }
      // a cluster of short flags (`-tlnp`), the last of which may take a value (`-p1`, `-np 1`)
      const consumed = shortCluster(arg, { flags, valueFlags });
      if (consumed === undefined) return undefined;
      if (consumed === "next") index++;
      continue;
    }
    operands.push(arg);
  }
  return operands;
}

function shortCluster(
  arg: string,
  lists: { flags: Set<string>; valueFlags: Set<string> },
): "next" | "self" | undefined {
  for (let position = 1; position < arg.length; position++) {
    const flag = `-${arg[position]}`;
    if (lists.flags.has(flag)) continue;
    if (!lists.valueFlags.has(flag)) return undefined;
    return position === arg.length - 1 ? "next" : "self";
  }
  return "self";
}

/** Whether the command's flags and operands keep to its allowlist. */
export function followsFlagAllowlist(args: readonly string[], allowlist: FlagAllowlist): boolean {
  const operands = allowlistedOperands(args, allowlist);
  if (operands === undefined) return false;
  if (allowlist.maxOperands !== undefined && operands.length > allowlist.maxOperands) return false;
  const pattern = allowlist.operandPattern;
  return pattern === undefined || operands.every((operand) => pattern.test(operand));
}
