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
  status: "done" | "duplicate";
  outcome: string;
}

/**
 * Delivery bookkeeping and routing. Each event's work is a handler over the App context
 * (src/app/handlers/); every effect goes through the installation client, whose guard reads
 * the kill switch.
 */
export class GateAppService {
  lastSweep: { at: number; report: SweepReport } | null = null;
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

  /**
   * Processes one verified delivery. The delivery is recorded done only after its work
   * completed; on any failure it is recorded failed (with the code) and the error is rethrown,
   * so a redelivery is processed again.
   */
  async handleDelivery(deliveryId: string, event: string, payload: unknown): Promise<DeliveryResult> {
    const owner = this.settings.replicaId;
    const claimed = await this.store.claimDelivery(deliveryId, event, owner, this.clock.now(), this.settings.leaseMs);
    if (!claimed) return { status: "duplicate", outcome: "already processed or in progress" };
    let outcome: string;
    try {
      outcome = await this.route(event, payload);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.store.failDelivery(deliveryId, owner, codeOf(err), message, this.clock.now());
      throw err;
    }
    await this.store.finishDelivery(deliveryId, owner, outcome, this.clock.now());
    return { status: "done", outcome };
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
    const report = await sweep(this.ctx);
    this.lastSweep = { at, report };
    return report;
  }
}
