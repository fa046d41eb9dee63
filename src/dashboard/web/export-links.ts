import { EXPORT_TABLES, type ExportFormat, type ExportTable, exportFile, exportRecords } from "../export-tables.js";
import { embeddedReport, token } from "./api.js";
import { h } from "./dom.js";

/**
 * "Download CSV · JSON" for one table. Served: links to `/api/export` with the view's filters and the token (every
 * row of the table, the sessions table's every page, as the server redacts and counts it). In a saved report, and
 * for the live list, the file is made in the page from the rows it holds (`rows()`).
 */
export function exportLinks(
  table: ExportTable,
  options: { query?: URLSearchParams; rows?: () => Promise<unknown> | unknown },
): HTMLElement {
  const { title } = EXPORT_TABLES[table];
  const local = embeddedReport() !== undefined || table === "live";
  const link = (format: ExportFormat) => {
    const label = `${title} as ${format.toUpperCase()}`;
    if (!local) {
      const query = new URLSearchParams(options.query);
      query.set("table", table);
      query.set("format", format);
      query.set("token", token());
      return h(
        "a",
        { href: `/api/export?${query}`, download: "", class: "export", "aria-label": `Download ${label}` },
        format.toUpperCase(),
      );
    }
    return h(
      "button",
      {
        type: "button",
        class: "export link",
        "aria-label": `Download ${label}`,
        onclick: async () => {
          const records = exportRecords(table, await options.rows?.());
          const day = new Date().toISOString().slice(0, 10);
          const file = exportFile({ table, format, records, day });
          const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
          const anchor = h("a", { href: url, download: file.name });
          document.body.append(anchor);
          anchor.click();
          anchor.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        },
      },
      format.toUpperCase(),
    );
  };
  return h("p", { class: "exports", "data-export": table }, "Download ", link("csv"), " · ", link("json"));
}
