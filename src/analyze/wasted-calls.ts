/**
 * Wasted calls: per pattern (agent + tool + family), the calls made after its first denial while it stayed
 * unavailable. A pattern that later succeeds (a person granted it) wastes nothing; one that never does wastes every
 * call after its first denial, denied or not, with the tokens of the requests that produced them.
 */
interface Chain {
  open: boolean;
  calls: number;
  tokens: number;
}

export class WastedCalls {
  private readonly chains = new Map<string, Chain>();

  /** a call of this pattern; true when it retries a pattern that is denied and not available since */
  onCall(key: string, tokens: number): boolean {
    const chain = this.chains.get(key);
    if (chain?.open !== true) return false;
    chain.calls += 1;
    chain.tokens += tokens;
    return true;
  }

  onDenied(key: string): void {
    const chain = this.chains.get(key);
    if (chain === undefined) this.chains.set(key, { open: true, calls: 0, tokens: 0 });
    else chain.open = true;
  }

  /** the pattern ran: the calls since its denial were not wasted */
  onAvailable(key: string): void {
    const chain = this.chains.get(key);
    if (chain?.open !== true) return;
    chain.open = false;
    chain.calls = 0;
    chain.tokens = 0;
  }

  totals(): { calls: number; tokens: number } {
    let calls = 0;
    let tokens = 0;
    for (const chain of this.chains.values()) {
      if (!chain.open) continue;
      calls += chain.calls;
      tokens += chain.tokens;
    }
    return { calls, tokens };
  }
}
