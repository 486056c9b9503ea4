/**
 * Node's own clients go through the egress proxy with no configuration (docs/egress.md, "Node
 * programs"): a jailed Node program calls `fetch("http://<allowed host>/")`, `http.get` and
 * `https.get` with no agent or dispatcher of its own, and each request reaches the local upstream
 * through the relay and the proxy and is recorded by name; a refused host gets 403 and is
 * recorded `ok: false`. The envelope lists none of the proxy keys: they are in the run under
 * allowlist anyway, and reading them is not a violation.
 *
 * On Node 20 the preload's tunnelling agents and fetch dispatcher do it; on a Node that honours
 * NODE_USE_ENV_PROXY (24.5+, 22.21+) Node does, from the variable the wrapper sets. The suite
 * runs under whichever Node runs vitest (`npm run test:node24` for Node 24).
 *
 * The allowed name resolves, for the wrapper only, to this machine's non-loopback IPv4 address
 * (a private mount namespace with its own /etc/hosts), as in egress-limits.test.ts.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHonoursEnvProxy } from "../../src/observer/preload/proxy.js";
import { CLI, JAIL_AVAILABLE, check, ids, program, runWithHostsFile, sandbox, spawnNode, type Sandbox } from "./harness.js";

const UP = "up.example";
const OTHER = "other.example";

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
if (unavailable !== null) console.warn(`node-proxy.test.ts skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)(`Node's fetch, http and https through the egress proxy (Node ${process.version})`, () => {
  let plain: http.Server;
  let secure: https.Server;
  let plainPort = 0;
  let securePort = 0;
  const seen: string[] = [];

  beforeAll(async () => {
    const s = sandbox();
    const key = join(s.base, "key.pem");
    const cert = join(s.base, "cert.pem");
    const made = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${UP}`, "-keyout", key, "-out", cert],
      {
        encoding: "utf8",
      },
    );
    if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr}`);
    const answer = (scheme: string) => (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(`${scheme} ${req.headers.host ?? ""} ${req.url ?? ""}`);
      res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end(`${scheme}${req.url ?? ""}`);
    };
    plain = http.createServer(answer("http"));
    secure = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, answer("https"));
    await new Promise<void>((resolve) => plain.listen(0, address, resolve));
    await new Promise<void>((resolve) => secure.listen(0, address, resolve));
    plainPort = (plain.address() as { port: number }).port;
    securePort = (secure.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => plain.close(() => resolve()));
    await new Promise<void>((resolve) => secure.close(() => resolve()));
  });

  /** Runs the client under `envelope-gate run`, the wrapper seeing /etc/hosts with UP and OTHER at this machine's address. */
  async function runClient(s: Sandbox, requests: string): Promise<{ code: number | null; stderr: string; out: Record<string, string> }> {
    const outFile = join(s.workspace, "out.json");
    const client = program(
      s,
      "client.js",
      `const http = require("http"); const https = require("https"); const fs = require("fs");
const get = (mod, options) => new Promise((resolve) => {
  mod.get(options, (res) => { let body = ""; res.on("data", (d) => (body += d)); res.on("end", () => resolve(res.statusCode + " " + body)); })
    .on("error", (e) => resolve("error " + (e.statusCode || "") + " " + e.message));
});
const fetched = (url) => fetch(url).then(async (r) => r.status + " " + (await r.text()), (e) => "error " + String(e.cause && (e.cause.message || e.cause.code) || e.message));
(async () => {
  const out = { proxy: String(process.env.HTTPS_PROXY) };
  ${requests}
  fs.writeFileSync(${JSON.stringify(outFile)}, JSON.stringify(out));
  process.exit(0);
})();`,
    );
    const r = await runWithHostsFile(s, `127.0.0.1 localhost\n${address} ${UP} ${OTHER}\n`, [process.execPath, client]);
    let out: Record<string, string> = {};
    try {
      out = JSON.parse(readFileSync(outFile, "utf8")) as Record<string, string>;
    } catch {
      // left empty: the expectations below say what is missing
    }
    return { code: r.code, stderr: r.stderr, out };
  }

  function proxyLines(s: Sandbox): Record<string, unknown>[] {
    return readFileSync(join(s.base, "observer.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.source === "proxy");
  }

  // The proxy keys are not in allowed_env: under allowlist they are the run's anyway.
  const envelope = () => ({ network: "allowlist", allowed_hosts: [UP] });

  it("fetch, http.get and https.get to an allowed host reach it through the proxy, recorded by name, and the check passes", async () => {
    const s = sandbox(envelope());
    const before = seen.length;
    const r = await runClient(
      s,
      `out.fetch = await fetched("http://${UP}:${plainPort}/fetch");
  out.http = await get(http, { host: "${UP}", port: ${plainPort}, path: "/http" });
  out.https = await get(https, { host: "${UP}", port: ${securePort}, path: "/https", rejectUnauthorized: false });`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.out).toEqual({
      proxy: "http://127.0.0.1:3128",
      fetch: "200 http/fetch",
      http: "200 http/http",
      https: "200 https/https",
    });
    expect(seen.slice(before).sort()).toEqual(
      [`http ${UP}:${plainPort} /fetch`, `http ${UP}:${plainPort} /http`, `https ${UP}:${securePort} /https`].sort(),
    );
    const lines = proxyLines(s);
    expect(lines.map((l) => `${String(l.host)}:${String(l.port)}`).sort()).toEqual(
      [`${UP}:${plainPort}`, `${UP}:${plainPort}`, `${UP}:${securePort}`].sort(),
    );
    expect(lines.every((l) => l.ok !== false)).toBe(true);
    const report = await check(s);
    expect(report.error).toBeNull();
    // Reading HTTPS_PROXY (the program did) is not judged under allowlist.
    expect(report.violations).toEqual([]);
    expect(report.verdict).toBe("pass");
  });

  it("a refused host gets 403 from the proxy, is recorded ok: false, and is the check's only violation", async () => {
    const s = sandbox(envelope());
    const before = seen.length;
    const r = await runClient(
      s,
      `out.fetch = await fetched("http://${OTHER}:${plainPort}/fetch");
  out.https = await get(https, { host: "${OTHER}", port: ${securePort}, path: "/https", rejectUnauthorized: false });`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.proxy).toBe("http://127.0.0.1:3128");
    // The client's error says little (Node 24's fetch: "Request was cancelled."); the log says why.
    expect(r.out.fetch).toMatch(/^error /);
    expect(r.out.https).toMatch(/^error /);
    // The preload's tunnels (Node 20) name the proxy's answer.
    if (!nodeHonoursEnvProxy(process.version))
      expect([r.out.fetch, r.out.https]).toEqual([expect.stringMatching(/403/), expect.stringMatching(/403/)]);
    expect(seen.length).toBe(before);
    const lines = proxyLines(s);
    expect(lines).toEqual([
      expect.objectContaining({ kind: "host", host: OTHER, port: plainPort, ok: false }),
      expect.objectContaining({ kind: "host", host: OTHER, port: securePort, ok: false }),
    ]);
    const report = await check(s);
    expect(report.violations.map((v) => v.id).sort()).toEqual(
      [`undeclared_host:${OTHER}:${plainPort}`, `undeclared_host:${OTHER}:${securePort}`].sort(),
    );
  });

  it("a dispatcher the program set itself before its first fetch stays its own (a test's MockAgent keeps working)", async () => {
    const s = sandbox(envelope());
    const r = await runClient(
      s,
      `const key = Symbol.for("undici.globalDispatcher.1");
  const mine = { dispatch() { throw new Error("the program's own dispatcher"); }, close() {}, destroy() {} };
  Object.defineProperty(globalThis, key, { value: mine, writable: true, enumerable: false, configurable: false });
  out.fetch = await fetched("http://${UP}:${plainPort}/mine");
  out.same = String(globalThis[key] === mine);`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.fetch).toBe("error the program's own dispatcher");
    expect(r.out.same).toBe("true");
  });

  it("suggest proposes the name with its port, not the lookup's bare name, not the resolver, not the proxy keys; the pinned envelope passes", async () => {
    const s = sandbox({ network: "allowlist", allowed_hosts: [] });
    const requests = `out.lookup = await new Promise((resolve) => require("dns").lookup("${UP}", (e) => resolve(e ? e.code : "resolved")));
  out.fetch = await fetched("http://${UP}:${plainPort}/fetch");`;
    const first = await runClient(s, requests);
    expect(first.code, first.stderr).toBe(0);
    // The jail resolves nothing; the proxy refused the name (nothing is allowed yet).
    expect(first.out.lookup).not.toBe("resolved");
    expect(first.out.fetch).toMatch(/^error /);
    const log = join(s.base, "observer.jsonl");
    const lines = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // What suggest has to read past: the lookup's portless lines (the hooks' and the jail's resolver's).
    expect(lines).toContainEqual(expect.objectContaining({ kind: "host", host: UP, proto: "dns" }));
    expect(lines).toContainEqual(expect.objectContaining({ kind: "env", key: "HTTPS_PROXY" }));
    const suggested = join(s.base, "suggested.json");
    const r = await spawnNode([CLI, "suggest", "--observer", log, "--from", s.envelope, "--write", suggested]);
    expect(r.code, r.stderr).toBe(0);
    const envelope = JSON.parse(readFileSync(suggested, "utf8")) as { allowed_hosts: string[]; allowed_env: string[]; network: string };
    expect(envelope.network).toBe("allowlist");
    expect(envelope.allowed_hosts).toEqual([`${UP}:${plainPort}`]);
    expect(envelope.allowed_env.filter((k) => /PROXY/i.test(k))).toEqual([]);
    // The jail's resolver is plumbing: no connection to it reaches the log outside the canary.
    expect(lines.filter((l) => l.kind === "host" && l.port === 53 && l.canary !== true)).toEqual([]);

    const pinned = { ...s, envelope: suggested };
    const again = await runClient(pinned, requests);
    // On a failure, the proxy's own account of the request (its recorded reason) says why.
    expect(again.out.fetch, `${again.stderr}\n${JSON.stringify(proxyLines(pinned))}`).toBe("200 http/fetch");
    const report = await check(pinned);
    expect(report.error).toBeNull();
    // The lookup of the name is allowed by its name:port entry (the jail's resolver answered it), the
    // proxy keys are not judged: nothing is left.
    expect(ids(report)).toEqual([]);
  });
});
