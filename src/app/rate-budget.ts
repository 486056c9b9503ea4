import { budgetDecision, BudgetDeferral, parseRateHeaders, type RateObservation, type WorkKind } from "../core/rate-budget.js";
import type { Store } from "../store/index.js";
import { codeOf, type AppContext, type Clock, type Logger } from "./context.js";

/**
 * Work of `kind` for an installation, given its budget as any replica last recorded it
 * (core/rate-budget.ts budgetDecision): throws BudgetDeferral (GITHUB_BUDGET_LOW, naming the
 * reset) when it waits. Nothing is sent to GitHub before this. A store that cannot be read
 * throws STORE_UNAVAILABLE: the work is queued for the sweeper, never run unchecked.
 */
export async function respectBudget(ctx: Pick<AppContext, "store" | "clock">, installationId: number, kind: WorkKind): Promise<void> {
  const now = ctx.clock.now();
  const decision = budgetDecision(kind, await ctx.store.rateLimits.get(installationId), now);
  if (decision.defer) throw new BudgetDeferral(kind, decision.until, decision.reason);
}

function merge(a: RateObservation | undefined, b: RateObservation): RateObservation {
  if (a === undefined || a.resource !== b.resource) return b;
  const reading = b.remaining !== null ? b : a;
  const after = [a.retryAfterUntil, b.retryAfterUntil].filter((t): t is number => t !== null);
  return {
    resource: b.resource,
    remaining: reading.remaining,
    limit: reading.limit,
    resetAt: reading.resetAt,
    retryAfterUntil: after.length > 0 ? Math.max(...after) : null,
  };
}

/**
 * Records what GitHub's answers to each installation's requests say of its budget, in the
 * store (rate_limits), so every replica decides from it. Written as answers arrive, one write
 * per installation at a time: answers that come while one is being written are folded into the
 * next write (the latest reading, the latest retry-after). A write that fails is logged and
 * dropped: the next answer writes again; reading the budget never fails a request.
 */
export class RateRecorder {
  private readonly pending = new Map<number, RateObservation>();
  private readonly writing = new Map<number, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly owner: string,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** One answer's headers, for installation `installationId`. */
  seen(installationId: number, headers: Record<string, unknown>): void {
    const observed = parseRateHeaders(headers, this.clock.now());
    if (observed === null) return;
    if (observed.retryAfterUntil !== null) {
      this.log("warn", "github.secondary_limit", {
        installation: installationId,
        retry_after_until: new Date(observed.retryAfterUntil).toISOString(),
      });
    }
    this.pending.set(installationId, merge(this.pending.get(installationId), observed));
    if (!this.writing.has(installationId)) this.writing.set(installationId, this.drain(installationId));
  }

  private async drain(installationId: number): Promise<void> {
    try {
      for (let next = this.pending.get(installationId); next !== undefined; next = this.pending.get(installationId)) {
        this.pending.delete(installationId);
        try {
          await this.store.rateLimits.record(installationId, next, this.owner, this.clock.now());
        } catch (err) {
          this.log("warn", "github.rate_limit_unrecorded", {
            installation: installationId,
            code: codeOf(err),
            message: (err as Error).message,
          });
        }
      }
    } finally {
      this.writing.delete(installationId);
    }
  }

  /** Resolves once every reading seen so far is written (or its write failed). */
  async flushed(): Promise<void> {
    while (this.writing.size > 0) await Promise.allSettled([...this.writing.values()]);
  }
}
