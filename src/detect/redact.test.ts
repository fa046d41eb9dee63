import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adversarialInputs } from "../../test/support/adversarial-inputs.mjs";
import { secretCorpus } from "../../test/support/redaction-corpus.mjs";
import { createRedactor, redactText, redactValue, redactWithFindings } from "./redact.js";

/** fake secrets assembled from parts so no secret-shaped literal sits in the source */
const ghp = `${"gh"}p_${"a1B2c3D4e5F6g7H8i9J0".repeat(2).slice(0, 36)}`;
const awsId = `${"AK"}IA${"ABCDEFGHIJ234567"}`;

describe("redactText", () => {
  it("replaces a known-format secret with its kind", () => {
    expect(redactText(`git push https://${ghp}@github.com/a/b.git`)).toBe(
      "git push https://[REDACTED:github-token]@github.com/a/b.git",
    );
    expect(redactText(`id=${awsId}`)).toBe("id=[REDACTED:aws-access-key-id]");
  });

  it("keeps keys, flags, user names and auth schemes, and redacts only the value", () => {
    expect(redactText("PGPASSWORD=hunter22 psql")).toBe("PGPASSWORD=[REDACTED:password] psql");
    expect(redactText('{"client_secret": "abc123xyz"}')).toBe('{"client_secret": "[REDACTED:secret]"}');
    expect(redactText("deploy --api-key k3y-v4lue --region eu")).toBe(
      "deploy --api-key [REDACTED:api-key] --region eu",
    );
    expect(redactText("psql postgres://app:pa55word@db/prod")).toBe(
      "psql postgres://app:[REDACTED:url-password]@db/prod",
    );
    expect(redactText("curl -H 'Authorization: Basic dXNlcjpwYXNz' x")).toBe(
      "curl -H 'Authorization: Basic [REDACTED:authorization]' x",
    );
    expect(redactText("curl -u admin:s3cr3t https://ci")).toBe("curl -u admin:[REDACTED:basic-auth] https://ci");
  });

  it("leaves names that only contain a secret word alone", () => {
    for (const text of [
      '{"max_tokens": 4096}',
      "token_type: Bearer",
      "password_file=/run/secrets/db",
      "--password-stdin",
      "secret_name=db-creds",
      "PWD=/home/dev",
      'grep -r "password=" src/',
      "echo $GITHUB_TOKEN",
      "TOKEN=$(cat token.txt)",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
      "token: ${{ secrets.GITHUB_TOKEN }}",
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });

  it("adds a keyed suffix from the hash port, stable per secret", () => {
    const hash = (kind: string, secret: string) => `${kind.length}x${secret.length}`;
    expect(redactText("password=abcdef", { hash })).toBe("password=[REDACTED:password#8x6]");
    const redactor = createRedactor({ hash: () => "h/a+s=h" });
    expect(redactor.redactText("password=abcdef")).toBe("password=[REDACTED:password#hash]");
  });

  it("runs extension patterns after the built-in ones, redacting the `secret` group when present", () => {
    const patterns = [
      { kind: "acme-key", pattern: /acme_[a-z0-9]{8}/ },
      { kind: "acme-pin", pattern: /PIN (?<secret>[0-9]{4,8})/ },
    ];
    expect(redactText("use acme_abcd1234 with PIN 98765", { patterns })).toBe(
      "use [REDACTED:acme-key] with PIN [REDACTED:acme-pin]",
    );
  });

  it("redacts a PEM private key block whole, even when it is cut short", () => {
    const begin = "-----BEGIN EC PRIVATE KEY-----";
    expect(redactText(`${begin}\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----\nok`)).toBe("[REDACTED:private-key]\nok");
    expect(redactText(`${begin}\nMHcCAQEEIB`)).toBe("[REDACTED:private-key]");
  });
});

describe("redactValue", () => {
  it("redacts strings recursively, keys included, and keeps the JSON shape", () => {
    const input = {
      command: `GH_TOKEN=${ghp} gh pr list`,
      env: { API_TOKEN: "plain", PATH: "/usr/bin", RETRIES: 3 },
      headers: [{ Authorization: "Bearer short" }],
      [ghp]: true,
      nested: { deeper: [null, 1, false, `id ${awsId}`] },
    };
    expect(redactValue(input)).toEqual({
      command: "GH_TOKEN=[REDACTED:github-token] gh pr list",
      env: { API_TOKEN: "[REDACTED:token]", PATH: "/usr/bin", RETRIES: 3 },
      headers: [{ Authorization: "[REDACTED:authorization]" }],
      "[REDACTED:github-token]": true,
      nested: { deeper: [null, 1, false, "id [REDACTED:aws-access-key-id]"] },
    });
  });

  it("keeps both entries when two redacted keys collide", () => {
    const other = `${ghp.slice(0, -1)}Z`;
    expect(Object.keys(redactValue({ [ghp]: 1, [other]: 2 }) as object)).toEqual([
      "[REDACTED:github-token]",
      "[REDACTED:github-token]#2",
    ]);
  });

  it("replaces values past the depth, size and node bounds instead of letting them through", () => {
    let deep: unknown = "password=x1";
    for (let i = 0; i < 40; i += 1) deep = { next: deep };
    expect(JSON.stringify(redactValue(deep))).toContain("[REDACTED:too-deep]");
    expect(redactValue({ b: "password=x1", a: "x".repeat(50) }, { maxTotalChars: 40 })).toEqual({
      b: "password=[REDACTED:password]",
      a: "[REDACTED:too-large]",
    });
    const many = Array.from({ length: 10 }, (_, i) => `v${i}`);
    expect(redactValue(many, { maxNodes: 5 })).toEqual([
      "v0",
      "v1",
      "v2",
      "v3",
      "v4",
      ...Array.from({ length: 5 }, () => "[REDACTED:too-large]"),
    ]);
  });

  it("keeps an own __proto__ key as data (JSON.parse creates them)", () => {
    const parsed = JSON.parse('{"__proto__": {"password": "hunter22"}, "a": 1}');
    const redacted = redactValue(parsed) as Record<string, unknown>;
    expect(Object.keys(redacted)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"password":"[REDACTED:password]"},"a":1}');
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
  });

  it("survives cycles and values with toJSON", () => {
    const cyclic: Record<string, unknown> = { name: "a" };
    cyclic["self"] = cyclic;
    expect(redactValue(cyclic)).toEqual({ name: "a", self: "[Circular]" });
    expect(redactValue({ at: new Date(0) })).toEqual({ at: "1970-01-01T00:00:00.000Z" });
  });

  it("counts findings by kind", () => {
    const { redacted, findings, total } = redactWithFindings({ a: `x ${ghp}`, password: "p4ss", b: "password=p4ss" });
    expect(redacted).toEqual({
      a: "x [REDACTED:github-token]",
      password: "[REDACTED:password]",
      b: "password=[REDACTED:password]",
    });
    expect(findings).toEqual({ "github-token": 1, password: 2 });
    expect(total).toBe(3);
  });
});

const corpusSecrets = secretCorpus().flatMap((row) => row.secrets);
const fragment = fc.oneof(
  fc.constantFrom(
    ...corpusSecrets,
    ...secretCorpus().map((row) => row.text),
    "password=",
    "--token ",
    "Authorization: Bearer ",
    "https://user:",
    "@host",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    '"',
    "'",
    " ",
    "\n",
    "=",
    ":",
    "[REDACTED:",
    "]",
    "-u a:",
    "eyJ",
    "aws_secret_access_key ",
  ),
  fc.string({ maxLength: 12 }),
);
const text = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(""));

describe("redaction properties", () => {
  it("is idempotent: redact(redact(x)) == redact(x)", () => {
    fc.assert(
      fc.property(text, (input) => {
        const once = redactText(input);
        expect(redactText(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it("is idempotent with a keyed hash suffix and on values", () => {
    const hash = (kind: string, secret: string) => `${kind.length}${secret.length}`;
    fc.assert(
      fc.property(text, fc.dictionary(text, text, { maxKeys: 4 }), (input, record) => {
        const once = redactText(input, { hash });
        expect(redactText(once, { hash })).toBe(once);
        const value = redactValue({ input, record }, { hash });
        expect(redactValue(value, { hash })).toEqual(value);
      }),
      { numRuns: 1000 },
    );
  });

  it("never leaves a detected secret in the output", () => {
    fc.assert(
      fc.property(text, (input) => {
        const detected: string[] = [];
        const output = redactText(input, {
          hash: (_kind, secret) => {
            detected.push(secret);
            return "h";
          },
        });
        for (const secret of detected) {
          if (secret.length >= 8) expect(output).not.toContain(secret);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("finds every corpus secret wherever it sits among other text", () => {
    fc.assert(
      fc.property(fc.constantFrom(...secretCorpus()), fc.string({ maxLength: 20 }), (row, noise) => {
        const output = redactText(`${noise.replace(/[^ \n]/g, "")}${row.text}\n${noise}`);
        for (const secret of row.secrets) expect(output).not.toContain(secret);
      }),
      { numRuns: 500 },
    );
  });
});

describe("adversarial inputs", () => {
  // Every pattern must run in linear time; a backtracking blow-up on 1 MB would not finish within the test timeout.
  for (const { label, text: input } of adversarialInputs()) {
    it(`completes on 1 MB of ${label}`, () => {
      const output = redactText(input);
      expect(typeof output).toBe("string");
      expect(redactText(output)).toBe(output);
    });
  }
});
