import type { Server } from "node:http";
import { GateError } from "../core/errors.js";
import { AppClient } from "../github/app-client.js";
import { describeStore, openStore, type Store } from "../store/index.js";
import type { AppConfig } from "./config.js";
import { createAppServer, listen } from "./server.js";
import { jsonLogger, systemClock, type Clock, type Logger } from "./context.js";
import { GateAppService } from "./service.js";

export interface RunningApp {
  url: string;
  port: number;
  service: GateAppService;
  store: Store;
  server: Server;
  /** Runs one sweeper pass now (tests drive the clock and call this). */
  sweep: GateAppService["sweep"];
  close(): Promise<void>;
}

/**
 * The kill switch, read from the store before every request to GitHub. A store that cannot
 * be read stops the request too: "could not check" is not "not paused".
 */
export function killSwitchGuard(store: Store): (route: string) => Promise<void> {
  return async (route) => {
    const state = await store.killSwitch();
    if (state.paused) {
      throw new GateError("KILL_SWITCH_ENGAGED", `the App is paused (${state.reason ?? "no reason given"}); ${route} was not sent`, {
        hint: "Resume with: envelope-gate app resume",
      });
    }
  };
}

export async function startApp(
  config: AppConfig,
  options: { clock?: Clock; log?: Logger; sweeper?: boolean; retryAfterMs?: number } = {},
): Promise<RunningApp> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? jsonLogger;
  const store = await openStore(config.store, clock.now());
  const github = new AppClient({
    appId: config.appId,
    privateKey: config.privateKey,
    baseUrl: config.githubApiUrl,
    beforeEachRequest: killSwitchGuard(store),
    retries: config.githubRetries,
    throttle: config.githubThrottle,
    timeoutMs: config.githubTimeoutMs,
    ...(options.retryAfterMs === undefined ? {} : { retryAfterMs: options.retryAfterMs }),
  });
  const service = new GateAppService(store, github, config, clock, log);
  const storeLabel = describeStore(config.store);
  const server = createAppServer({
    service,
    secrets: config.webhookSecrets,
    storeLabel,
    reviewAlertMs: config.reviewAlertMs,
    githubApiUrl: config.githubApiUrl,
    maxConnections: config.maxConnections,
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
  });
  let address;
  try {
    address = await listen(server, config.port, config.host);
  } catch (err) {
    await store.close();
    throw new GateError("CONFIG_INVALID", `cannot listen on ${config.host}:${config.port} (${(err as Error).message})`);
  }
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  if (options.sweeper !== false) {
    timer = setInterval(() => {
      if (sweeping) return;
      sweeping = service
        .sweep()
        .catch((err) =>
          log("error", "sweep.failed", { code: (err as GateError).code ?? "INTERNAL_ERROR", message: (err as Error).message }),
        )
        .finally(() => {
          sweeping = null;
        });
    }, config.sweepIntervalMs);
    timer.unref();
  }
  const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
  log("info", "app.started", { url, store: storeLabel, replica: config.replicaId, production: config.production });
  return {
    url,
    port: address.port,
    service,
    store,
    server,
    sweep: () => service.sweep(),
    async close() {
      if (timer) clearInterval(timer);
      if (sweeping) await sweeping;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}
