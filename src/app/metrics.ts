/**
 * GET /metrics: the App's counters in Prometheus' text format (prom-client). Each App instance
 * has its own registry, never prom-client's global one, so several Apps in one process (the
 * tests) do not share counters. Budgets are read from the store at each scrape.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BudgetPolicy } from "../core/budget.js";
import type { Store } from "../store/index.js";
import type { Logger } from "./context.js";
import type { RedeliveryReport } from "./redelivery.js";
import { budgetSnapshot } from "./status.js";

const PREFIX = "envelope_gate_";

export class AppMetrics {
  readonly registry = new Registry();
  private readonly received: Counter<"github_event" | "answer">;
  private readonly refused: Counter<"code">;
  private readonly processed: Counter<"github_event" | "status">;
  private readonly failed: Counter<"github_event" | "code">;
  private readonly verdicts: Counter<"conclusion" | "code">;
  private readonly redeliveryPasses: Counter<"skipped">;
  private readonly redeliveriesRequested: Counter;
  private readonly storeSeconds: Histogram<"operation" | "outcome">;

  constructor(budget: { store: () => Store | null; policy: BudgetPolicy; now: () => number } | null = null) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.received = new Counter({
      name: `${PREFIX}deliveries_received_total`,
      help: "Signed deliveries taken at /webhook, by GitHub event and the answer given (queued, in_progress, duplicate).",
      labelNames: ["github_event", "answer"],
      registers,
    });
    this.refused = new Counter({
      name: `${PREFIX}webhook_refused_total`,
      help: "Requests to /webhook refused before anything was recorded, by error code.",
      labelNames: ["code"],
      registers,
    });
    this.processed = new Counter({
      name: `${PREFIX}deliveries_processed_total`,
      help: "Deliveries whose work ran in this process, by GitHub event and status (done, duplicate, queued: set aside by a pause).",
      labelNames: ["github_event", "status"],
      registers,
    });
    this.failed = new Counter({
      name: `${PREFIX}deliveries_failed_total`,
      help: "Deliveries whose work failed in this process, by GitHub event and error code.",
      labelNames: ["github_event", "code"],
      registers,
    });
    this.verdicts = new Counter({
      name: `${PREFIX}verdicts_total`,
      help: "Verified checks made for gate runs, by conclusion and error code (empty for none).",
      labelNames: ["conclusion", "code"],
      registers,
    });
    this.redeliveryPasses = new Counter({
      name: `${PREFIX}redelivery_passes_total`,
      help: "Redelivery sweep passes this process ran, by why one did nothing (off, paused, busy; empty: it ran).",
      labelNames: ["skipped"],
      registers,
    });
    this.redeliveriesRequested = new Counter({
      name: `${PREFIX}redeliveries_requested_total`,
      help: "Failed deliveries the redelivery sweep asked GitHub to deliver again.",
      registers,
    });
    this.storeSeconds = new Histogram({
      name: `${PREFIX}store_operation_seconds`,
      help: "Time each store call took, by store method and outcome (ok, error).",
      labelNames: ["operation", "outcome"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    if (budget !== null) {
      let reading: Promise<BudgetRow[] | null> | null = null;
      // One store read per scrape, shared by the gauges below (a scrape collects them at once).
      const rows = (): Promise<BudgetRow[] | null> => {
        reading ??= (async () => {
          const store = budget.store();
          if (store === null) return [];
          try {
            return (await budgetSnapshot(store, budget.policy, budget.now())).scopes;
          } catch {
            return null;
          }
        })().finally(() => (reading = null));
        return reading;
      };
      new Gauge({
        name: `${PREFIX}budget_readable`,
        help: "1 when this scrape read runner B's budgets from the store, 0 when it could not (the budget gauges are then empty).",
        registers,
        async collect() {
          this.set((await rows()) === null ? 0 : 1);
        },
      });
      const gauge = (name: string, help: string, pick: (row: BudgetRow) => number) =>
        new Gauge({
          name: `${PREFIX}${name}`,
          help,
          labelNames: ["scope"],
          registers,
          async collect() {
            const scopes = (await rows()) ?? [];
            this.reset();
            for (const row of scopes) this.set({ scope: row.scope }, pick(row));
          },
        });
      gauge(
        "runner_b_dispatches_used",
        "Runner-B dispatches reserved today (UTC), per installation and repository scope.",
        (r) => r.dispatches_used,
      );
      gauge("runner_b_dispatches_left", "Runner-B dispatches left today under the scope's cap.", (r) => r.dispatches_left);
      gauge("runner_b_minutes_charged", "Runner-B minutes charged today (UTC), per scope.", (r) => r.minutes_charged);
      gauge("runner_b_minutes_left", "Runner-B minutes left today under the scope's cap.", (r) => r.minutes_left);
    }
  }

  deliveryReceived(githubEvent: string, answer: string): void {
    this.received.inc({ github_event: githubEvent, answer });
  }

  webhookRefused(code: string): void {
    this.refused.inc({ code });
  }

  deliveryProcessed(githubEvent: string, status: string): void {
    this.processed.inc({ github_event: githubEvent, status });
  }

  deliveryFailed(githubEvent: string, code: string): void {
    this.failed.inc({ github_event: githubEvent, code });
  }

  redeliveryPass(report: RedeliveryReport | null): void {
    if (report === null) return;
    this.redeliveryPasses.inc({ skipped: report.skipped ?? "" });
    this.redeliveriesRequested.inc(report.requested.length);
  }

  /** The App's log, with the lines that are metrics counted: a gate run's verified check is a verdict. */
  counting(log: Logger): Logger {
    return (level, event, fields = {}) => {
      if (event === "verified_check.run") {
        this.verdicts.inc({ conclusion: String(fields.conclusion ?? ""), code: String(fields.code ?? "") });
      }
      log(level, event, fields);
    };
  }

  /** The store, each of its calls timed (its nested parts, such as `store.budget`, are left as they are). */
  timing<T extends object>(store: T): T {
    const seconds = this.storeSeconds;
    return new Proxy(store, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== "function" || typeof prop !== "string") return value;
        return (...args: unknown[]) => {
          const end = seconds.startTimer({ operation: prop });
          let result: unknown;
          try {
            result = (value as (...a: unknown[]) => unknown).apply(target, args);
          } catch (err) {
            end({ outcome: "error" });
            throw err;
          }
          if (!(result instanceof Promise)) return result;
          return result.then(
            (v) => {
              end({ outcome: "ok" });
              return v;
            },
            (err: unknown) => {
              end({ outcome: "error" });
              throw err;
            },
          );
        };
      },
    });
  }

  /** The text a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

type BudgetRow = Awaited<ReturnType<typeof budgetSnapshot>>["scopes"][number];
