import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import { signPayload } from "../../src/app/server.js";
import { SPOOL_MEMORY_BYTES, spoolDirectory, spoolStats } from "../../src/app/spool.js";
import { MAX_BODY_BYTES } from "../../src/app/webhook.js";
import { installationRef } from "../support/webhooks.js";
import { REPO, SECRET, startTestApp, startWorld, TestClock, type World, settledState } from "./helpers.js";

interface RawAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A POST to /webhook by hand: `write` sends as much of the body as it likes and may leave the
 * request unfinished, so a test can see the App answer before a body was (fully) sent.
 */
function rawPost(
  appUrl: string,
  headers: Record<string, string | number>,
  write: (req: ReturnType<typeof request>) => void,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${appUrl}/webhook`, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
        req.destroy();
      });
    });
    // The App closing the connection under a body still being written is expected here.
    req.on("error", (err) => {
      if (!/EPIPE|ECONNRESET|socket hang up/.test(String(err))) reject(err);
    });
    write(req);
  });
}

function signedHeaders(body: Buffer | string, extra: Record<string, string> = {}): Record<string, string | number> {
  return {
    "content-type": "application/json",
    "x-github-event": "ping",
    "x-github-delivery": randomUUID(),
    "x-hub-signature-256": signPayload(SECRET, body),
    ...extra,
  };
}

const codeOf = (a: RawAnswer) => (a.body.error as { code: string }).code;

/** Raw bytes on a TCP connection, resolving with everything the App wrote before it closed. */
function rawSocket(appUrl: string, send: string): Promise<string> {
  const { hostname, port } = new URL(appUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(send));
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(text));
  });
}

describe("cheap refusal of bad traffic", () => {
  let world: World;
  let app: RunningApp;
  beforeEach(async () => {
    world = await startWorld();
    app = await startTestApp(world.fake, new TestClock(), { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  it("a Content-Length over 25 MB is refused with 413 WEBHOOK_BODY_TOO_LARGE before any of the body is sent", async () => {
    // Headers only: the body never comes.
    const answer = await rawPost(app.url, { ...signedHeaders("{}"), "content-length": MAX_BODY_BYTES + 1 }, (req) => req.flushHeaders());
    expect(answer.status).toBe(413);
    expect(codeOf(answer)).toBe("WEBHOOK_BODY_TOO_LARGE");
    expect(await app.store.deliveryCounts()).toEqual([]);
  });

  it("a chunked body passing 25 MB is refused with 413 once it passes the cap, and nothing is recorded", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const headers = { ...signedHeaders("whatever"), "transfer-encoding": "chunked" };
    const answer = await rawPost(app.url, headers, (req) => {
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_BODY_BYTES + chunk.length && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(codeOf(answer)).toBe("WEBHOOK_BODY_TOO_LARGE");
    expect(await app.store.deliveryCounts()).toEqual([]);
  });

  it("an unsigned request is refused with 401 before its body is read (the body is never finished)", async () => {
    const answer = await rawPost(
      app.url,
      { "content-type": "application/json", "x-github-event": "ping", "x-github-delivery": "unsigned-1", "content-length": 1000 },
      (req) => req.write('{"zen":'),
    );
    expect(answer.status).toBe(401);
    expect(codeOf(answer)).toBe("WEBHOOK_SIGNATURE_INVALID");
    expect(await app.store.getDelivery("unsigned-1")).toBeNull();
  });

  it("a request whose headers never finish is answered 408 and closed (headersTimeout)", async () => {
    const text = await rawSocket(app.url, "POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: ping\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a body that never finishes is answered 408 and closed (requestTimeout), and nothing is recorded", async () => {
    const body = '{"zen":"never finished"}';
    const head = Object.entries({ ...signedHeaders(body, { "x-github-delivery": "slow-1" }), "content-length": 1000 })
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n");
    const text = await rawSocket(app.url, `POST /webhook HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n${body}`);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(await app.store.getDelivery("slow-1")).toBeNull();
  });
});

describe("bounded connections", () => {
  it("past ENVELOPE_GATE_MAX_CONNECTIONS a new connection is dropped unanswered", async () => {
    const world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock(), { maxConnections: 2 });
    const { hostname, port } = new URL(app.url);
    const held = [connect(Number(port), hostname), connect(Number(port), hostname)];
    try {
      await Promise.all(held.map((s) => new Promise((r) => s.once("connect", r))));
      // Both held connections are open on the server once one of them has been answered.
      held[0]!.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      await new Promise((r) => held[0]!.once("data", r));
      const third = await rawSocket(app.url, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(third).toBe("");
    } finally {
      for (const s of held) s.destroy();
      await app.close();
      await world.close();
    }
  });
});

describe("one code per cause: requests", () => {
  let world: World;
  let app: RunningApp;
  beforeEach(async () => {
    world = await startWorld();
    app = await startTestApp(world.fake, new TestClock());
  });
  afterEach(async () => {
    await app.close();
    await world.close();
  });

  const post = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(`${app.url}/webhook`, { method: "POST", headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("a signed delivery without X-GitHub-Delivery or X-GitHub-Event is 400 WEBHOOK_HEADERS_MISSING", async () => {
    const body = '{"zen":"x"}';
    const headers = signedHeaders(body) as Record<string, string>;
    for (const drop of ["x-github-delivery", "x-github-event"]) {
      const { [drop]: _dropped, ...rest } = headers;
      const res = await post(body, rest);
      expect(res.status, drop).toBe(400);
      expect(codeOf(res)).toBe("WEBHOOK_HEADERS_MISSING");
    }
    expect(await app.store.deliveryCounts()).toEqual([]);
  });

  it("a signed body that is not JSON is 400 WEBHOOK_BODY_NOT_JSON", async () => {
    const body = "zen=not-json";
    const res = await post(body, signedHeaders(body, { "x-github-delivery": "nojson-1" }) as Record<string, string>);
    expect(res.status).toBe(400);
    expect(codeOf(res)).toBe("WEBHOOK_BODY_NOT_JSON");
    expect(await app.store.getDelivery("nojson-1")).toBeNull();
  });

  it("signed payloads GitHub could not send are 400 WEBHOOK_PAYLOAD_INVALID, naming the field, and nothing is stored", async () => {
    const cases: [string, unknown, RegExp][] = [
      ["ping", null, /payload must be an object, got null/],
      [
        "workflow_run",
        { action: "completed", installation: { id: "77" }, repository: { full_name: REPO } },
        /installation\.id must be a positive integer/,
      ],
      [
        "workflow_run",
        { action: "completed", installation: installationRef(77), repository: { full_name: REPO }, workflow_run: { id: 1.5 } },
        /workflow_run\.id/,
      ],
      ["push", { ref: "refs/heads/main", after: "abc", installation: installationRef(77) }, /repository is missing/],
      ["pull_request", { action: "closed", repository: { full_name: "no-slash" }, pull_request: {} }, /full_name must be "owner\/name"/],
      ["installation", { action: "created", installation: { id: -1 } }, /installation\.id/],
    ];
    for (const [i, [event, payload, why]] of cases.entries()) {
      const body = JSON.stringify(payload);
      const res = await post(
        body,
        signedHeaders(body, { "x-github-event": event, "x-github-delivery": `shape-${i}` }) as Record<string, string>,
      );
      expect(res.status, body).toBe(400);
      expect(codeOf(res)).toBe("WEBHOOK_PAYLOAD_INVALID");
      expect((res.body.error as { message: string }).message).toMatch(why);
      expect(await app.store.getDelivery(`shape-${i}`)).toBeNull();
    }
    expect(await app.store.listInstallations()).toEqual([]);
  });

  it("an unknown path is 404 NOT_FOUND", async () => {
    const res = await fetch(`${app.url}/nope`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});

describe("a large body is held on disk, not in memory, until its signature is verified", () => {
  it("over 1 MiB: a forged one is refused 401 and its file removed; a signed one is processed", async () => {
    const world = await startWorld();
    const app = await startTestApp(world.fake, new TestClock());
    try {
      const body = JSON.stringify({ zen: "z".repeat(SPOOL_MEMORY_BYTES * 3), hook_id: 1 });
      const spooledBefore = spoolStats.files;
      const forged = await rawPost(app.url, signedHeaders(body, { "x-hub-signature-256": signPayload("forged-secret", body) }), (req) =>
        req.end(body),
      );
      expect(forged.status).toBe(401);
      expect(codeOf(forged)).toBe("WEBHOOK_SIGNATURE_INVALID");
      // The body went to the spool directory (it was over the memory bound) and is gone again.
      expect(spoolStats.files).toBe(spooledBefore + 1);
      expect(readdirSync(spoolDirectory())).toEqual([]);
      const signed = await rawPost(app.url, signedHeaders(body, { "x-github-delivery": "big-1" }), (req) => req.end(body));
      expect(signed.status).toBe(202);
      expect(signed.body).toMatchObject({ status: "queued" });
      expect(await settledState(app.url, "big-1")).toMatchObject({ state: "done", outcome: "pong" });
      expect(spoolStats.files).toBe(spooledBefore + 2);
      expect(readdirSync(spoolDirectory())).toEqual([]);
    } finally {
      await app.close();
      await world.close();
    }
  });
});
