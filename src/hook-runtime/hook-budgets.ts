/**
 * The hook process's time budgets, well under every host's own hook timeout (30 s where toolgate's installer
 * sets it, 60 s or more where the host's default applies). A host that gives up on a hook decides alone, so a
 * deny that exists only in toolgate's config would be lost: the answer must come first, and within its budget.
 */

/**
 * How long the decision may take (config, store, policy, the host's handler) before the host's fail-closed answer
 * is written instead. The store's own lock and connection waits are shorter (about 1.5 s); this is the backstop.
 */
export const HOOK_ANSWER_BUDGET_MS = 4_000;

/**
 * After the answer is written: how long the process waits for deliveries still under way (store appends, webhooks,
 * command hooks) and the store's close before it exits anyway.
 */
export const HOOK_DRAIN_BUDGET_MS = 2_000;
