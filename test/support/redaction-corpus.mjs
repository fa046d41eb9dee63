// Test-only data, kept out of src/ so it never ships in dist. Plain JavaScript so the benchmark (plain Node) and the
// tests share one copy: used by src/detect/redaction-corpus.test.ts, src/detect/redact.test.ts, src/detect/redact-document.test.ts and bench/detect.bench.mjs. Types: ./redaction-corpus.d.mts.
/**
 * The corpus that measures redaction recall and false positives (`src/detect/redaction-corpus.test.ts` and
 * `bench/detect.bench.mjs`). Every secret is FAKE: generated from a seeded generator and assembled from parts at run
 * time, so no secret-shaped literal sits in the source (and secret scanners stay quiet). Negatives are texts that must
 * come through unchanged: git SHAs, UUIDs, base64 images, package integrity hashes, shell commands, file paths.
 */
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const BASE64 = `${ALNUM}+/`;
const URL_SAFE = `${ALNUM}-_`;
/** A deterministic generator (mulberry32) so the corpus is the same on every run. */
function generator(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, length) => {
    let out = "";
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
}
/** Mixed-case, digit-bearing random text (so format checks that need all three pass). */
function mixed(random, alphabet, length) {
  return `Aa1${random(alphabet, length - 3)}`;
}
/** `part("gh", "p_")` keeps provider prefixes out of the source as literals. */
const part = (...pieces) => pieces.join("");
export function secretCorpus(seed = 20261122) {
  const random = generator(seed);
  const awsId = part("AK", "IA") + random(UPPER + DIGITS, 16);
  const awsSecret = mixed(random, BASE64, 40);
  const ghp = part("gh", "p_") + random(ALNUM, 36);
  const gho = part("gh", "o_") + random(ALNUM, 36);
  const ghs = part("gh", "s_") + random(ALNUM, 36);
  const githubPat = `${part("github", "_pat_")}11${random(UPPER + DIGITS, 20)}_${random(ALNUM, 59)}`;
  const gitlab = part("gl", "pat-") + random(URL_SAFE, 20);
  const slack = `${part("xo", "xb-")}${random(DIGITS, 12)}-${random(DIGITS, 13)}-${random(ALNUM, 24)}`;
  const slackUser = `${part("xo", "xp-")}${random(DIGITS, 12)}-${random(DIGITS, 12)}-${random(DIGITS, 13)}-${random(HEX, 32)}`;
  const stripe = part("sk", "_live_") + random(ALNUM, 24);
  const stripeRestricted = part("rk", "_live_") + random(ALNUM, 24);
  const openai = part("sk", "-") + mixed(random, ALNUM, 48);
  const openaiProject = `${part("sk", "-proj-")}${mixed(random, URL_SAFE, 74)}T3BlbkFJ${random(URL_SAFE, 74)}`;
  const anthropic = `${part("sk", "-ant-")}api03-${random(URL_SAFE, 93)}AA`;
  const google = part("AI", "za") + random(URL_SAFE, 35);
  const npm = part("np", "m_") + random(ALNUM, 36);
  const jwt = `${part("ey", "J")}hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${part("ey", "J")}${random(URL_SAFE, 60)}.${random(URL_SAFE, 43)}`;
  const pemBody = Array.from({ length: 6 }, () => random(BASE64, 64)).join("\n");
  const pem = `${part("-----BEGIN ", "RSA PRIVATE KEY-----")}\n${pemBody}\n-----END RSA PRIVATE KEY-----`;
  const openssh = `${part("-----BEGIN ", "OPENSSH PRIVATE KEY-----")}\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`;
  const urlPassword = `${mixed(random, ALNUM, 16)}!x`;
  const bearer = random(URL_SAFE, 40);
  const password = `Tr0ub4dor&${random(ALNUM, 6)}`;
  const clientSecret = random(URL_SAFE, 32);
  const apiKey = random(HEX, 32);
  const dbPassword = mixed(random, ALNUM, 20);
  const hf = part("hf", "_") + random(ALNUM, 34);
  const sendgrid = `SG.${random(URL_SAFE, 22)}.${random(URL_SAFE, 43)}`;
  const basicPassword = mixed(random, ALNUM, 14);
  const basic = `${random(BASE64, 28)}=`;
  const vault = `hvs.${random(ALNUM, 24)}`;
  const refresh = random(URL_SAFE, 40);
  // URL passwords with reserved characters: each piece listed as a secret, so no fragment may survive
  const [p1, p2, p3] = [mixed(random, ALNUM, 9), mixed(random, ALNUM, 9), mixed(random, ALNUM, 9)];
  const reservedUrlRows = (rows) => rows.map(([text, secrets]) => ({ kind: "url-password", text, secrets }));
  return [
    { kind: "aws-access-key-id", text: `aws_access_key_id = ${awsId}`, secrets: [awsId] },
    { kind: "aws-access-key-id", text: `{"AccessKeyId": "${awsId}"}`, secrets: [awsId] },
    { kind: "aws-secret-access-key", text: `export AWS_SECRET_ACCESS_KEY=${awsSecret}`, secrets: [awsSecret] },
    {
      kind: "aws-secret-access-key",
      text: `aws configure set aws_secret_access_key ${awsSecret}`,
      secrets: [awsSecret],
    },
    {
      kind: "aws-secret-access-key",
      text: `{"Credentials": {"AccessKeyId": "${awsId}", "SecretAccessKey": "${awsSecret}"}}`,
      secrets: [awsId, awsSecret],
    },
    { kind: "github-token", text: `git clone https://${ghp}@github.com/acme/app.git`, secrets: [ghp] },
    { kind: "github-token", text: `GH_TOKEN=${gho} gh pr list`, secrets: [gho] },
    { kind: "github-token", text: `echo ${ghs} | gh auth login --with-token`, secrets: [ghs] },
    {
      kind: "github-token",
      text: `curl -H "Authorization: token ${githubPat}" https://api.github.com/user`,
      secrets: [githubPat],
    },
    { kind: "github-token", text: `{"env": {"GITHUB_PAT": "${githubPat}"}}`, secrets: [githubPat] },
    { kind: "gitlab-token", text: `git push https://oauth2:${gitlab}@gitlab.com/acme/app.git`, secrets: [gitlab] },
    {
      kind: "gitlab-token",
      text: `curl --header "PRIVATE-TOKEN: ${gitlab}" https://gitlab.com/api/v4/projects`,
      secrets: [gitlab],
    },
    { kind: "slack-token", text: `SLACK_BOT_TOKEN=${slack} node bot.js`, secrets: [slack] },
    {
      kind: "slack-token",
      text: `curl -d token=${slackUser} https://slack.com/api/chat.postMessage`,
      secrets: [slackUser],
    },
    { kind: "stripe-key", text: `stripe.api_key = "${stripe}"`, secrets: [stripe] },
    {
      kind: "stripe-key",
      text: `curl https://api.stripe.com/v1/charges -u ${stripeRestricted}:`,
      secrets: [stripeRestricted],
    },
    { kind: "openai-api-key", text: `OPENAI_API_KEY=${openai} python run.py`, secrets: [openai] },
    { kind: "openai-api-key", text: `client = OpenAI(api_key="${openaiProject}")`, secrets: [openaiProject] },
    {
      kind: "anthropic-api-key",
      text: `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${anthropic}"`,
      secrets: [anthropic],
    },
    { kind: "anthropic-api-key", text: `{"apiKey":"${anthropic}","model":"claude"}`, secrets: [anthropic] },
    {
      kind: "google-api-key",
      text: `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${google}`,
      secrets: [google],
    },
    { kind: "npm-token", text: `echo "//registry.npmjs.org/:_authToken=${npm}" > ~/.npmrc`, secrets: [npm] },
    { kind: "npm-token", text: `NPM_TOKEN=${npm} npm publish`, secrets: [npm] },
    { kind: "jwt", text: `curl -H "Authorization: Bearer ${jwt}" https://api.example.com/me`, secrets: [jwt] },
    { kind: "jwt", text: `{"id_token": "${jwt}", "token_type": "Bearer", "expires_in": 3600}`, secrets: [jwt] },
    { kind: "jwt", text: `session cookie was ${jwt}`, secrets: [jwt] },
    {
      kind: "private-key",
      text: `cat > deploy_key <<EOF\n${pem}\nEOF`,
      secrets: [pemBody.slice(0, 64), pemBody.slice(-64)],
    },
    { kind: "private-key", text: JSON.stringify({ content: `${openssh}\n` }), secrets: [pemBody.slice(0, 64)] },
    {
      kind: "private-key",
      text: JSON.stringify({
        type: "service_account",
        private_key: `${part("-----BEGIN ", "PRIVATE KEY-----")}\n${pemBody}\n-----END PRIVATE KEY-----\n`,
      }),
      secrets: [pemBody.slice(0, 64)],
    },
    { kind: "url-password", text: `psql postgres://app:${urlPassword}@db.internal:5432/prod`, secrets: [urlPassword] },
    {
      kind: "url-password",
      text: `DATABASE_URL="mysql://root:${dbPassword}@127.0.0.1/app" npm test`,
      secrets: [dbPassword],
    },
    { kind: "url-password", text: `redis-cli -u redis://:${dbPassword}@cache:6379 ping`, secrets: [dbPassword] },
    {
      kind: "authorization",
      text: `curl -H 'Authorization: Bearer ${bearer}' https://api.example.com`,
      secrets: [bearer],
    },
    { kind: "authorization", text: `{"headers": {"Authorization": "Basic ${basic}"}}`, secrets: [basic] },
    { kind: "bearer-token", text: `token = "Bearer ${bearer}"`, secrets: [bearer] },
    { kind: "bearer-token", text: `http GET api.example.com/v1 "Bearer ${bearer}"`, secrets: [bearer] },
    {
      kind: "basic-auth",
      text: `curl -u admin:${basicPassword} https://jenkins.local/api/json`,
      secrets: [basicPassword],
    },
    { kind: "password", text: `mysql -u root --password=${password} app`, secrets: [password] },
    { kind: "password", text: `PGPASSWORD='${password}' psql -h db -U app`, secrets: [password] },
    { kind: "password", text: `{"username": "admin", "password": "${password}"}`, secrets: [password] },
    { kind: "password", text: `docker run -e POSTGRES_PASSWORD=${dbPassword} postgres:16`, secrets: [dbPassword] },
    { kind: "password", text: `spring.datasource.password=${dbPassword}`, secrets: [dbPassword] },
    { kind: "password", text: `Server=db;Database=app;User Id=sa;Password=${dbPassword};`, secrets: [dbPassword] },
    { kind: "password", text: `db:\n  user: app\n  password: ${dbPassword}\n`, secrets: [dbPassword] },
    { kind: "password", text: `mysql -h db -uroot -p${dbPassword} app < dump.sql`, secrets: [dbPassword] },
    { kind: "password", text: `sshpass -p '${password}' ssh deploy@host uptime`, secrets: [password] },
    { kind: "password", text: `MYSQL_PWD=${dbPassword} mysqldump app`, secrets: [dbPassword] },
    { kind: "password", text: `openssl pkcs12 -export -passout pass:x --passphrase ${password}`, secrets: [password] },
    { kind: "secret", text: `--client-secret ${clientSecret}`, secrets: [clientSecret] },
    { kind: "secret", text: `{"client_id": "web", "client_secret": "${clientSecret}"}`, secrets: [clientSecret] },
    { kind: "secret", text: `JWT_SECRET=${clientSecret} node server.js`, secrets: [clientSecret] },
    { kind: "api-key", text: `curl "https://api.example.com/v2/items?api_key=${apiKey}&page=2"`, secrets: [apiKey] },
    { kind: "api-key", text: `curl -H "X-Api-Key: ${apiKey}" https://api.example.com`, secrets: [apiKey] },
    { kind: "api-key", text: `mytool deploy --api-key ${apiKey} --region eu`, secrets: [apiKey] },
    { kind: "token", text: `export VAULT_TOKEN=${vault}`, secrets: [vault] },
    { kind: "token", text: `{"refresh_token": "${refresh}"}`, secrets: [refresh] },
    {
      kind: "cookie",
      text: `curl -H "Cookie: theme=dark; sessionid=${refresh}" https://app.example.com`,
      secrets: [refresh],
    },
    { kind: "huggingface-token", text: `huggingface-cli login --token ${hf}`, secrets: [hf] },
    { kind: "sendgrid-api-key", text: `SENDGRID_KEY=${sendgrid}`, secrets: [sendgrid] },
    ...reservedUrlRows([
      [`psql postgres://app:${p1}#${p2}@db.internal:5432/prod`, [p1, p2]],
      [`psql "postgres://app:${p1}@${p2}@db/prod?sslmode=require"`, [p1, p2]],
      [`psql postgresql://app:${p1}%40${p2}%23${p3}@db/prod`, [p1, p2, p3]],
      [`curl https://deploy:${p1}?${p2}@ci.example.com/api/json`, [p1, p2]],
      [`redis-cli -u redis://:${p1}:${p2}#${p3}@cache:6379 ping`, [p1, p2, p3]],
      [`git clone git+ssh://deploy:${p1}#${p2}@git.example.com/acme/app.git`, [p1, p2]],
      [
        `mongosh "mongodb+srv://admin:${p1}@${p2}?${p3}@c0.a.mongodb.net,c0.b.mongodb.net/db?retryWrites=true"`,
        [p1, p2, p3],
      ],
      [`psql postgres://app:${p1}%40${p2}@db/prod -c "select '${p1}@${p2}'"`, [p1, p2]],
    ]),
  ];
}
export function negativeCorpus(seed = 20261122) {
  const random = generator(seed + 1);
  const sha = random(HEX, 40);
  const uuid = `${random(HEX, 8)}-${random(HEX, 4)}-4${random(HEX, 3)}-a${random(HEX, 3)}-${random(HEX, 12)}`;
  const png = `iVBORw0KGgoAAAANSUhEUgAA${random(BASE64, 4000)}`;
  const integrity = `sha512-${random(BASE64, 86)}==`;
  const rows = [
    ["git sha", `git checkout ${sha}`],
    ["git log", `git log --oneline ${sha.slice(0, 7)}..${sha}`],
    ["git show", `commit ${sha}\nAuthor: Dev <dev@example.com>\n\n    fix: handle token refresh`],
    ["uuid", `{"id": "${uuid}", "sessionId": "${uuid}"}`],
    ["uuid in path", `cat ~/.claude/projects/-work-main/${uuid}.jsonl`],
    ["base64 image", `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${png}"}}`],
    ["data url", `<img src="data:image/png;base64,${png}">`],
    ["integrity", `"integrity": "${integrity}"`],
    [
      "lockfile",
      `"node_modules/zod": {"version": "4.6.7", "resolved": "https://registry.npmjs.org/zod/-/zod-4.6.7.tgz", "integrity": "${integrity}"}`,
    ],
    ["sha256sum", `${random(HEX, 64)}  dist/toolgate-0.1.0.tgz`],
    ["npm install", "npm install --save-exact zod@4.6.7 && npm run build"],
    ["npm ci", "npm ci --ignore-scripts --no-audit"],
    ["tests", "npx vitest run src/detect --reporter=verbose"],
    ["grep token", 'grep -rn "token" src/ --include=*.ts'],
    ["grep password=", 'grep -r "password=" config/'],
    ["rg secret", "rg -i 'client_secret|api_key' --type py"],
    ["jq", "jq '.access_token' response.json"],
    ["env var reference", 'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ["env var braces", "export GITHUB_TOKEN=${GITHUB_TOKEN:-}"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ["gha secret", "token: ${{ secrets.GITHUB_TOKEN }}"],
    ["password stdin", 'echo "$PASS" | docker login --username ci --password-stdin ghcr.io'],
    ["token file", "gh auth login --with-token < ~/.config/gh/token.txt"],
    ["key path", "ssh -i ~/.ssh/id_ed25519 deploy@host 'systemctl restart app'"],
    ["private key path", "mytool sign --private-key ./keys/signing.pem dist/app.zip"],
    ["max tokens", '{"model": "claude", "max_tokens": 4096, "temperature": 0.2}'],
    ["token usage", "input_tokens: 1520, output_tokens: 312, cache_read_input_tokens: 0"],
    ["token type", '{"token_type": "Bearer", "expires_in": 3600}'],
    ["secret name", "kubectl get secret db-credentials -o yaml"],
    ["aws cli", "aws s3 ls s3://my-bucket/logs/ --region us-east-1"],
    ["aws sts", "aws sts get-caller-identity --profile staging"],
    ["paths", "/home/dev/projects/app/src/components/TokenInput.tsx"],
    ["windows path", "C:\\Users\\dev\\AppData\\Roaming\\npm\\node_modules\\typescript\\lib\\tsc.js"],
    ["file read", '{"file_path": "/work/main/src/detect/secret-key-names.ts"}'],
    ["url", "curl -sSL https://raw.githubusercontent.com/acme/app/main/install.sh | bash"],
    ["url with user", "git clone ssh://git@github.com/acme/app.git"],
    ["url port", "curl http://localhost:8080/api/health"],
    ["url port then query with @", "curl http://localhost:3000?email=dev@example.com"],
    ["url path with @", "curl https://registry.example.com:8443/npm/@scope/pkg@1.2.3"],
    ["docker", "docker run --rm -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16"],
    ["prose", "The token: it expires after one hour, so refresh it before calling the API."],
    ["prose password", "Reset your password: open Settings and choose Security."],
    ["task list", "- [x] rotate the api key\n- [ ] update the password policy docs"],
    ["css", ".token-list { color: var(--secret-color); }"],
    ["semver", "typescript@5.9.3 vitest@4.1.12 @biomejs/biome@2.6.8"],
    ["sk word", "sk-learn and task-runner-with-very-long-hyphenated-name-here"],
    ["hex color", "#ff00aa #00ff00"],
    ["bearer prose", "Bearer tokens are sent in the Authorization header."],
    ["placeholder", 'password = "<your password>"'],
    ["redacted", "password=[REDACTED:password] token=[REDACTED:github-token]"],
    ["python", "python -c 'import secrets; print(secrets.token_hex(16))'"],
    ["mysql prompt", "mysql -h 127.0.0.1 -P 3306 -u root -p app && mkdir -p backups"],
    ["pwd", "cd /tmp && PWD=/work/app OLDPWD=/home/dev make"],
    ["cargo", "cargo build --release --target x86_64-unknown-linux-gnu"],
    ["make", "make -j4 CFLAGS='-O2 -Wall' install"],
  ];
  return rows.map(([label, text]) => ({ label, text }));
}
/** Run a redactor over the corpus and measure recall and false positives. */
export function measureCorpus(redact, seed) {
  const secretsMissed = [];
  const kindMisses = [];
  let secretsTotal = 0;
  for (const row of secretCorpus(seed)) {
    const { text, findings } = redact(row.text);
    for (const secret of row.secrets) {
      secretsTotal += 1;
      if (text.includes(secret)) secretsMissed.push({ kind: row.kind, text: row.text, secret });
    }
    if ((findings[row.kind] ?? 0) === 0)
      kindMisses.push({ kind: row.kind, text: row.text, reported: Object.keys(findings) });
  }
  const falsePositives = [];
  const negatives = negativeCorpus(seed);
  for (const row of negatives) {
    const { text } = redact(row.text);
    if (text !== row.text) falsePositives.push({ label: row.label, text: row.text, output: text });
  }
  return {
    recall: secretsTotal === 0 ? 1 : (secretsTotal - secretsMissed.length) / secretsTotal,
    secretsTotal,
    secretsMissed,
    kindMisses,
    falsePositiveRate: negatives.length === 0 ? 0 : falsePositives.length / negatives.length,
    negativesTotal: negatives.length,
    falsePositives,
  };
}
