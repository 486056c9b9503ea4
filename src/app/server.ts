import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { httpStatusOf, Refusal } from "../core/errors.js";
import { shellRefusal } from "../store/db.js";
import type { CrashBound } from "./crash-loop.js";
import { checkHealth } from "./health.js";
import type { SecretSource } from "./secrets.js";
import type { AppService } from "./service.js";
import { deliveryStatus, renderStatusHtml, renderStoreDownHtml, STATUS_PAGE_CSP, statusSnapshot } from "./status.js";
import { sendJson, WebhookIntake } from "./webhook.js";

export { signPayload, verifySignature } from "./webhook.js";

export interface ServerOptions {
  service: AppService;
  /** The webhook secrets, read at each verification (one per line, the current first). */
  secrets: SecretSource;
  /** The store as /status and /healthz name it (publicStoreLabel): no file path, host or credential. */
  storeLabel: string;
  reviewAlertMs: number;
  githubApiUrl: string;
  /** The crash-loop bound the status page reports against. */
  crashBound: CrashBound;
  /** Connections accepted at once, and the time a client has for its headers and its whole request. */
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": STATUS_PAGE_CSP,
    "x-content-type-options": "nosniff",
  });
  res.end(html);
}

/**
 * The App's HTTP surface: POST /webhook, GET /healthz, GET /metrics (Prometheus), GET /status
 * (HTML) and /status.json, and GET /status/deliveries/<id>.json (what became of one delivery).
 */
/** A refusal answered with its code's status from the error table (a code outside it does not compile). */
function answerRefusal(res: ServerResponse, refusal: Refusal): void {
  sendJson(res, httpStatusOf(refusal.code), { error: refusal.toJSON() });
}

export function createAppServer(options: ServerOptions): Server {
  const { service } = options;
  const intake = new WebhookIntake(service, options.secrets);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://app.invalid");
    const method = req.method ?? "GET";
    if (method === "POST" && (url.pathname === "/webhook" || url.pathname === "/api/github/webhooks")) {
      return intake.handle(req, res);
    }
    if (method === "GET" && url.pathname === "/metrics") {
      const scraped = await service.metrics.scrape();
      service.log("debug", "metrics.scraped", { bytes: scraped.text.length });
      res.writeHead(200, { "content-type": scraped.contentType, "cache-control": "no-store" });
      res.end(scraped.text);
      return;
    }
    if (method === "GET" && url.pathname === "/healthz") {
      const health = await checkHealth(service.store, service.settings.replicaId, options.storeLabel, service.clock.now());
      return sendJson(res, health.status, health.body);
    }
    if (method === "GET" && (url.pathname === "/status" || url.pathname === "/status.json" || url.pathname === "/")) {
      const now = service.clock.now();
      try {
        const snapshot = await statusSnapshot(service.store, now, {
          storeLabel: options.storeLabel,
          reviewAlertMs: options.reviewAlertMs,
          budget: service.settings.budget,
          crashBound: options.crashBound,
          lastSweep: service.lastSweep,
          githubApiUrl: options.githubApiUrl,
          intake: intake.stats,
        });
        if (url.pathname === "/status.json") return sendJson(res, 200, snapshot);
        return sendHtml(res, 200, renderStatusHtml(snapshot, now));
      } catch (err) {
        const gate = shellRefusal(err, "build the status page");
        if (url.pathname === "/status.json") return sendJson(res, 503, { error: gate.toJSON() });
        return sendHtml(res, 503, renderStoreDownHtml(now, options.storeLabel, gate));
      }
    }
    const one = /^\/status\/deliveries\/([^/]+)\.json$/.exec(url.pathname);
    if (method === "GET" && one) {
      try {
        const line = await deliveryStatus(service.store, decodeURIComponent(one[1] as string), options.githubApiUrl);
        if (line === null) return answerRefusal(res, new Refusal("NOT_FOUND", "no delivery with this id is recorded"));
        return sendJson(res, 200, line);
      } catch (err) {
        const gate = shellRefusal(err, "read the delivery");
        return sendJson(res, 503, { error: gate.toJSON() });
      }
    }
    return answerRefusal(res, new Refusal("NOT_FOUND", `${method} ${url.pathname}`));
  };
  const server = createServer(
    {
      headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
      requestTimeout: options.requestTimeoutMs,
      // How often Node checks those two timeouts (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(options.headersTimeoutMs / 4))),
    },
    (req, res) => {
      handle(req, res).catch((err) => {
        if (!res.headersSent) sendJson(res, 500, { error: new Refusal("INTERNAL_ERROR", String((err as Error)?.message ?? err)).toJSON() });
        else res.destroy();
      });
    },
  );
  server.maxConnections = options.maxConnections;
  return server;
}

export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}
