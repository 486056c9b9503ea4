import { createHmac, timingSafeEqual, type Hmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Refusal, httpStatusOf, isRefusal, type ErrorCode } from "../core/errors.js";
import { shellRefusal } from "../store/db.js";
import { payloadProblems } from "../core/payload-shape.js";
import { secretLines, type SecretSource } from "./secrets.js";
import { spoolBody } from "./spool.js";
import type { AppService } from "./service.js";

/** GitHub caps webhook payloads at 25 MB. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * X-Hub-Signature-256 check against every accepted secret (current first, then the previous
 * ones during a rotation), in constant time. Only sha256 is accepted.
 */
export function verifySignature(secrets: readonly string[], body: Buffer, header: string | undefined): boolean {
  const macs = secrets.map((s) => createHmac("sha256", s).update(body));
  return signatureMatches(macs, header);
}

function signatureMatches(macs: Hmac[], header: string | undefined): boolean {
  const m = SIGNATURE.exec(header ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1] as string, "hex");
  let ok = false;
  for (const mac of macs) if (timingSafeEqual(mac.digest(), given)) ok = true;
  return ok;
}

export function signPayload(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** What this replica has seen arrive at /webhook (the status page's "are webhooks arriving?"). */
export interface IntakeStats {
  last_request_at: number | null;
  last_accepted_at: number | null;
  refused: Partial<Record<ErrorCode, number>>;
  last_refused: { at: number; code: ErrorCode; message: string; delivery: string | null } | null;
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/**
 * POST /webhook, refusing bad traffic as cheaply as possible: a declared length over 25 MB
 * before reading anything; a missing or malformed signature header, or missing delivery and
 * event headers, before reading the body; the body is streamed into the HMACs, held in memory
 * only up to 1 MiB and on disk past that (spool.ts) until the signature is verified, and only a
 * verified body is parsed, shape-checked and recorded (one store write) before the answer; the
 * work runs outside the request. The secrets are read from their source
 * for each delivery (a file edited to rotate them is used at once); one that cannot be read is
 * 503 SECRET_UNAVAILABLE before the body is read, never an accepted delivery nor a 401.
 * One JSON log line per answer (refused, queued, in_progress, duplicate, unrecorded); the work
 * logs its own outcome (done, failed).
 */
const SECRET_UNAVAILABLE_ANSWER =
  "the App cannot read its webhook secret right now; nothing was recorded. The cause is in the App's log (webhook.refused) and on its status page.";

export class WebhookIntake {
  readonly stats: IntakeStats = { last_request_at: null, last_accepted_at: null, refused: {}, last_refused: null };

  constructor(
    private readonly service: AppService,
    private readonly secrets: SecretSource,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const now = this.service.clock.now();
    this.stats.last_request_at = now;
    const delivery = header(req, "x-github-delivery");
    const event = header(req, "x-github-event");
    this.service.log("debug", "webhook.received", { delivery, github_event: event, content_length: req.headers["content-length"] ?? null });
    const refuse = (code: ErrorCode, message: string, extra: Record<string, unknown> = {}, close = false): void => {
      this.stats.refused[code] = (this.stats.refused[code] ?? 0) + 1;
      this.service.metrics.webhookRefused(code);
      this.stats.last_refused = { at: now, code, message, delivery };
      this.service.log("warn", "webhook.refused", { code, message, delivery, github_event: event });
      // Anyone can reach /webhook unsigned: a secret's file path or its command's error stays in the log.
      const answer = code === "SECRET_UNAVAILABLE" ? { code, message: SECRET_UNAVAILABLE_ANSWER } : { code, message, ...extra };
      sendJson(res, httpStatusOf(code), { error: answer }, close ? { connection: "close" } : {});
      if (close) res.once("finish", () => req.destroy());
    };
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > MAX_BODY_BYTES) {
      return refuse("WEBHOOK_BODY_TOO_LARGE", `Content-Length ${declared} is over GitHub's 25 MB cap; the body was not read`, {}, true);
    }
    const signature = header(req, "x-hub-signature-256");
    if (signature === null || !SIGNATURE.test(signature)) {
      return refuse("WEBHOOK_SIGNATURE_INVALID", "X-Hub-Signature-256 is missing or not sha256=<64 hex>; the body was not read", {}, true);
    }
    if (delivery === null || event === null) {
      return refuse("WEBHOOK_HEADERS_MISSING", "X-GitHub-Delivery and X-GitHub-Event are required; the body was not read", {}, true);
    }
    let secrets: Buffer;
    try {
      secrets = await this.secrets.read();
    } catch (err) {
      const gate = isRefusal(err) ? err : new Refusal("SECRET_UNAVAILABLE", String((err as Error)?.message ?? err));
      return refuse(gate.code, gate.message, gate.hint ? { hint: gate.hint } : {}, true);
    }
    const macs = secretLines(secrets).map((s) => createHmac("sha256", s));
    secrets.fill(0);
    if (macs.length === 0) return refuse("SECRET_UNAVAILABLE", `${this.secrets.origin} holds no webhook secret`, {}, true);
    const spooled = await spoolBody(req, MAX_BODY_BYTES, (chunk) => {
      for (const mac of macs) mac.update(chunk);
    });
    if (spooled === null) {
      return refuse("WEBHOOK_BODY_TOO_LARGE", "the webhook body is over GitHub's 25 MB cap; the rest was not read", {}, true);
    }
    if (!signatureMatches(macs, signature)) {
      await spooled.discard();
      return refuse("WEBHOOK_SIGNATURE_INVALID", "X-Hub-Signature-256 does not match any configured webhook secret");
    }
    const body = await spooled.read();
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return refuse("WEBHOOK_BODY_NOT_JSON", "the webhook body is not JSON");
    }
    const problems = payloadProblems(event, payload);
    if (problems.length > 0) {
      return refuse("WEBHOOK_PAYLOAD_INVALID", `the ${event} payload is not one GitHub sends: ${problems[0]}`, { problems });
    }
    this.stats.last_accepted_at = now;
    try {
      // One store write, then the answer: the work runs outside the request (service.accept).
      const answer = await this.service.accept(delivery, event, payload, body.toString("utf8"));
      this.service.log("info", `delivery.${answer.status}`, { delivery, github_event: event, outcome: answer.outcome });
      this.service.metrics.deliveryReceived(event, answer.status);
      return sendJson(res, answer.status === "duplicate" ? 200 : 202, { delivery, ...answer });
    } catch (err) {
      // Nothing was recorded (the store did not take the write): an honest 503, and the
      // redelivery sweep asks GitHub for this delivery again once the store is back.
      const gate = shellRefusal(err, "record the delivery");
      this.service.log("error", "delivery.unrecorded", {
        delivery,
        github_event: event,
        code: gate.code,
        message: gate.message,
        ...(gate.hint ? { hint: gate.hint } : {}),
      });
      return sendJson(res, httpStatusOf(gate.code), { delivery, error: gate.toJSON() });
    }
  }
}
