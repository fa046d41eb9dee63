import { answerKey } from "../answer-key.js";

/**
 * Where the views get their data: the dashboard server (`/api/...` with the token) or, in a report written by
 * `toolgate analyze --html`, the answers embedded in the page (no network at all).
 */
export interface Embedded {
  answers: Record<string, unknown>;
  generatedAt: string;
  title: string;
}

export class NotInReport extends Error {}

export class ApiError extends Error {}

let embedded: Embedded | undefined;
const element = document.getElementById("toolgate-data");
if (element?.textContent) embedded = JSON.parse(element.textContent) as Embedded;

export function embeddedReport(): Embedded | undefined {
  return embedded;
}

export function token(): string {
  return new URLSearchParams(location.search).get("token") ?? "";
}

export async function getJson<T>(path: string, params: URLSearchParams): Promise<T> {
  if (embedded) {
    const key = answerKey(path, params);
    if (!(key in embedded.answers)) throw new NotInReport(key);
    return embedded.answers[key] as T;
  }
  const response = await fetch(`${path}?${params.toString()}`, { headers: { "x-toolgate-token": token() } });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    throw new ApiError(body?.error?.message ?? `${response.status} ${response.statusText}`);
  }
  return (await response.json()) as T;
}
