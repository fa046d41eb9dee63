/**
 * Whether a denied call looks like an attack rather than a policy that is too tight, and how bad it would have
 * been: sending data off the machine first, then reading secrets and rewriting shared history, then wiping data,
 * and last the routine delete of a build folder. Used to sort and mark rows of the policy view; it decides nothing.
 * Matched on the stored (redacted) input, linear-time expressions only.
 */
export type AttackKind = "exfiltration" | "secrets" | "force-push" | "destructive" | "routine-delete";

/** higher is worse; a call matching several kinds takes the worst */
export const ATTACK_RISK: Readonly<Record<AttackKind, number>> = {
  exfiltration: 5,
  secrets: 4,
  "force-push": 4,
  destructive: 3,
  "routine-delete": 1,
};

/** what each kind means, for people */
export const ATTACK_LABELS: Readonly<Record<AttackKind, string>> = {
  exfiltration: "sends data off the machine",
  secrets: "reads secrets",
  "force-push": "rewrites shared history",
  destructive: "destroys data",
  "routine-delete": "routine delete",
};

const EXFILTRATION: readonly RegExp[] = [
  /\bcurl\b[^;|&]*\s(-d|--data(-\w+)?|-F|--form|-T|--upload-file)\b/,
  /\bwget\b[^;|&]*--post-(data|file)\b/,
  /\b(nc|ncat|netcat|socat)\b\s+[^;|&]*\d{2,5}\b/,
  /\b(scp|rsync)\b[^;|&]*\s[\w.-]+@?[\w.-]+:/,
  /\|\s*(curl|wget|nc|ncat)\b/,
  /\bbase64\b[^;]*\|\s*(curl|wget|nc)\b/,
];

const SECRETS: readonly RegExp[] = [
  /(\.ssh\/(id_\w+|authorized_keys|config)|\.aws\/credentials|\.netrc|\/etc\/shadow|\.env\b|\.npmrc|\.pypirc|\.git-credentials|\.docker\/config\.json|\.kube\/config|credentials\.json)/,
];

const FORCE_PUSH: readonly RegExp[] = [
  /\bgit\s+push\b[^;|&]*\s(--force(-with-lease)?\b|-f\b|--mirror\b|--delete\b)/,
  /\bgit\s+push\b[^;|&]*\s\+[\w./-]+/,
];

const DESTRUCTIVE: readonly RegExp[] = [
  /\bmkfs(\.\w+)?\b/,
  /\bdd\s+[^|;]*\bof=\/dev\//,
  /\bshred\b/,
  /\bgit\s+(reset\s+--hard|clean\s+-[a-z]*f)/,
  /\bchmod\s+(-R\s+)?[0-7]*777\b/,
  /\b(drop|truncate)\s+(table|database|schema)\b/i,
  /\bdelete\s+from\s+\w+\s*(;|$)/i,
  />\s*\/dev\/sd[a-z]\b/,
  /:\(\)\s*\{\s*:\|:&\s*\};:/,
];

/** `rm -r`/`rm -f` with its flags: what is deleted decides whether it is routine */
const RM = /\brm\s+((?:-[a-z]*[rf][a-z]*\s+|--(?:recursive|force)\s+)+)([^;|&]*)/i;
/** targets that are not a folder inside the project: /, ~, $HOME, a parent, a glob of everything, an absolute path */
const WIDE_TARGET = /(^|\s)(\/\S*|~\S*|\$HOME\S*|\$\{HOME\}\S*|\.\.(\/\S*)?|\*|\.\/?\*?|\.)(?=\s|$)/;

export function attackKind(tool: string, input: unknown): AttackKind | undefined {
  const text = callText(tool, input);
  let worst: AttackKind | undefined;
  const consider = (kind: AttackKind, patterns: readonly RegExp[]) => {
    if ((worst === undefined || ATTACK_RISK[kind] > ATTACK_RISK[worst]) && patterns.some((p) => p.test(text)))
      worst = kind;
  };
  consider("exfiltration", EXFILTRATION);
  consider("secrets", SECRETS);
  consider("force-push", FORCE_PUSH);
  consider("destructive", DESTRUCTIVE);
  if (worst === undefined || ATTACK_RISK[worst] < ATTACK_RISK.destructive) {
    const rm = RM.exec(text);
    if (rm !== null) worst = WIDE_TARGET.test((rm[2] ?? "").trim()) ? "destructive" : "routine-delete";
  }
  return worst;
}

function callText(tool: string, input: unknown): string {
  if (typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>;
    for (const key of ["command", "cmd", "file_path", "filePath", "path", "absolute_path", "url"]) {
      const value = record[key];
      if (typeof value === "string") return `${tool} ${value.slice(0, 4096)}`;
      if (Array.isArray(value) && value.every((word) => typeof word === "string"))
        return `${tool} ${value.join(" ").slice(0, 4096)}`;
    }
  }
  return `${tool} ${JSON.stringify(input ?? null).slice(0, 4096)}`;
}
