/**
 * GitHub's side of webhook delivery, on the shared fake (test/support/fake-github.ts): a sender
 * that delivers each event once, as GitHub does (never again on its own), waits at most 10 s
 * for the answer and records the attempt as GitHub's delivery log does (status "OK" for a 2xx,
 * anything else failed); and the App's deliveries API, held to @octokit/openapi like every
 * route of the fake: GET /app/hook/deliveries (newest first, cursor pages) and
 * POST /app/hook/deliveries/{delivery_id}/attempts, which redelivers once per request, with the
 * same X-GitHub-Delivery guid, signed with the webhook secret, as a new attempt.
 */
import { randomUUID } from "node:crypto";
import { createPublicKey } from "node:crypto";
import { request } from "node:http";
import { signPayload } from "../../src/app/webhook.js";
import { verifyJwt } from "./fake-github-app.js";
import { HttpError, type FakeGitHub } from "./fake-github.js";

/** An attempt as GitHub lists it (`hook-delivery-item`). */
export interface HookAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: string | null;
}

interface Sent {
  event: string;
  body: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

export interface DeliverOptions {
  guid?: string;
  /** GitHub's clock for this attempt (an old delivery, past what GitHub keeps). */
  deliveredAt?: Date;
  /** Awaited after the headers and the first half of the body are sent (a test kills the App here). */
  midBody?: () => Promise<void>;
}

export interface FakeHooks {
  /** Every attempt, oldest first. */
  readonly attempts: HookAttempt[];
  /** Where deliveries go: the App's /webhook. */
  target: string;
  /** Each redelivery request GitHub accepted: the attempt id asked for. */
  readonly redeliveryRequests: number[];
  /** Delivers an event once; resolves the recorded attempt. */
  deliver(event: string, payload: Record<string, unknown>, options?: DeliverOptions): Promise<HookAttempt>;
  /**
   * Records `count` deliveries GitHub's log shows as delivered ("OK"), without sending them: the
   * volume a redelivery pass lists through (it reads only the log), without thousands of POSTs.
   */
  logDelivered(event: string, count: number, options?: { deliveredAt?: Date }): HookAttempt[];
  /** Resolves when every redelivery GitHub accepted so far has been attempted. */
  settled(): Promise<void>;
  /** The attempts of one delivery. */
  of(guid: string): HookAttempt[];
}

export interface HookOptions {
  appId: string;
  publicKeyPem: string;
  secret: string;
  target: string;
  /** GitHub records a delivery as failed when the answer takes longer (10 s on github.com). */
  timeoutMs?: number;
}

/** GitHub keeps (and redelivers) deliveries for 3 days. */
const KEPT_MS = 3 * 86_400_000;

export function installHookRoutes(fake: FakeGitHub, options: HookOptions): FakeHooks {
  const key = createPublicKey(options.publicKeyPem);
  const bearerOk = (auth: unknown) => verifyJwt(String(auth ?? "").replace(/^Bearer\s+/i, ""), key, options.appId);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const sent = new Map<string, Sent>();
  const pending = new Set<Promise<unknown>>();
  let nextId = 9_000_000;

  const attempt = async (guid: string, redelivery: boolean, deliveredAt: Date, midBody?: () => Promise<void>): Promise<HookAttempt> => {
    const what = sent.get(guid) as Sent;
    const started = performance.now();
    const outcome = await post(hooks.target, what, guid, options.secret, timeoutMs, midBody);
    const item: HookAttempt = {
      id: ++nextId,
      guid,
      delivered_at: deliveredAt.toISOString().replace(/\.\d+Z$/, "Z"),
      redelivery,
      duration: Math.round(performance.now() - started) / 1000,
      status: outcome.status,
      status_code: outcome.code,
      event: what.event,
      action: what.action,
      installation_id: what.installation_id,
      repository_id: what.repository_id,
      throttled_at: null,
    };
    hooks.attempts.push(item);
    return item;
  };

  const hooks: FakeHooks = {
    attempts: [],
    target: options.target,
    redeliveryRequests: [],
    deliver(event, payload, deliverOptions = {}) {
      const guid = deliverOptions.guid ?? randomUUID();
      const p = payload as { action?: unknown; installation?: { id?: unknown }; repository?: { id?: unknown } };
      sent.set(guid, {
        event,
        body: JSON.stringify(payload),
        action: typeof p.action === "string" ? p.action : null,
        installation_id: typeof p.installation?.id === "number" ? p.installation.id : null,
        repository_id: typeof p.repository?.id === "number" ? p.repository.id : null,
      });
      return attempt(guid, false, deliverOptions.deliveredAt ?? new Date(), deliverOptions.midBody);
    },
    logDelivered(event, count, logOptions = {}) {
      const at = (logOptions.deliveredAt ?? new Date()).toISOString().replace(/\.\d+Z$/, "Z");
      const out: HookAttempt[] = [];
      for (let i = 0; i < count; i++) {
        const guid = randomUUID();
        sent.set(guid, { event, body: "{}", action: null, installation_id: null, repository_id: null });
        const item: HookAttempt = {
          id: ++nextId,
          guid,
          delivered_at: at,
          redelivery: false,
          duration: 0.01,
          status: "OK",
          status_code: 202,
          event,
          action: null,
          installation_id: null,
          repository_id: null,
          throttled_at: null,
        };
        hooks.attempts.push(item);
        out.push(item);
      }
      return out;
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    of(guid) {
      return hooks.attempts.filter((a) => a.guid === guid);
    },
  };

  fake.route("GET", "/app/hook/deliveries", (req) => {
    if (!bearerOk(req.headers.authorization)) throw new HttpError(401, "A JSON web token could not be decoded");
    const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30)));
    const newestFirst = [...hooks.attempts].sort((a, b) => b.id - a.id);
    const cursor = req.query.get("cursor");
    const from = cursor === null ? 0 : newestFirst.findIndex((a) => a.id <= Number(cursor.replace(/^v1_/, "")));
    const start = from < 0 ? newestFirst.length : from;
    const page = newestFirst.slice(start, start + perPage);
    const headers: Record<string, string> = {};
    const following = newestFirst[start + perPage];
    if (following) {
      const u = new URL(req.path, req.baseUrl);
      u.searchParams.set("per_page", String(perPage));
      u.searchParams.set("cursor", `v1_${following.id}`);
      headers.link = `<${u.toString()}>; rel="next"`;
    }
    return { status: 200, body: page, headers };
  });

  fake.route("POST", "/app/hook/deliveries/:delivery_id/attempts", (req) => {
    if (!bearerOk(req.headers.authorization)) throw new HttpError(401, "A JSON web token could not be decoded");
    const asked = hooks.attempts.find((a) => a.id === Number(req.params.delivery_id));
    if (!asked) throw new HttpError(404, "Not Found");
    if (Date.now() - Date.parse(asked.delivered_at) > KEPT_MS) throw new HttpError(422, "Validation Failed");
    hooks.redeliveryRequests.push(asked.id);
    // Once per request, after the answer, as GitHub queues it.
    const redelivered = new Promise<void>((resolve) => setImmediate(resolve)).then(() => attempt(asked.guid, true, new Date()));
    pending.add(redelivered);
    void redelivered.finally(() => pending.delete(redelivered));
    return { status: 202, body: {} };
  });

  return hooks;
}

/** One POST as GitHub's hookshot sends it; the answer as its delivery log records it. */
function post(
  target: string,
  what: Sent,
  guid: string,
  secret: string,
  timeoutMs: number,
  midBody?: () => Promise<void>,
): Promise<{ status: string; code: number }> {
  return new Promise((resolve) => {
    const body = Buffer.from(what.body);
    const req = request(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": "GitHub-Hookshot/fake",
        "x-github-event": what.event,
        "x-github-delivery": guid,
        "x-github-hook-installation-target-type": "integration",
        "x-hub-signature-256": signPayload(secret, body),
      },
    });
    let done = false;
    const finish = (status: string, code: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, code });
    };
    const timer = setTimeout(() => {
      finish("timed out", 0);
      req.destroy();
    }, timeoutMs);
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => {
        const code = res.statusCode ?? 0;
        finish(code >= 200 && code < 300 ? "OK" : `Invalid HTTP Response: ${code}`, code);
      });
      res.on("error", () => finish("failed to read the answer", 0));
    });
    req.on("error", () => finish("failed to connect to host", 0));
    if (midBody) {
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      void midBody().then(() => {
        if (!req.destroyed) req.end(body.subarray(half));
      });
    } else {
      req.end(body);
    }
  });
}
