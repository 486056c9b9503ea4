import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { GateError, isGateError } from "../core/errors.js";
import type { GateAppService } from "./service.js";
import { renderStatusHtml, statusSnapshot } from "./status.js";

/** GitHub caps webhook payloads at 25 MB. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

/**
 * X-Hub-Signature-256 check against every accepted secret (current first, then the previous
 * ones during a rotation), in constant time. Only sha256 is accepted.
 */
export function verifySignature(secrets: readonly string[], body: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  if (given.length !== 32) return false;
  let ok = false;
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret).update(body).digest();
    if (timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

export function signPayload(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface ServerOptions {
  service: GateAppService;
  secrets: string[];
  storeLabel: string;
  reviewAlertMs: number;
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json; charset=utf-8"): void {
  const payload = typeof body === "string" ? body : JSON.stringify(body);
  const code = (body as { error?: { code?: string } } | null)?.error?.code;
  const retryAfter = code === undefined ? undefined : RETRY_AFTER_S[code];
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    ...(retryAfter ? { "retry-after": String(retryAfter) } : {}),
  });
  res.end(payload);
}

/** Seconds a client should wait before delivering again, for the codes where waiting helps. */
const RETRY_AFTER_S: Record<string, number> = { DELIVERY_IN_PROGRESS: 30, APP_DRAINING: 10 };

function statusForCode(code: string): number {
  if (code === "WEBHOOK_SIGNATURE_INVALID") return 401;
  if (code === "CONFIG_INVALID") return 400;
  if (code === "DELIVERY_IN_PROGRESS") return 409;
  return 503;
}

/**
 * The request body, or CONFIG_INVALID past 25 MB. An oversized body is read to its end and
 * dropped (leaving the loop early would destroy the socket before the answer is sent).
 */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY_BYTES) throw new GateError("CONFIG_INVALID", "webhook body larger than 25 MB");
  return Buffer.concat(chunks);
}

/** The App's HTTP surface: POST /webhook, GET /healthz, GET /status (HTML) and /status.json. */
export function createAppServer(options: ServerOptions): Server {
  const { service } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://app.invalid");
    const method = req.method ?? "GET";
    if (method === "POST" && (url.pathname === "/webhook" || url.pathname === "/api/github/webhooks")) {
      let body: Buffer;
      try {
        body = await readBody(req);
      } catch (err) {
        if (!isGateError(err)) throw err;
        return send(res, statusForCode(err.code), { error: err.toJSON() });
      }
      const signature = req.headers["x-hub-signature-256"];
      if (!verifySignature(options.secrets, body, typeof signature === "string" ? signature : undefined)) {
        service.log("warn", "webhook.signature_invalid", { delivery: req.headers["x-github-delivery"] ?? null });
        return send(res, 401, {
          error: { code: "WEBHOOK_SIGNATURE_INVALID", message: "X-Hub-Signature-256 does not match any configured webhook secret" },
        });
      }
      const delivery = req.headers["x-github-delivery"];
      const event = req.headers["x-github-event"];
      if (typeof delivery !== "string" || delivery === "" || typeof event !== "string" || event === "") {
        return send(res, 400, { error: { code: "CONFIG_INVALID", message: "X-GitHub-Delivery and X-GitHub-Event are required" } });
      }
      let payload: unknown;
      try {
        payload = JSON.parse(body.toString("utf8"));
      } catch {
        return send(res, 400, { error: { code: "CONFIG_INVALID", message: "the webhook body is not JSON" } });
      }
      try {
        const result = await service.handleDelivery(delivery, event, payload, body.toString("utf8"));
        return send(res, result.status === "queued" ? 202 : 200, { delivery, ...result });
      } catch (err) {
        const gate = isGateError(err) ? err : new GateError("INTERNAL_ERROR", (err as Error)?.message ?? String(err));
        service.log("error", "webhook.failed", { delivery, event, code: gate.code, message: gate.message });
        return send(res, statusForCode(gate.code), { delivery, error: gate.toJSON() });
      }
    }
    if (method === "GET" && url.pathname === "/healthz") {
      try {
        await service.store.ping();
        const kill = await service.store.killSwitch();
        return send(res, 200, { ok: true, store: options.storeLabel, paused: kill.paused });
      } catch (err) {
        const gate = isGateError(err) ? err : new GateError("STORE_UNAVAILABLE", String(err));
        return send(res, 503, { ok: false, error: gate.toJSON() });
      }
    }
    if (method === "GET" && (url.pathname === "/status" || url.pathname === "/status.json" || url.pathname === "/")) {
      try {
        const snapshot = await statusSnapshot(service.store, service.clock.now(), {
          storeLabel: options.storeLabel,
          reviewAlertMs: options.reviewAlertMs,
          lastSweep: service.lastSweep,
        });
        if (url.pathname === "/status.json") return send(res, 200, snapshot);
        return send(res, 200, renderStatusHtml(snapshot), "text/html; charset=utf-8");
      } catch (err) {
        const gate = isGateError(err) ? err : new GateError("STORE_UNAVAILABLE", String(err));
        return send(res, 503, { error: gate.toJSON() });
      }
    }
    return send(res, 404, { error: { code: "NOT_FOUND", message: `${method} ${url.pathname}` } });
  };
  return createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { error: { code: "INTERNAL_ERROR", message: String((err as Error)?.message ?? err) } });
      else res.destroy();
    });
  });
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
