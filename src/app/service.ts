import { AsyncLocalStorage } from "node:async_hooks";
import { Refusal, errnoOf, isRefusal, isSetAside, isTransient } from "../core/errors.js";
import type { AppClient } from "../github/app-client.js";
import type { Store } from "../store/index.js";
import { codeOf, jsonLogger, systemClock, type AppContext, type AppSettings, type Clock, type Logger } from "./context.js";
import { onPullRequestReview } from "./handlers/pull-request-review.js";
import { onPullRequest } from "./handlers/pull-request.js";
import { onPush } from "./handlers/push.js";
import { onWorkflowRun } from "./handlers/workflow-run.js";
import type { InstallationRef } from "../core/payloads.js";
import { redeliveryPass, type RedeliveryReport } from "./redelivery.js";
import { BudgetDeferral, workKindOf } from "../core/rate-budget.js";
import { RateRecorder, respectBudget } from "./rate-budget.js";
import { sweep, type SweepReport } from "./sweep.js";
import { AppMetrics } from "./metrics.js";

type Handler = (ctx: AppContext, payload: never) => Promise<string>;

/** The events the App subscribes to (app.yml), each with its handler. */
const HANDLERS = new Map<string, Handler>([
  ["workflow_run", onWorkflowRun],
  ["push", onPush],
  ["pull_request", onPullRequest],
  ["pull_request_review", onPullRequestReview],
]);

/** The answer to GitHub, given before the work runs. */
interface DeliveryAnswer {
  /**
   * queued: recorded, the work runs outside the request (202); in_progress: a live process
   * holds it (202); duplicate: its work was done before (200).
   */
  status: "queued" | "in_progress" | "duplicate";
  outcome: string;
}

interface DeliveryResult {
  /** done: the work completed; duplicate: it had completed before; queued: recorded for the sweeper (a pause). */
  status: "done" | "duplicate" | "queued";
  outcome: string;
}

/**
 * A queued delivery that failed this many times is `failed` (a redelivery only): with the
 * default 30 s sweep, about an hour, the longest rate-limit reset GitHub announces.
 */
const MAX_QUEUED_FAILURES = 120;

/** How many recorded deliveries one sweeper pass takes up. */
const SWEEP_DELIVERY_BATCH = 100;

/**
 * Delivery bookkeeping and routing. Each event's work is a handler over the App context
 * (src/app/handlers/); every effect goes through the installation client, whose guard reads
 * the kill switch.
 */
export class AppService {
  lastSweep: { at: number; report: SweepReport } | null = null;
  /** Set when the process starts draining: new deliveries are refused with APP_DRAINING. */
  draining = false;
  /** Set when the drain ran out of time: requests to GitHub are refused with APP_DRAINING. */
  stopping = false;
  /** Deliveries being processed in this process, by id. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private takingUp = false;
  private readonly ctx: AppContext;
  /** The delivery whose work is running, for a GitHub request attempt that fails on its behalf. */
  private readonly working = new AsyncLocalStorage<string>();

  readonly log: Logger;

  /** The last redelivery pass this process ran (the store keeps the last of any replica). */
  lastRedelivery: RedeliveryReport | null = null;

  /** Each installation's GitHub budget as its answers say, recorded for every replica. */
  readonly rates: RateRecorder;

  constructor(
    readonly store: Store,
    private readonly github: AppClient,
    readonly settings: AppSettings,
    readonly clock: Clock = systemClock,
    log: Logger = jsonLogger,
    /** GET /metrics' counters (metrics.ts); its own registry per App. */
    readonly metrics: AppMetrics = new AppMetrics(),
  ) {
    this.log = metrics.counting(log);
    log = this.log;
    this.ctx = { store, installation: (id) => github.installation(id), clock, settings, log };
    this.rates = new RateRecorder(store, settings.replicaId, clock, log);
  }

  /** The headers of an answer to an installation's request (its rate limit, a secondary limit's retry-after). */
  gitHubAnswered(installationId: number, headers: Record<string, unknown>): void {
    this.rates.seen(installationId, headers);
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
   * Takes one verified delivery, within GitHub's 10 s: one store write, then the answer; the
   * work runs outside the request. A new delivery (or one recorded `failed` or `queued`) is
   * claimed with its payload and worked on here at once when a worker is free; otherwise (every
   * worker busy, or this process draining) it is recorded `queued`, for the next free worker of
   * any replica (or the sweeper). Both are `queued` answers (202). One held by a live process is
   * `in_progress` (202: GitHub's log shows no failure, and nothing runs twice); one done before
   * is `duplicate` (200). A store that cannot record it throws (503, nothing recorded: the
   * redelivery sweep asks GitHub for it again).
   */
  accept(deliveryId: string, event: string, payload: unknown, body?: string): Promise<DeliveryAnswer> {
    if (this.inFlight.has(deliveryId)) return Promise.resolve(inProgress("this process"));
    const raw = body ?? JSON.stringify(payload);
    if (this.draining || this.inFlight.size >= this.settings.workers) return this.queue(deliveryId, event, raw);
    let answer!: (a: DeliveryAnswer) => void;
    let refuse!: (err: unknown) => void;
    const answered = new Promise<DeliveryAnswer>((resolve, reject) => {
      answer = resolve;
      refuse = reject;
    });
    // Tracked before the claim, so a concurrent copy of this delivery to this process is in progress, not claimed twice.
    void this.track(deliveryId, async () => {
      let claimed: boolean;
      try {
        claimed = await this.store.claimDelivery(deliveryId, event, this.owner, this.clock.now(), this.settings.leaseMs, raw);
      } catch (err) {
        refuse(err);
        return;
      }
      if (!claimed) {
        await this.heldElsewhere(deliveryId).then(answer, refuse);
        return;
      }
      answer({ status: "queued", outcome: "recorded; this process is working on it now" });
      await this.process(deliveryId, event, payload).catch(() => undefined);
    });
    return answered;
  }

  /** Records a delivery `queued` without working on it here (every worker busy, or draining). */
  private async queue(deliveryId: string, event: string, raw: string): Promise<DeliveryAnswer> {
    const reason = this.draining
      ? { code: "APP_DRAINING", message: "recorded while this process shuts down; another replica or the restarted one works on it" }
      : null;
    if (await this.store.queueDelivery(deliveryId, event, this.owner, this.clock.now(), raw, reason)) {
      return {
        status: "queued",
        outcome: reason ? reason.message : "recorded; every worker of this process is busy, the next free one of any replica takes it",
      };
    }
    return this.heldElsewhere(deliveryId);
  }

  private async heldElsewhere(deliveryId: string): Promise<DeliveryAnswer> {
    const row = await this.store.getDelivery(deliveryId);
    if (row?.state === "done") return { status: "duplicate", outcome: row.outcome ?? "already processed" };
    return inProgress(row ? `process ${row.owner}` : "another process");
  }

  /**
   * Runs a claimed delivery's work, with its one log line for the outcome: `delivery.done`,
   * `delivery.queued` (set aside by a pause) or `delivery.failed` (with code and hint).
   */
  private async process(deliveryId: string, event: string, payload: unknown): Promise<DeliveryResult> {
    try {
      const result = await this.working.run(deliveryId, () => this.work(deliveryId, event, payload)).finally(() => this.rates.flushed());
      this.log("info", `delivery.${result.status}`, { delivery: deliveryId, github_event: event, outcome: result.outcome });
      this.metrics.deliveryProcessed(event, result.status);
      return result;
    } catch (err) {
      const gate = isRefusal(err) ? err : new Refusal("INTERNAL_ERROR", (err as Error)?.message ?? String(err), { cause: err });
      this.metrics.deliveryFailed(event, gate.code);
      this.log("error", "delivery.failed", {
        delivery: deliveryId,
        github_event: event,
        code: gate.code,
        message: gate.message,
        ...(gate.hint ? { hint: gate.hint } : {}),
      });
      throw gate;
    }
  }

  /**
   * A request attempt GitHub did not answer (refused, reset, timed out, a 5xx), made for the
   * delivery whose work is running: its row says at once that it waits on GitHub, with the error
   * and the configured API URL, while the client retries (state `processing`, code
   * GITHUB_UNAVAILABLE). Its outcome (done, or queued with the failure counted) replaces the note.
   */
  gitHubAttemptFailed(route: string, err: unknown): void {
    const id = this.working.getStore();
    if (id === undefined) return;
    const message = `waiting on GitHub at ${this.settings.githubApiUrl}: ${route} failed (${attemptDetail(err)}); retrying`;
    void this.store.noteDeliveryWaiting(id, this.owner, "GITHUB_UNAVAILABLE", message).catch(() => undefined);
  }

  /**
   * Free workers take up deliveries recorded `queued` that no attempt has failed yet (queued
   * while every worker was busy, or by a draining process), oldest first, from any replica.
   * Those that failed wait for the sweeper, so a transient failure is not retried in a loop.
   */
  async takeUpWaiting(): Promise<number> {
    if (this.takingUp || this.draining) return 0;
    this.takingUp = true;
    try {
      const free = this.settings.workers - this.inFlight.size;
      if (free <= 0 || (await this.store.killSwitch()).paused) return 0;
      let started = 0;
      for (const { delivery_id: id, event, payload } of await this.store.waitingDeliveries(free)) {
        if (this.draining || this.inFlight.has(id) || this.inFlight.size >= this.settings.workers) continue;
        started++;
        void this.track(id, async () => {
          if (!(await this.store.reclaimDelivery(id, this.owner, this.clock.now(), this.settings.leaseMs))) return;
          await this.process(id, event, JSON.parse(payload) as unknown);
        }).catch(() => undefined);
      }
      return started;
    } catch (err) {
      this.log("warn", "delivery.take_up_failed", { code: codeOf(err), message: (err as Error).message });
      return 0;
    } finally {
      this.takingUp = false;
    }
  }

  /** Runs a claimed delivery's work and records its outcome. */
  private async work(deliveryId: string, event: string, payload: unknown): Promise<DeliveryResult> {
    const owner = this.owner;
    let outcome: string;
    try {
      const kill = await this.store.killSwitch();
      if (kill.paused) {
        throw new Refusal("KILL_SWITCH_ENGAGED", `the App is paused (${kill.reason ?? "no reason given"}); the delivery is queued`);
      }
      outcome = await this.route(event, payload);
    } catch (err) {
      // Past the drain bound, whatever failed was cut short by the shutdown: released, not failed.
      const code = this.stopping ? "APP_DRAINING" : codeOf(err);
      const message = err instanceof Error ? err.message : String(err);
      // Deferred for the installation's budget: queued, and the sweeper leaves it until the reset.
      const deferredUntil = !this.stopping && err instanceof BudgetDeferral ? err.until : undefined;
      const recorded = await this.store
        .failDelivery(deliveryId, owner, code, message, this.clock.now(), {
          queue: isTransient(code),
          countsAsFailure: !isSetAside(code),
          maxFailures: MAX_QUEUED_FAILURES,
          ...(deferredUntil === undefined ? {} : { notBefore: deferredUntil }),
        })
        .catch(() => false);
      // Not logged here: the webhook intake logs one line per delivery outcome, the sweeper its own report.
      if (code === "KILL_SWITCH_ENGAGED" && recorded)
        return { status: "queued", outcome: "recorded while paused; the sweeper processes it after resume" };
      if (deferredUntil !== undefined && recorded) {
        this.log("warn", "delivery.deferred", { delivery: deliveryId, github_event: event, code, message });
        return { status: "queued", outcome: `${message}; the sweeper takes it up then` };
      }
      if (code !== codeOf(err)) throw new Refusal("APP_DRAINING", `released at shutdown (${message})`, { cause: err });
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
      if (!this.draining) void this.takeUpWaiting();
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
          return this.process(id, event, JSON.parse(payload) as unknown);
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
    // The installation's budget first: work that waits in the written order sends nothing (GITHUB_BUDGET_LOW).
    const kind = workKindOf(event, payload);
    if (kind !== null && p.installation?.id !== undefined) await respectBudget(this.ctx, p.installation.id, kind);
    const handler = HANDLERS.get(event);
    return handler ? handler(this.ctx, payload as never) : `ignored event ${event}`;
  }

  /** One redelivery pass (src/app/redelivery.ts): ask GitHub again for the failed deliveries the store never recorded. */
  async redeliverySweep(): Promise<RedeliveryReport | null> {
    if (this.draining) return null;
    this.lastRedelivery = await redeliveryPass({
      store: this.store,
      hooks: this.github,
      clock: this.clock,
      log: this.log,
      owner: this.owner,
      policy: this.settings.redelivery,
    });
    this.metrics.redeliveryPass(this.lastRedelivery);
    return this.lastRedelivery;
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

/** What a failed request attempt says: its HTTP status, its message and the errno under it (ECONNREFUSED, a timeout). */
function attemptDetail(err: unknown): string {
  const status = (err as { status?: unknown } | null)?.status;
  let cause: unknown = err;
  let errno: string | undefined;
  for (let i = 0; i < 4 && cause !== undefined && cause !== null && errno === undefined; i++) {
    errno = errnoOf(cause);
    cause = (cause as { cause?: unknown }).cause;
  }
  const parts = [typeof status === "number" && status > 0 ? `HTTP ${status}` : null, (err as Error)?.message ?? String(err), errno ?? null];
  return parts.filter((p) => p !== null && p !== "").join(", ");
}

function inProgress(where: string): DeliveryAnswer {
  return {
    status: "in_progress",
    outcome: `being processed by ${where}; nothing is done twice: a later delivery of it is answered duplicate once done, or taken over if that process died`,
  };
}
