import { GateError } from "../core/errors.js";
import type { AppClient } from "../github/app-client.js";
import type { Store } from "../store/index.js";
import { codeOf, jsonLogger, systemClock, type AppContext, type AppSettings, type Clock, type Logger } from "./context.js";
import { onPullRequestReview } from "./handlers/pull-request-review.js";
import { onPullRequest } from "./handlers/pull-request.js";
import { onPush } from "./handlers/push.js";
import { onWorkflowRun } from "./handlers/workflow-run.js";
import type { InstallationRef } from "./payloads.js";
import { sweep, type SweepReport } from "./sweep.js";

type Handler = (ctx: AppContext, payload: never) => Promise<string>;

/** The events the App subscribes to (app.yml), each with its handler. */
const HANDLERS = new Map<string, Handler>([
  ["workflow_run", onWorkflowRun],
  ["push", onPush],
  ["pull_request", onPullRequest],
  ["pull_request_review", onPullRequestReview],
]);

export interface DeliveryResult {
  /** done: the work completed; duplicate: it had completed before; queued: recorded for the sweeper (a pause). */
  status: "done" | "duplicate" | "queued";
  outcome: string;
}

/**
 * Causes that pass with time: a delivery failing with one of these is queued, with its
 * payload, for the sweeper (as well as for GitHub's redelivery). Anything else is `failed`
 * and waits for a redelivery.
 */
const TRANSIENT = new Set([
  "KILL_SWITCH_ENGAGED",
  "GITHUB_UNAVAILABLE",
  "APP_DRAINING",
  "STORE_UNAVAILABLE",
  "PROCESS_FENCED",
  "BUDGET_UNCONFIRMED",
  "DISPATCH_OUTCOME_UNKNOWN",
  "SECRET_UNAVAILABLE",
]);

/** Set aside on purpose, not failures: a pause, a drain. */
const SET_ASIDE = new Set(["KILL_SWITCH_ENGAGED", "APP_DRAINING"]);

/**
 * A queued delivery that failed this many times is `failed` (a redelivery only): with the
 * default 30 s sweep, about an hour, the longest rate-limit reset GitHub announces.
 */
export const MAX_QUEUED_FAILURES = 120;

/** How many recorded deliveries one sweeper pass takes up. */
const SWEEP_DELIVERY_BATCH = 100;

/**
 * Delivery bookkeeping and routing. Each event's work is a handler over the App context
 * (src/app/handlers/); every effect goes through the installation client, whose guard reads
 * the kill switch.
 */
export class GateAppService {
  lastSweep: { at: number; report: SweepReport } | null = null;
  /** Set when the process starts draining: new deliveries are refused with APP_DRAINING. */
  draining = false;
  /** Set when the drain ran out of time: requests to GitHub are refused with APP_DRAINING. */
  stopping = false;
  /** Deliveries being processed in this process, by id. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly ctx: AppContext;

  constructor(
    readonly store: Store,
    github: AppClient,
    readonly settings: AppSettings,
    readonly clock: Clock = systemClock,
    readonly log: Logger = jsonLogger,
  ) {
    this.ctx = { store, installation: (id) => github.installation(id), clock, settings, log };
  }

  /** The claim owner: this process (replica id and incarnation). */
  get owner(): string {
    return this.settings.replicaId;
  }

  /** Deliveries still being processed here. */
  inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Resolves when every delivery in flight here has settled. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /**
   * Processes one verified delivery. It is claimed with its payload; the work runs only while
   * the App is not paused (a paused App records it `queued` for the sweeper). It is recorded
   * done only after its work completed; a failure is recorded with its code, `queued` for the
   * sweeper when the cause is transient, `failed` otherwise, and rethrown. A delivery another
   * live process is working on is DELIVERY_IN_PROGRESS (not a 2xx: GitHub keeps it undelivered).
   */
  async handleDelivery(deliveryId: string, event: string, payload: unknown, body?: string): Promise<DeliveryResult> {
    if (this.draining)
      throw new GateError(
        "APP_DRAINING",
        "this App process is shutting down; deliver again (another replica or the restarted one takes it)",
      );
    if (this.inFlight.has(deliveryId)) throw inProgress(deliveryId, "this process");
    return this.track(deliveryId, async () => {
      const claimed = await this.store.claimDelivery(
        deliveryId,
        event,
        this.owner,
        this.clock.now(),
        this.settings.leaseMs,
        body ?? JSON.stringify(payload),
      );
      if (!claimed) {
        const row = await this.store.getDelivery(deliveryId);
        if (row?.state === "done") return { status: "duplicate", outcome: row.outcome ?? "already processed" };
        throw inProgress(deliveryId, row ? `process ${row.owner}` : "another process");
      }
      return this.work(deliveryId, event, payload);
    });
  }

  /** Runs a claimed delivery's work and records its outcome. */
  private async work(deliveryId: string, event: string, payload: unknown): Promise<DeliveryResult> {
    const owner = this.owner;
    let outcome: string;
    try {
      const kill = await this.store.killSwitch();
      if (kill.paused) {
        throw new GateError("KILL_SWITCH_ENGAGED", `the App is paused (${kill.reason ?? "no reason given"}); the delivery is queued`);
      }
      outcome = await this.route(event, payload);
    } catch (err) {
      // Past the drain bound, whatever failed was cut short by the shutdown: released, not failed.
      const code = this.stopping ? "APP_DRAINING" : codeOf(err);
      const message = err instanceof Error ? err.message : String(err);
      const recorded = await this.store
        .failDelivery(deliveryId, owner, code, message, this.clock.now(), {
          queue: TRANSIENT.has(code),
          countsAsFailure: !SET_ASIDE.has(code),
          maxFailures: MAX_QUEUED_FAILURES,
        })
        .catch(() => false);
      // Not logged here: the webhook intake logs one line per delivery outcome, the sweeper its own report.
      if (code === "KILL_SWITCH_ENGAGED" && recorded)
        return { status: "queued", outcome: "recorded while paused; the sweeper processes it after resume" };
      if (code !== codeOf(err)) throw new GateError("APP_DRAINING", `released at shutdown (${message})`, { cause: err });
      throw err;
    }
    await this.store.finishDelivery(deliveryId, owner, outcome, this.clock.now());
    return { status: "done", outcome };
  }

  private async track<T>(deliveryId: string, fn: () => Promise<T>): Promise<T> {
    const running = fn();
    this.inFlight.set(deliveryId, running);
    try {
      return await running;
    } finally {
      this.inFlight.delete(deliveryId);
    }
  }

  /**
   * The sweeper's part of delivery work: queued deliveries (a pause, GitHub or the store out,
   * a drain) and ones whose owner is gone, processed from their recorded payload. Nothing is
   * taken while paused.
   */
  async sweepDeliveries(): Promise<{ processed: string[]; errors: { item: string; code: string; message: string }[] }> {
    const processed: string[] = [];
    const errors: { item: string; code: string; message: string }[] = [];
    if ((await this.store.killSwitch()).paused || this.draining) return { processed, errors };
    const candidates = await this.store.sweepableDeliveries(this.owner, this.clock.now(), SWEEP_DELIVERY_BATCH);
    for (const { delivery_id: id, event, payload } of candidates) {
      if (this.draining) break;
      if (this.inFlight.has(id)) continue;
      try {
        const result = await this.track(id, async () => {
          if (!(await this.store.reclaimDelivery(id, this.owner, this.clock.now(), this.settings.leaseMs))) return null;
          this.log("info", "delivery.taken_up", { delivery: id, event });
          return this.work(id, event, JSON.parse(payload) as unknown);
        });
        if (result !== null && result.status === "done") processed.push(id);
      } catch (err) {
        errors.push({ item: id, code: codeOf(err), message: (err as Error).message });
      }
    }
    return { processed, errors };
  }

  private async route(event: string, payload: unknown): Promise<string> {
    const p = payload as { action?: unknown; installation?: InstallationRef; repository?: { owner?: { login?: string } } };
    if (p.installation?.id !== undefined) {
      // Only `installation` events carry installation.account; repository events (workflow_run,
      // push, pull_request) carry `installation` as { id, node_id }, and the repository's owner
      // is the account the App is installed on.
      const account = p.installation.account?.login ?? p.repository?.owner?.login ?? null;
      await this.store.ensureInstallation(p.installation.id, account, this.clock.now());
    }
    if (event === "ping") return "pong";
    if (event === "installation") return `installation ${String(p.action)}`;
    const handler = HANDLERS.get(event);
    return handler ? handler(this.ctx, payload as never) : `ignored event ${event}`;
  }

  /** One sweeper pass (src/app/sweep.ts), remembered for the status page. */
  async sweep(): Promise<SweepReport> {
    const at = this.clock.now();
    const swept = await sweep(this.ctx);
    const deliveries = await this.sweepDeliveries();
    const report = { ...swept, deliveries: deliveries.processed };
    report.errors.push(...deliveries.errors);
    this.lastSweep = { at, report };
    return report;
  }
}

function inProgress(deliveryId: string, where: string): GateError {
  return new GateError("DELIVERY_IN_PROGRESS", `delivery ${deliveryId} is being processed by ${where}`, {
    hint: "Nothing was done twice. Deliver it again later: it is answered duplicate once done, or taken over if its process died.",
  });
}
