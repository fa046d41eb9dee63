/**
 * Whether a denied call looks like an attack rather than a policy that is too tight: something that destroys data
 * or sends it off the machine. Used only on calls an explicit deny rule refused, to keep those apart in the policy
 * view; it decides nothing. Matched on the stored (redacted) input, linear-time expressions only.
 */
export type AttackKind = "destructive" | "exfiltration";

const DESTRUCTIVE: readonly RegExp[] = [
  /\brm\s+(-[a-z]*[rf][a-z]*\s+)+/i,
  /\bmkfs(\.\w+)?\b/,
  /\bdd\s+[^|;]*\bof=\/dev\//,
  /\bshred\b/,
  /\bgit\s+push\b[^;|&]*\s(--force\b|-f\b|--mirror\b|--delete\b)/,
  /\bgit\s+(reset\s+--hard|clean\s+-[a-z]*f)/,
  /\bchmod\s+(-R\s+)?[0-7]*777\b/,
  /\b(drop|truncate)\s+(table|database|schema)\b/i,
  /\bdelete\s+from\s+\w+\s*(;|$)/i,
  />\s*\/dev\/sd[a-z]\b/,
  /:\(\)\s*\{\s*:\|:&\s*\};:/,
];

const EXFILTRATION: readonly RegExp[] = [
  /\bcurl\b[^;|&]*\s(-d|--data(-\w+)?|-F|--form|-T|--upload-file)\b/,
  /\bwget\b[^;|&]*--post-(data|file)\b/,
  /\b(nc|ncat|netcat|socat)\b\s+[^;|&]*\d{2,5}\b/,
  /\b(scp|rsync)\b[^;|&]*\s[\w.-]+@?[\w.-]+:/,
  /\|\s*(curl|wget|nc|ncat)\b/,
  /(\.ssh\/id_\w+|\.aws\/credentials|\.netrc|\/etc\/shadow|\.env\b|\.npmrc|\.pypirc)/,
  /\bbase64\b[^;]*\|\s*(curl|wget|nc)\b/,
];

export function attackKind(tool: string, input: unknown): AttackKind | undefined {
  const text = callText(tool, input);
  if (DESTRUCTIVE.some((pattern) => pattern.test(text))) return "destructive";
  if (EXFILTRATION.some((pattern) => pattern.test(text))) return "exfiltration";
  return undefined;
}

function callText(tool: string, input: unknown): string {
  if (typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>;
    for (const key of ["command", "cmd", "file_path", "path", "url"]) {
      if (typeof record[key] === "string") return `${tool} ${(record[key] as string).slice(0, 4096)}`;
    }
  }
  return `${tool} ${JSON.stringify(input ?? null).slice(0, 4096)}`;
}
