/** What the page needs: its bundled script and stylesheet, and either a server (token) or embedded answers. */
export type PageMode =
  | { kind: "server"; token: string; defaultSince: string }
  | { kind: "file"; answers: Record<string, unknown>; generatedAt: string; title: string };

/**
 * The dashboard's one HTML page. Served: script and stylesheet are separate requests carrying the token. As a
 * file (`toolgate analyze --html`): both inline, with the API answers embedded as JSON and a Content-Security-Policy
 * that forbids every network request.
 */
export function renderPage(options: { script: string; css: string; mode: PageMode }): string {
  const { mode } = options;
  const title = mode.kind === "file" ? mode.title : "toolgate dashboard";
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
  ];
  if (mode.kind === "server") {
    const token = encodeURIComponent(mode.token);
    head.push(`<meta name="toolgate-default-since" content="${escapeHtml(mode.defaultSince)}">`);
    head.push(`<link rel="stylesheet" href="/assets/dashboard.css?token=${token}">`);
    head.push(`<script type="module" src="/assets/dashboard.js?token=${token}"></script>`);
  } else {
    head.push(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    );
    head.push(`<style>${options.css.replaceAll("</style", "<\\/style")}</style>`);
    const data = { answers: mode.answers, generatedAt: mode.generatedAt, title: mode.title };
    head.push(`<script type="application/json" id="toolgate-data">${jsonForScript(data)}</script>`);
    head.push(`<script type="module">${options.script.replaceAll("</script", "<\\/script")}</script>`);
  }
  return `<!doctype html>
<html lang="en">
<head>
${head.join("\n")}
</head>
<body>
<noscript>This page needs JavaScript. The same figures are in <code>toolgate report</code>.</noscript>
<div id="app"></div>
</body>
</html>
`;
}

/** JSON that cannot end its <script> element or open a comment */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
