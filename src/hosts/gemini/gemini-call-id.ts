/**
 * Gemini's tool events carry no call id: each BeforeTool gets a fresh one (never derived from the input, which may
 * hold a secret). A call's AfterTool gets its own: the core counts by tool and signature, not by id.
 */
export function newCallId(): string {
  return `gemini-${globalThis.crypto.randomUUID()}`;
}

const OWN_ID = /^gemini-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** an id `newCallId` made: toolgate's own, never one of Gemini's (`<tool>_<ms>_<n>`) */
export function isOwnCallId(id: string): boolean {
  return OWN_ID.test(id);
}
