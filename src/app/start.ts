import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { Refusal } from "../core/errors.js";
import { AppClient } from "../github/app-client.js";
import { shellRefusal } from "../store/db.js";
import { describeStore, openStore, publicStoreLabel, type Store } from "../store/index.js";
import type { AppConfig } from "./config.js";
import { crashBoundFromEnv, refuseCrashLoop, type CrashBound } from "./crash-loop.js";
import { createAppServer, listen } from "./server.js";
import { AppMetrics } from "./metrics.js";
import { jsonLoggerAt, systemClock, type Clock, type Logger } from "./context.js";
import { AppService } from "./service.js";

export interface RunningApp {
  url: string;
  port: number;
  service: AppService;
  store: Store;
  server: Server;
  /** Runs one sweeper pass now (tests drive the clock and call this). */
  sweep: AppService["sweep"];
  /** Runs one redelivery pass now. */
  redeliver: AppService["redeliverySweep"];
  close(): Promise<void>;
}

/**
 * The kill switch, read from the store before every request to GitHub. A store that cannot
 * be read stops the request too: "could not check" is not "not paused".
 */
function killSwitchGuard(
  store: Store,
  stopping: () => boolean = () => false,
  fenced: () => string | null = () => null,
): (route: string) => Promise<void> {
  return async (route) => {
    if (stopping()) throw new Refusal("APP_DRAINING", `this App process is shutting down; ${route} was not sent`);
    const fence = fenced();
    if (fence !== null) throw new Refusal("PROCESS_FENCED", `${fence}; ${route} was not sent`);
    const state = await store.killSwitch();
    if (state.paused) {
      throw new Refusal("KILL_SWITCH_ENGAGED", `the App is paused (${state.reason ?? "no reason given"}); ${route} was not sent`, {
        hint: "Resume with: envelope-gate app resume",
      });
    }
  };
}

export async function startApp(
  config: AppConfig,
  options: { clock?: Clock; log?: Logger; sweeper?: boolean; retryAfterMs?: number; crashBound?: CrashBound } = {},
): Promise<RunningApp> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? jsonLoggerAt(config.logLevel);
  let opened: Store | null = null;
  const metrics = new AppMetrics({ store: () => opened, policy: config.budget, now: () => clock.now() });
  const store = metrics.timing(await openStore(config.store, clock.now()));
  opened = store;
  store.heartbeatStaleMs = config.heartbeatStaleMs;
  // Claims record this process (replica id and a random incarnation), so a restarted replica's
  // claims from before the restart are known dead at once.
  const owner = `${config.replicaId}/${randomUUID().slice(0, 8)}`;
  try {
    // A replica in a crash loop does not serve (nor register: a refusal is not a crash).
    if (options.crashBound) await refuseCrashLoop(store, config.replicaId, options.crashBound, clock.now());
    await store.registerProcess(owner, config.replicaId, clock.now());
  } catch (err) {
    await store.close();
    throw err;
  }
  let service: AppService | null = null;
  // Fencing: a process that has not refreshed its heartbeat for (stale bound - one period), or
  // finds itself recorded stopped, may already be taken over; it sends nothing to GitHub until
  // a heartbeat succeeds again. Measured on the monotonic clock, so a stalled event loop counts.
  let lastBeat = performance.now();
  let recordedStopped = false;
  const fence = (): string | null => {
    if (recordedStopped) return `this App process (${owner}) is recorded stopped: another process of replica ${config.replicaId} started`;
    const silentMs = performance.now() - lastBeat;
    if (silentMs > config.heartbeatStaleMs - config.heartbeatMs) {
      return `this App process (${owner}) has not refreshed its heartbeat for ${Math.round(silentMs / 1000)} s; its claims may be taken over`;
    }
    return null;
  };
  const github = new AppClient({
    appId: config.appId,
    privateKey: config.privateKey,
    baseUrl: config.githubApiUrl,
    beforeEachRequest: killSwitchGuard(
      store,
      () => service?.stopping === true,
      () => fence(),
    ),
    // A delivery whose GitHub calls fail shows it at once (waiting on GitHub, with the error), not after the retries.
    onAttemptFailed: (route, err) => service?.gitHubAttemptFailed(route, err),
    // Every answer's rate-limit headers, recorded per installation for every replica (docs/app.md, Rate limits).
    onInstallationHeaders: (installationId, headers) => service?.gitHubAnswered(installationId, headers),
    retries: config.githubRetries,
    throttle: config.githubThrottle,
    timeoutMs: config.githubTimeoutMs,
    ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
  });
  service = new AppService(store, github, { ...config, replicaId: owner }, clock, log, metrics);
  const app = service;
  const storeLabel = describeStore(config.store);
  const server = createAppServer({
    service,
    secrets: config.webhookSecrets,
    storeLabel: publicStoreLabel(config.store),
    reviewAlertMs: config.reviewAlertMs,
    githubApiUrl: config.githubApiUrl,
    crashBound: options.crashBound ?? crashBoundFromEnv({}),
    maxConnections: config.maxConnections,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
  });
  let address;
  try {
    address = await listen(server, config.port, config.host);
  } catch (err) {
    // A refusal, not a crash: recorded as a clean stop.
    await store.stopProcess(owner, clock.now()).catch(() => undefined);
    await store.close();
    throw new Refusal("CONFIG_INVALID", `cannot listen on ${config.host}:${config.port} (${(err as Error).message})`);
  }
  const heartbeat = setInterval(() => {
    store
      .heartbeat(owner, clock.now())
      .then((alive) => {
        if (alive) lastBeat = performance.now();
        // An idle process takes up deliveries queued while every worker (of any replica) was busy.
        if (alive) void app.takeUpWaiting();
        else if (!recordedStopped) log("error", "heartbeat.fenced", { owner, replica: config.replicaId });
        recordedStopped = !alive;
      })
      .catch((err) => log("warn", "heartbeat.failed", { code: shellRefusal(err, "write the heartbeat").code }));
  }, config.heartbeatMs);
  heartbeat.unref();
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  let redeliveryTimer: NodeJS.Timeout | null = null;
  let redelivering: Promise<unknown> | null = null;
  if (options.sweeper !== false) {
    timer = setInterval(() => {
      if (sweeping) return;
      sweeping = app
        .sweep()
        .then((report) => log("debug", "sweep.pass", { deliveries: report.deliveries?.length ?? 0, errors: report.errors.length }))
        .catch((err) => log("error", "sweep.failed", refusalFields(shellRefusal(err, "sweep"))))
        .finally(() => {
          sweeping = null;
        });
    }, config.sweepIntervalMs);
    timer.unref();
    redeliveryTimer = setInterval(() => {
      if (redelivering) return;
      redelivering = app
        .redeliverySweep()
        .catch((err) => log("error", "redelivery.failed", refusalFields(shellRefusal(err, "ask GitHub for failed deliveries again"))))
        .finally(() => {
          redelivering = null;
        });
    }, config.redelivery.intervalMs);
    redeliveryTimer.unref();
  }
  const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
  log("info", "app.started", { url, store: storeLabel, replica: config.replicaId, owner, production: config.production });
  return {
    url,
    port: address.port,
    service: app,
    store,
    server,
    sweep: () => app.sweep(),
    redeliver: () => app.redeliverySweep(),
    async close() {
      if (timer) clearInterval(timer);
      if (redeliveryTimer) clearInterval(redeliveryTimer);
      await drain(app, config.drainMs, config.githubTimeoutMs, log);
      if (sweeping) await sweeping;
      if (redelivering) await redelivering;
      clearInterval(heartbeat);
      await recordCleanStop(store, owner, clock, log);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

/** How long a stopping process keeps trying to record its clean stop in a store that does not answer. */
const STOP_RECORD_ATTEMPTS = 5;
const STOP_RECORD_PAUSE_MS = 1000;

/**
 * Records the clean stop, so the crash-loop bound does not count it: a store blip gets a few
 * seconds (within the unit's and Compose's stop timeouts). A stop that could not be recorded
 * is said in the log, since the next start counts it as a crash.
 */
async function recordCleanStop(store: Store, owner: string, clock: Clock, log: Logger): Promise<void> {
  let last: unknown = null;
  for (let attempt = 1; attempt <= STOP_RECORD_ATTEMPTS; attempt++) {
    try {
      await store.stopProcess(owner, clock.now());
      return;
    } catch (err) {
      last = err;
      if (attempt < STOP_RECORD_ATTEMPTS) await new Promise((r) => setTimeout(r, STOP_RECORD_PAUSE_MS));
    }
  }
  log("error", "app.stop_unrecorded", {
    owner,
    code: shellRefusal(last, "record the stop").code,
    message: `this clean stop could not be recorded (${(last as Error)?.message ?? String(last)}); the next start counts it as a crash. If that start is refused (APP_CRASH_LOOP), run envelope-gate app reset-crashes`,
  });
}

/** A refusal's code and message, for a log line. */
function refusalFields(r: Refusal): { code: string; message: string } {
  return { code: r.code, message: r.message };
}

function within(ms: number, work: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Graceful stop: new deliveries are refused (APP_DRAINING); work in flight gets `drainMs` to
 * finish. Past that, requests to GitHub are refused (APP_DRAINING), so the remaining handlers
 * fail at their next request and record their delivery `queued` for the sweeper; a handler
 * still running one request gets that request's deadline (`githubTimeoutMs`) plus a second.
 * Whatever is still held after that is released to `queued` in the store. Nothing unfinished
 * is recorded done.
 */
async function drain(service: AppService, drainMs: number, githubTimeoutMs: number, log: Logger): Promise<void> {
  service.draining = true;
  if (service.inFlightCount() === 0) return;
  log("info", "app.draining", { in_flight: service.inFlightCount(), drain_ms: drainMs });
  if (await within(drainMs, service.settled())) return;
  service.stopping = true;
  const settled = await within(githubTimeoutMs + 1000, service.settled());
  const released = settled
    ? 0
    : await service.store
        .releaseDeliveries(service.owner, "APP_DRAINING", "released unfinished at shutdown", service.clock.now())
        .catch(() => 0);
  log("warn", "app.drained", { finished_in_time: false, released });
}
