/** The page's state lives in its URL (shareable; the back button works): view, filters, sort, page, session. */
export const VIEWS = ["overview", "sessions", "session", "policy", "live"] as const;
export type View = (typeof VIEWS)[number];

/** the query parameters that narrow the data (sent to the API) */
export const FILTER_KEYS = ["since", "tool", "host", "label"] as const;

export interface PageState {
  view: View;
  params: URLSearchParams;
}

export function readState(): PageState {
  const params = new URLSearchParams(location.search);
  const view = params.get("view");
  return { view: (VIEWS as readonly string[]).includes(view ?? "") ? (view as View) : "overview", params };
}

/** the URL of the same page with some parameters changed (null removes one); the token stays */
export function hrefWith(changes: Record<string, string | null>): string {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ""}`;
}

let onNavigate: () => void = () => undefined;

export function setNavigateHandler(handler: () => void): void {
  onNavigate = handler;
  window.addEventListener("popstate", () => onNavigate());
}

/** pushes a new URL and re-renders (one history entry per user action) */
export function navigate(changes: Record<string, string | null>): void {
  history.pushState(null, "", hrefWith(changes));
  onNavigate();
}

/** an in-page link: a real href (open in a new tab works) that navigates without a reload */
export function linkTo(changes: Record<string, string | null>): { href: string; onclick: (event: Event) => void } {
  return {
    href: hrefWith(changes),
    onclick: (event: Event) => {
      const mouse = event as MouseEvent;
      if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.button !== 0) return;
      event.preventDefault();
      navigate(changes);
    },
  };
}
