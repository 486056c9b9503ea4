/**
 * What the SNI check does not stop (docs/egress.md, "What the TLS name check stops, and what it
 * does not"), shown as it really is so the page cannot drift from the code: the proxy reads the
 * first ClientHello's server_name and nothing after it. A real TLS session through a real run
 * (jail, relay, proxy) whose SNI is the allowed name passes, and the request inside it names
 * another host in its Host header; the log holds only the allowed name and the check passes.
 * Its twin, the same session with the other name as SNI, is refused, and the refused name is
 * recorded beside the allowed one and judged (undeclared_host).
 *
 * The allowed name must resolve to an address of this machine that is not loopback (the proxy
 * refuses names that lead only to loopback): the wrapper runs in a private mount namespace with
 * its own /etc/hosts naming this machine's non-loopback IPv4 address.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JAIL_AVAILABLE, check, program, runWithHostsFile, sandbox, type Sandbox } from "./harness.js";

const FRONT = "front.example";
const HIDDEN = "hidden.example";

const address = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address;
const hasOpenssl = spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;
const canUnshare = spawnSync("unshare", ["-m", "--propagation", "private", "true"], { stdio: "ignore" }).status === 0;
const unavailable = !JAIL_AVAILABLE
  ? "no bubblewrap jail"
  : address === undefined
    ? "no non-loopback IPv4 address on this machine"
    : !hasOpenssl
      ? "no openssl to make the test server's certificate"
      : !canUnshare
        ? "unshare -m is not permitted (a private /etc/hosts for the wrapper)"
        : null;
if (unavailable !== null) console.warn(`egress-limits.test.ts skipped: ${unavailable}`);

interface Seen {
  sni: string | false | null;
  request: string;
}

describe.skipIf(unavailable !== null)("egress under allowlist: what the SNI check does not stop", () => {
  let server: tls.Server;
  let port = 0;
  const seen: Seen[] = [];

  beforeAll(async () => {
    const s = sandbox();
    const key = join(s.base, "key.pem");
    const cert = join(s.base, "cert.pem");
    const made = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${FRONT}`, "-keyout", key, "-out", cert],
      {
        encoding: "utf8",
      },
    );
    if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr}`);
    // A TLS server that answers for any name: a CDN edge, as far as the proxy can tell.
    server = tls.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (socket) => {
      let request = "";
      socket.on("data", (d: Buffer) => {
        request += d.toString("latin1");
        if (!request.includes("\r\n\r\n")) return;
        seen.push({ sni: socket.servername, request });
        socket.end("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nbehind");
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs CLIENT under `envelope-gate run`, the wrapper seeing /etc/hosts with FRONT and HIDDEN at this machine's address. */
  async function runWithHosts(s: Sandbox, sni: string): Promise<{ code: number | null; stderr: string; outcome: string }> {
    const outcome = join(s.workspace, "outcome.txt");
    // CONNECT to the allowed name, then a real TLS session with SNI `sni`, and inside it a request for the other host.
    const client = program(
      s,
      "front.js",
      `const net = require("net"); const tls = require("tls"); const fs = require("fs");
const proxy = new URL(process.env.HTTPS_PROXY);
const done = (text) => { fs.writeFileSync(${JSON.stringify(outcome)}, text); process.exit(0); };
const raw = net.connect(Number(proxy.port), proxy.hostname, () => raw.write("CONNECT ${FRONT}:${port} HTTP/1.1\\r\\nHost: ${FRONT}:${port}\\r\\n\\r\\n"));
raw.once("data", (head) => {
  if (!/^HTTP\\/1\\.1 200/.test(String(head))) return done("connect: " + String(head).split("\\r\\n")[0]);
  const t = tls.connect({ socket: raw, servername: ${JSON.stringify(sni)}, rejectUnauthorized: false }, () =>
    t.write("GET /behind HTTP/1.1\\r\\nHost: ${HIDDEN}\\r\\nConnection: close\\r\\n\\r\\n"));
  let body = "";
  t.on("data", (d) => (body += d));
  t.on("end", () => done("answer: " + body.split("\\r\\n\\r\\n")[1]));
  t.on("error", (e) => done("tls: " + (e.code || e.message)));
  t.on("close", () => done("closed: " + body));
});
raw.on("error", (e) => done("proxy: " + e.code));`,
    );
    const r = await runWithHostsFile(s, `127.0.0.1 localhost\n${address} ${FRONT} ${HIDDEN}\n`, ["node", client]);
    return { code: r.code, stderr: r.stderr, outcome: readFileSync(outcome, "utf8") };
  }

  const envelope = () => ({
    network: "allowlist",
    allowed_hosts: [FRONT],
    allowed_env: ["PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH", "HTTPS_PROXY"],
  });

  it("a TLS session whose SNI is the allowed name passes whatever it carries: a Host header for another host reaches the server, and the check passes", async () => {
    const s = sandbox(envelope());
    const r = await runWithHosts(s, FRONT);
    expect(r.code, r.stderr).toBe(0);
    expect(r.outcome).toBe("answer: behind");
    expect(seen.at(-1)).toEqual({ sni: FRONT, request: expect.stringContaining(`\r\nHost: ${HIDDEN}\r\n`) as string });
    const report = await check(s);
    expect(report.error).toBeNull();
    expect(report.verdict).toBe("pass");
    // The log knows the tunnel's name only: the Host inside TLS is not in it.
    const log = readFileSync(join(s.base, "observer.jsonl"), "utf8");
    expect(log).toContain(`"host":"${FRONT}"`);
    expect(log).not.toContain(HIDDEN);
  });

  it("the twin: the same session with the other host as its SNI is refused before a byte of it reaches the server", async () => {
    const s = sandbox(envelope());
    const before = seen.length;
    const r = await runWithHosts(s, HIDDEN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.outcome).not.toContain("behind");
    expect(seen.length).toBe(before);
    // Refused, and judged: the refused SNI is an attempt on that host, beside the CONNECT host's line.
    const report = await check(s);
    expect(report.verdict).toBe("envelope_fail");
    expect(report.violations.map((v) => v.id)).toEqual([`undeclared_host:${HIDDEN}:${port}`]);
    const lines = readFileSync(join(s.base, "observer.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.source === "proxy")).toEqual([
      expect.objectContaining({ kind: "host", host: FRONT, port, ok: false }),
      expect.objectContaining({ kind: "host", host: HIDDEN, port, ok: false }),
    ]);
  });
});
