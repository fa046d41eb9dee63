/** A tiny element builder: `h("a", { href: "#" }, "text", child)`. Text is always set as text, never parsed. */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    // through the CSSOM: the page's Content-Security-Policy refuses style attributes
    else if (name === "style") setStyle(element, String(value));
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "object" ? child : visibleText(String(child)));
  }
  return element;
}

function setStyle(element: HTMLElement, text: string): void {
  for (const declaration of text.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon > 0) element.style.setProperty(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
  }
}

export interface Column<Row> {
  label: string;
  /** right-aligned figures */
  numeric?: boolean;
  cell: (row: Row) => Child | Child[];
  /** a sort key the server understands; the header becomes a button */
  sort?: string;
}

/** A data table with a caption; sortable headers are buttons with aria-sort. */
export function table<Row>(options: {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  sorted?: { key: string; descending: boolean; onSort: (key: string) => void };
  className?: string;
}): HTMLElement {
  const { sorted } = options;
  const head = options.columns.map((column) => {
    const active = sorted !== undefined && column.sort === sorted.key;
    const ariaSort = active ? (sorted.descending ? "descending" : "ascending") : column.sort ? "none" : null;
    const content =
      column.sort && sorted
        ? h(
            "button",
            {
              type: "button",
              class: "sort",
              id: `sort-${column.sort}`,
              onclick: () => sorted.onSort(column.sort as string),
            },
            column.label,
            active ? (sorted.descending ? " ▼" : " ▲") : "",
          )
        : column.label;
    return h("th", { scope: "col", class: column.numeric ? "num" : null, "aria-sort": ariaSort }, content);
  });
  const body = options.rows.map((row) =>
    h(
      "tr",
      {},
      ...options.columns.map((column) => h("td", { class: column.numeric ? "num" : null }, column.cell(row))),
    ),
  );
  // a wide table scrolls inside its own box; the page never scrolls sideways (390 px phones)
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: options.className ?? null },
      h("caption", {}, options.caption),
      h("thead", {}, h("tr", {}, ...head)),
      h("tbody", {}, ...body),
    ),
  );
}

export function emptyState(title: string, ...lines: (Child | Child[])[]): HTMLElement {
  return h("div", { class: "empty", role: "status" }, h("p", { class: "empty-title" }, title), ...lines);
}

/** bidirectional controls (embeddings, overrides, isolates, marks) that reorder what a person reads */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as a person should read it: a stored call's bidirectional control characters (U+202E and the isolates, which
 * make `rm -rf /‮txt.exe` read as something else) are shown as their code points, never applied.
 */
export function visibleText(text: string): string {
  return text.replace(BIDI_CONTROLS, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}
