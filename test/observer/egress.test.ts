/**
 * The egress proxy and relay (docs/egress.md), with real sockets and real processes: upstream
 * servers on 127.0.0.1, the proxy on a unix socket in a temporary directory, and the relay in a
 * real fresh network namespace. Nothing leaves loopback. The relay tests need dist/relay
 * (`node scripts/build.mjs`; `npm test` builds first).
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROXY_ENV_KEYS } from "../../src/core/rules.js";
import {
  CLIENT_HELLO_LIMIT,
  HEAD_LIMIT,
  parseAuthority,
  peekClientHello,
  proxyEnv,
  startEgressProxy,
  type EgressProxy,
  type EgressRecord,
} from "../../src/observer/egress.js";

const ROOT = resolve(import.meta.dirname, "../..");
const RELAY = join(ROOT, "dist/relay/index.js");
if (!existsSync(RELAY)) throw new Error("dist/relay is not built: run `node scripts/build.mjs` first");

// ---------------------------------------------------------------------------------------------
// Helpers

const u16 = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
const u24 = (n: number): Buffer => Buffer.from([n >> 16, (n >> 8) & 0xff, n & 0xff]);

/** A minimal TLS 1.3 ClientHello, optionally with an SNI, cut into handshake records of `fragment` bytes. */
function clientHello(serverName: string | null, fragment = 16384): Buffer {
  const extensions: Buffer[] = [];
  if (serverName !== null) {
    const name = Buffer.from(serverName, "latin1");
    const entry = Buffer.concat([Buffer.from([0]), u16(name.length), name]);
    const list = Buffer.concat([u16(entry.length), entry]);
    extensions.push(Buffer.concat([u16(0), u16(list.length), list]));
  }
  extensions.push(Buffer.concat([u16(43), u16(3), Buffer.from([2, 3, 4])])); // supported_versions: TLS 1.3
  const ext = Buffer.concat(extensions);
  const body = Buffer.concat([
    Buffer.from([3, 3]),
    Buffer.alloc(32, 7),
    Buffer.from([0]),
    u16(2),
    Buffer.from([0x13, 0x01]),
    Buffer.from([1, 0]),
    u16(ext.length),
    ext,
  ]);
  const handshake = Buffer.concat([Buffer.from([1]), u24(body.length), body]);
  const records: Buffer[] = [];
  for (let i = 0; i < handshake.length; i += fragment) {
    const part = handshake.subarray(i, i + fragment);
    records.push(Buffer.concat([Buffer.from([0x16, 3, 1]), u16(part.length), part]));
  }
  return Buffer.concat(records);
}

/** A socket whose incoming bytes are collected, with waits on them. */
class Conn {
  data = Buffer.alloc(0);
  closed = false;
  private wake: (() => void)[] = [];

  constructor(readonly socket: net.Socket) {
    socket.on("data", (d: Buffer) => {
      this.data = Buffer.concat([this.data, d]);
      this.notify();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.closed = true;
      this.notify();
    });
  }

  static async open(path: string): Promise<Conn> {
    const socket = net.connect(path);
    await once(socket, "connect");
    return new Conn(socket);
  }

  get text(): string {
    return this.data.toString("latin1");
  }

  private notify(): void {
    for (const w of this.wake.splice(0)) w();
  }

  async until(test: () => boolean, what: string, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.text.slice(0, 300))}`);
      await new Promise<void>((r) => {
        this.wake.push(r);
        setTimeout(r, 50);
      });
    }
  }

  untilText(s: string): Promise<void> {
    return this.until(() => this.text.includes(s), JSON.stringify(s));
  }

  untilClosed(): Promise<void> {
    return this.until(() => this.closed, "close");
  }
}

/** Opens a CONNECT tunnel through the proxy; resolves after the response head. */
async function connectThrough(socketPath: string, target: string): Promise<{ conn: Conn; status: number }> {
  const conn = await Conn.open(socketPath);
  conn.socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  await conn.until(() => conn.text.includes("\r\n\r\n") || conn.closed, "a response head");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(conn.text)?.[1] ?? 0);
  conn.data = conn.data.subarray(conn.data.indexOf("\r\n\r\n") + 4);
  return { conn, status };
}

interface HttpUpstream {
  port: number;
  connections: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  server: http.Server;
}

/** An HTTP server on 127.0.0.1 that echoes each request as JSON and sends hop-by-hop headers of its own. */
async function httpUpstream(): Promise<HttpUpstream> {
  const u: HttpUpstream = { port: 0, connections: 0, requests: [], server: http.createServer() };
  u.server.on("connection", () => u.connections++);
  u.server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      u.requests.push(seen);
      res.writeHead(200, {
        "content-type": "application/json",
        "keep-alive": "timeout=5",
        connection: "x-resp-hop",
        "x-resp-hop": "1",
        "x-resp-keep": "1",
      });
      res.end(JSON.stringify(seen));
    });
  });
  u.server.listen(0, "127.0.0.1");
  await once(u.server, "listening");
  u.port = (u.server.address() as net.AddressInfo).port;
  return u;
}

interface TcpSink {
  port: number;
  connections: number;
  received: Buffer;
  server: net.Server;
}

/** A TCP server on 127.0.0.1 that says "hello\n" first, then echoes and keeps every byte it got. */
async function tcpSink(): Promise<TcpSink> {
  const s: TcpSink = { port: 0, connections: 0, received: Buffer.alloc(0), server: net.createServer() };
  s.server.on("connection", (socket: net.Socket) => {
    s.connections++;
    socket.on("error", () => {});
    socket.write("hello\n");
    socket.on("data", (d: Buffer) => {
      s.received = Buffer.concat([s.received, d]);
      socket.write(d);
    });
  });
  s.server.listen(0, "127.0.0.1");
  await once(s.server, "listening");
  s.port = (s.server.address() as net.AddressInfo).port;
  return s;
}

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, "127.0.0.1");
  await once(s, "listening");
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, onStdout?: (text: string, pid: number) => void): Promise<Ran> {
  return new Promise((done, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      onStdout?.(stdout, child.pid as number);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

async function waitFor(test: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const CLEAN_ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

// ---------------------------------------------------------------------------------------------
// Per test: a proxy on a unix socket in a private directory, and a policy the test sets.

let dir: string;
let socketPath: string;
let proxy: EgressProxy;
let records: EgressRecord[];
let policy: (host: string, port: number) => boolean;
const servers: net.Server[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "eg-egress-"));
  chmodSync(dir, 0o700);
  socketPath = join(dir, "egress.sock");
  records = [];
  policy = (host) => host === "127.0.0.1";
  proxy = await startEgressProxy({ socketPath, allowed: (h, p) => policy(h, p), record: (e) => records.push(e) });
});

afterEach(async () => {
  await proxy.close();
  for (const s of servers.splice(0)) {
    if (s instanceof http.Server) s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

async function upstreamHttp(): Promise<HttpUpstream> {
  const u = await httpUpstream();
  servers.push(u.server);
  return u;
}

async function upstreamTcp(): Promise<TcpSink> {
  const s = await tcpSink();
  servers.push(s.server);
  return s;
}

// ---------------------------------------------------------------------------------------------

describe("egress proxy: CONNECT", () => {
  it("(a) tunnels bytes both ways to an allowed host and records it once, with the address", async () => {
    const sink = await upstreamTcp();
    const { conn, status } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`);
    expect(status).toBe(200);
    await conn.untilText("hello\n"); // the server speaks first: its bytes flow before the client's
    conn.socket.write("ping\n");
    await conn.untilText("hello\nping\n");
    expect(sink.received.toString()).toBe("ping\n");
    expect(records).toEqual([{ host: "127.0.0.1", port: sink.port, proto: "connect", allowed: true, address: "127.0.0.1" }]);
    conn.socket.destroy();
  });

  it("(b) refuses a host the policy refuses with 403, connects nothing, and records allowed:false", async () => {
    const denied = await upstreamTcp();
    policy = (host, port) => host === "127.0.0.1" && port !== denied.port;
    const { conn, status } = await connectThrough(socketPath, `127.0.0.1:${denied.port}`);
    expect(status).toBe(403);
    expect(conn.text).toContain(`127.0.0.1:${denied.port}`);
    await conn.untilClosed();
    const named = await connectThrough(socketPath, "Refused.Example.INVALID.:443");
    expect(named.status).toBe(403);
    expect(named.conn.text).toContain("refused.example.invalid:443");
    expect(records).toEqual([
      { host: "127.0.0.1", port: denied.port, proto: "connect", allowed: false, reason: "host not allowed" },
      { host: "refused.example.invalid", port: 443, proto: "connect", allowed: false, reason: "host not allowed" },
    ]);
    await new Promise((r) => setTimeout(r, 50));
    expect(denied.connections).toBe(0);
  });

  it("refuses a name that resolves only to loopback (a name is not a way to this host's own services)", async () => {
    const sink = await upstreamTcp();
    policy = () => true;
    const { status } = await connectThrough(socketPath, `localhost:${sink.port}`);
    expect(status).toBe(403);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ host: "localhost", port: sink.port, allowed: false });
    expect(records[0]?.reason).toMatch(/loopback/);
    expect(sink.connections).toBe(0);
  });

  it("answers 502 when the allowed upstream refuses the connection", async () => {
    const port = await freePort();
    const { status, conn } = await connectThrough(socketPath, `127.0.0.1:${port}`);
    expect(status).toBe(502);
    await conn.untilClosed();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ host: "127.0.0.1", port, proto: "connect", allowed: true });
    expect(records[0]?.address).toBeUndefined();
    expect(records[0]?.reason).toMatch(/^upstream: .*ECONNREFUSED/);
  });

  it("answers 400 to a malformed CONNECT target and records nothing", async () => {
    for (const target of ["127.0.0.1", "a:b:c", "127.0.0.1:0", "[evil.example]:443", "ev!l.example:443"]) {
      const { status } = await connectThrough(socketPath, target);
      expect(status, target).toBe(400);
    }
    expect(records).toEqual([]);
  });

  it("close() destroys open tunnels and records what was still undecided", async () => {
    const sink = await upstreamTcp();
    const { conn } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`);
    await conn.untilText("hello\n");
    await waitFor(() => sink.connections === 1, "the upstream connection");
    await proxy.close();
    await conn.untilClosed();
    expect(records).toEqual([{ host: "127.0.0.1", port: sink.port, proto: "connect", allowed: true, address: "127.0.0.1" }]);
    await expect(Conn.open(socketPath)).rejects.toThrow();
  });
});

describe("egress proxy: the TLS name inside a tunnel", () => {
  it("(d) refuses a ClientHello whose SNI is not the CONNECT host; not one byte of it reaches the upstream", async () => {
    const sink = await upstreamTcp();
    const { conn, status } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`);
    expect(status).toBe(200);
    const hello = clientHello("Evil.Example");
    conn.socket.write(hello.subarray(0, 20)); // in two writes: the proxy waits for the whole ClientHello
    await new Promise((r) => setTimeout(r, 50));
    conn.socket.write(hello.subarray(20));
    await conn.untilClosed();
    expect(records).toEqual([
      {
        host: "127.0.0.1",
        port: sink.port,
        proto: "connect",
        allowed: false,
        address: "127.0.0.1",
        reason: "sni mismatch",
        sni: "evil.example",
      },
    ]);
    expect(sink.received.length).toBe(0);
  });

  it("passes a ClientHello whose SNI is the CONNECT host, or that has none, byte for byte", async () => {
    const sink = await upstreamTcp();
    for (const name of ["127.0.0.1", null]) {
      const { conn } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`);
      const hello = clientHello(name, 37);
      conn.socket.write(Buffer.concat([hello, Buffer.from("after")]));
      await conn.untilText("after");
      conn.socket.destroy();
      expect(sink.received.equals(Buffer.concat([hello, Buffer.from("after")]))).toBe(true);
      sink.received = Buffer.alloc(0);
    }
    expect(records.map((r) => [r.allowed, r.sni])).toEqual([
      [true, "127.0.0.1"],
      [true, undefined],
    ]);
  });

  it("refuses a malformed ClientHello and one over the limit", async () => {
    const sink = await upstreamTcp();
    const bad = clientHello("127.0.0.1");
    bad.writeUInt16BE(0xffff, bad.length - 5); // the supported_versions length points past the end
    let { conn } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`);
    conn.socket.write(bad);
    await conn.untilClosed();
    ({ conn } = await connectThrough(socketPath, `127.0.0.1:${sink.port}`));
    const huge = Buffer.concat([Buffer.from([0x16, 3, 1]), u16(16384), Buffer.from([1]), u24(0xffff)]);
    conn.socket.write(huge);
    await conn.untilClosed();
    expect(records.map((r) => [r.allowed, r.reason])).toEqual([
      [false, "malformed client hello: truncated extension"],
      [false, "malformed client hello: ClientHello longer than the limit"],
    ]);
    expect(sink.received.length).toBe(0);
  });

  it("peekClientHello: every prefix is incomplete, fragments reassemble, other protocols pass", () => {
    const hello = clientHello("api.example.com");
    for (let n = 0; n < hello.length; n++) expect(peekClientHello(hello.subarray(0, n)).kind).toBe("incomplete");
    expect(peekClientHello(hello)).toEqual({ kind: "hello", serverName: "api.example.com" });
    expect(peekClientHello(clientHello("api.example.com", 5))).toEqual({ kind: "hello", serverName: "api.example.com" });
    expect(peekClientHello(clientHello(null))).toEqual({ kind: "hello", serverName: null });
    expect(peekClientHello(Buffer.from("GET / HTTP/1.1\r\n"))).toEqual({ kind: "not-tls" });
    expect(peekClientHello(Buffer.from("SSH-2.0-OpenSSH\r\n"))).toEqual({ kind: "not-tls" });
    expect(peekClientHello(Buffer.from([0x16, 3, 1, 0, 0])).kind).toBe("malformed");
    expect(peekClientHello(Buffer.from([0x16, 3, 1, 0x40, 0x01])).kind).toBe("malformed"); // 16385-byte record
    // A ClientHello that declares 256 bytes, cut off by an alert record.
    expect(peekClientHello(Buffer.from([0x16, 3, 1, 0, 4, 1, 0, 1, 0, 0x15, 3, 3, 0, 2, 2, 40])).kind).toBe("malformed");
    expect(peekClientHello(clientHello("bad name")).kind).toBe("malformed");
    expect(CLIENT_HELLO_LIMIT).toBeGreaterThanOrEqual(16384);
  });

  it("parseAuthority normalises hosts and rejects what is not host:port", () => {
    expect(parseAuthority("Example.COM.:443")).toEqual({ host: "example.com", port: 443 });
    expect(parseAuthority("[::1]:8080")).toEqual({ host: "::1", port: 8080 });
    for (const bad of ["::1:443", "[::1]", "example.com", "example.com:65536", "example.com:x", "[fe80::1%eth0]:1", "a b:1"])
      expect(parseAuthority(bad), bad).toBeNull();
  });
});

describe("egress proxy: absolute-form requests", () => {
  it("(c) forwards a GET without hop-by-hop headers or Proxy-Authorization, both ways", async () => {
    const up = await upstreamHttp();
    const res = await new Promise<http.IncomingMessage>((done, reject) => {
      const req = http.request({
        socketPath,
        path: `http://127.0.0.1:${up.port}/echo?q=1`,
        headers: {
          host: "wrong.example",
          "proxy-authorization": "Basic c2VjcmV0",
          "proxy-connection": "keep-alive",
          "keep-alive": "300",
          te: "trailers",
          connection: "close, x-hop",
          "x-hop": "1",
          "x-keep": "yes",
        },
        agent: false,
      });
      req.on("response", done).on("error", reject).end();
    });
    let body = "";
    for await (const chunk of res) body += String(chunk);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-resp-keep"]).toBe("1");
    expect(res.headers["x-resp-hop"]).toBeUndefined();
    expect(res.headers["keep-alive"]).toBeUndefined();
    const seen = JSON.parse(body) as HttpUpstream["requests"][number];
    expect(seen.url).toBe("/echo?q=1");
    expect(seen.headers.host).toBe(`127.0.0.1:${up.port}`);
    expect(seen.headers["x-keep"]).toBe("yes");
    for (const h of ["proxy-authorization", "proxy-connection", "keep-alive", "te", "x-hop"]) expect(seen.headers[h], h).toBeUndefined();
    expect(records).toEqual([{ host: "127.0.0.1", port: up.port, proto: "http", allowed: true, address: "127.0.0.1" }]);
  });

  it("forwards a request body (fixed length and chunked)", async () => {
    const up = await upstreamHttp();
    for (const chunked of [false, true]) {
      const conn = await Conn.open(socketPath);
      const body = chunked ? "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n" : "hello world";
      const framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: 11";
      conn.socket.write(`DELETE http://127.0.0.1:${up.port}/b HTTP/1.1\r\nHost: x\r\n${framing}\r\nConnection: close\r\n\r\n${body}`);
      await conn.untilClosed();
      expect(conn.text).toMatch(/^HTTP\/1\.1 200/);
    }
    expect(up.requests.map((r) => [r.method, r.body])).toEqual([
      ["DELETE", "hello world"],
      ["DELETE", "hello world"],
    ]);
  });

  it("refuses a host the policy refuses with 403 and never connects", async () => {
    const up = await upstreamHttp();
    policy = () => false;
    const conn = await Conn.open(socketPath);
    conn.socket.write(`GET http://127.0.0.1:${up.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    await conn.untilClosed();
    expect(conn.text).toMatch(/^HTTP\/1\.1 403/);
    expect(conn.text).toContain(`127.0.0.1:${up.port} is not an allowed host`);
    expect(records).toEqual([{ host: "127.0.0.1", port: up.port, proto: "http", allowed: false, reason: "host not allowed" }]);
    expect(up.connections).toBe(0);
  });

  it("answers 400 to an origin-form or non-http request and records nothing", async () => {
    for (const line of ["GET / HTTP/1.1", "GET https://127.0.0.1/ HTTP/1.1", "GET ftp://127.0.0.1/ HTTP/1.1"]) {
      const conn = await Conn.open(socketPath);
      conn.socket.write(`${line}\r\nHost: 127.0.0.1\r\n\r\n`);
      await conn.untilClosed();
      expect(conn.text, line).toMatch(/^HTTP\/1\.1 400/);
    }
    expect(records).toEqual([]);
  });

  it("(e) refuses a request head over the limit with 431 and closes, for requests and CONNECT", async () => {
    const up = await upstreamHttp();
    const big = "a".repeat(HEAD_LIMIT);
    for (const head of [
      `GET http://127.0.0.1:${up.port}/ HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`,
      `CONNECT 127.0.0.1:${up.port} HTTP/1.1\r\nX-Big: ${big}\r\n\r\n`,
      `GET http://127.0.0.1:${up.port}/${big} HTTP/1.1\r\n\r\n`,
    ]) {
      const conn = await Conn.open(socketPath);
      conn.socket.write(head);
      await conn.untilClosed();
      expect(conn.text).toMatch(/^HTTP\/1\.1 431/);
    }
    expect(records).toEqual([]);
    expect(up.connections).toBe(0);
  });
});

describe("proxyEnv", () => {
  it("points every proxy variable at the relay and keeps loopback local", () => {
    const env = proxyEnv(3128);
    expect(Object.keys(env).sort()).toEqual([
      "ALL_PROXY",
      "HTTPS_PROXY",
      "HTTP_PROXY",
      "NODE_USE_ENV_PROXY",
      "NO_PROXY",
      "all_proxy",
      "http_proxy",
      "https_proxy",
      "no_proxy",
    ]);
    expect(new Set(Object.keys(env))).toEqual(PROXY_ENV_KEYS);
    expect(env.NODE_USE_ENV_PROXY).toBe("1");
    for (const key of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"])
      expect(env[key], key).toBe("http://127.0.0.1:3128");
    expect([env.NO_PROXY, env.no_proxy]).toEqual(["localhost,127.0.0.1,::1", "localhost,127.0.0.1,::1"]);
    expect(() => proxyEnv(0)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// The relay

/**
 * How this machine makes a fresh network namespace for the relay: bubblewrap (what production
 * uses; it brings loopback up itself), else `unshare -n` as root or `unshare -r -n`, with
 * loopback brought up by `ip`. Null with the reason when none works.
 */
const JAIL = ((): { prefix: (bind: string) => string[]; how: string } | { skip: string } => {
  const probeDir = mkdtempSync(join(tmpdir(), "eg-egress-probe-"));
  try {
    const bwrap = (bind: string): string[] => [
      "bwrap",
      "--unshare-net",
      "--die-with-parent",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--bind",
      bind,
      bind,
      "--",
    ];
    const upLo = ["sh", "-c", 'ip link set lo up && exec "$0" "$@"'];
    const candidates = [
      { prefix: bwrap, how: "bwrap --unshare-net" },
      ...(process.getuid?.() === 0 ? [{ prefix: () => ["unshare", "-n", "--", ...upLo], how: "unshare -n" }] : []),
      { prefix: () => ["unshare", "-r", "-n", "--", ...upLo], how: "unshare -r -n" },
    ];
    const tried: string[] = [];
    for (const c of candidates) {
      const [file, ...args] = c.prefix(probeDir) as [string, ...string[]];
      const probe = spawnSync(file, [...args, process.execPath, "-e", ""], { encoding: "utf8" });
      if (probe.status === 0) return c;
      tried.push(`${c.how}: ${(probe.error?.message ?? probe.stderr ?? "").trim().split("\n")[0] ?? ""}`);
    }
    return { skip: `no network namespace on this machine (${tried.join("; ")})` };
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
})();

const relayArgs = (listen: string, unix: string, command: string[], extra: string[] = []): string[] => [
  RELAY,
  "--listen",
  listen,
  "--unix",
  unix,
  ...extra,
  "--",
  ...command,
];

describe("egress relay in a fresh network namespace", () => {
  const skip = "skip" in JAIL ? JAIL.skip : null;
  if (skip !== null) console.warn(`egress relay jail tests skipped: ${skip}`);

  it.skipIf(skip !== null)("(f) is the command's only way out: through the proxy it reaches allowed hosts, directly nothing", async () => {
    if ("skip" in JAIL) return;
    const up = await upstreamHttp();
    const relayPort = 3128;
    const proxyUrl = `http://127.0.0.1:${relayPort}`;
    const script = [
      `curl -sS --max-time 10 --noproxy '' --proxy ${proxyUrl} http://127.0.0.1:$0/via-proxy; echo " [1]"`,
      `curl -sS --max-time 10 --noproxy '' -p --proxy ${proxyUrl} http://127.0.0.1:$0/via-connect; echo " [2]"`,
      `curl -sS --max-time 10 -o /dev/null -w '%{http_code}' http://refused.example.invalid/env; echo " [3]"`,
      `curl -sS --max-time 5 http://127.0.0.1:$0/direct; echo " direct=$?"`,
    ].join("\n");
    const [file, ...prefix] = JAIL.prefix(dir) as [string, ...string[]];
    const r = await run(
      file,
      [...prefix, process.execPath, ...relayArgs(`127.0.0.1:${relayPort}`, socketPath, ["sh", "-c", script, String(up.port)])],
      { ...CLEAN_ENV, ...proxyEnv(relayPort) },
    );
    expect(r.code, `${JAIL.how}\n${r.stdout}\n${r.stderr}`).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/"url":"\/via-proxy".* \[1\]$/);
    expect(lines[1]).toMatch(/"url":"\/via-connect".* \[2\]$/);
    expect(lines[2]).toBe("403 [3]"); // HTTP_PROXY from proxyEnv: a proxy-aware client needs no flag
    expect(lines[3]).toBe(" direct=7"); // connection refused: the host's 127.0.0.1 is not the jail's
    expect(up.requests.map((q) => q.url)).toEqual(["/via-proxy", "/via-connect"]);
    expect(records).toEqual([
      { host: "127.0.0.1", port: up.port, proto: "http", allowed: true, address: "127.0.0.1" },
      { host: "127.0.0.1", port: up.port, proto: "connect", allowed: true, address: "127.0.0.1" },
      { host: "refused.example.invalid", port: 80, proto: "http", allowed: false, reason: "host not allowed" },
    ]);
  });
});

describe("egress relay: the command's exit, signals, setup failures", () => {
  const relay = async (
    command: string[],
    options: {
      extra?: string[];
      env?: NodeJS.ProcessEnv;
      unix?: string;
      listen?: string;
      onStdout?: (text: string, pid: number) => void;
    } = {},
  ): Promise<Ran> =>
    run(
      process.execPath,
      relayArgs(options.listen ?? `127.0.0.1:${await freePort()}`, options.unix ?? socketPath, command, options.extra),
      options.env ?? CLEAN_ENV,
      options.onStdout,
    );

  it("(g) exits with the command's code, and dies of the command's signal", async () => {
    expect((await relay(["sh", "-c", "exit 7"])).code).toBe(7);
    expect((await relay(["sh", "-c", "exit 0"])).code).toBe(0);
    for (const signal of ["SIGTERM", "SIGKILL", "SIGSEGV"] as const) {
      const r = await relay(["sh", "-c", `kill -${signal.slice(3)} $$`]);
      expect([r.code, r.signal], signal).toEqual([null, signal]);
    }
  });

  it("(g) forwards SIGTERM, SIGINT and SIGHUP to the command", async () => {
    const program = `for (const [s, c] of [["SIGTERM", 41], ["SIGINT", 42], ["SIGHUP", 43]]) process.on(s, () => process.exit(c)); console.log("ready"); setInterval(() => {}, 1000);`;
    for (const [signal, code] of [
      ["SIGTERM", 41],
      ["SIGINT", 42],
      ["SIGHUP", 43],
    ] as const) {
      let sent = false;
      const r = await relay([process.execPath, "-e", program], {
        onStdout: (text, pid) => {
          if (!sent && text.includes("ready")) {
            sent = true;
            process.kill(pid, signal);
          }
        },
      });
      expect([r.code, r.signal], signal).toEqual([code, null]);
    }
  });

  it("listens before the command starts, and pipes to the proxy", async () => {
    const up = await upstreamHttp();
    const port = await freePort();
    const r = await relay(["curl", "-sS", "--max-time", "10", "--proxy", `http://127.0.0.1:${port}`, `http://127.0.0.1:${up.port}/first`], {
      listen: `127.0.0.1:${port}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"url":"/first"');
  });

  it("exits 125 without starting the command when it cannot set up", async () => {
    const marker = join(dir, "started");
    const touch = ["sh", "-c", `touch ${marker}`];
    const busy = net.createServer().listen(0, "127.0.0.1");
    servers.push(busy);
    await once(busy, "listening");
    const stage = join(dir, "stage");
    mkdirSync(stage);
    writeFileSync(join(stage, "envelope-gate-preload.cjs"), "");
    const cases: [string, Promise<Ran>, RegExp][] = [
      ["no socket", relay(touch, { unix: join(dir, "missing.sock") }), /no egress proxy socket at .*missing\.sock \(ENOENT\)/],
      ["not a socket", relay(touch, { unix: dir }), /is not a socket/],
      [
        "port in use",
        relay(touch, { listen: `127.0.0.1:${(busy.address() as net.AddressInfo).port}` }),
        /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/,
      ],
      ["bad listen", relay(touch, { listen: "localhost:80" }), /--listen needs IP:PORT/],
      [
        "hooks loaded",
        relay(touch, { env: { ...CLEAN_ENV, NODE_OPTIONS: `--require "${stage}/envelope-gate-preload.cjs"` } }),
        /observer hooks are loaded into the relay/,
      ],
      ["no command", run(process.execPath, [RELAY, "--listen", "127.0.0.1:1", "--unix", socketPath, "--"], CLEAN_ENV), /usage/],
    ];
    for (const [name, pending, message] of cases) {
      const r = await pending;
      expect(r.code, name).toBe(125);
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
      expect(r.stderr, name).toMatch(message);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("gives the command --child-node-options as NODE_OPTIONS (empty removes it), and 127 for a missing command", async () => {
    const show = [process.execPath, "-e", "console.log(JSON.stringify(process.env.NODE_OPTIONS ?? null))"];
    expect((await relay(show, { extra: ["--child-node-options", "--max-old-space-size=100"] })).stdout.trim()).toBe(
      '"--max-old-space-size=100"',
    );
    expect(
      (
        await relay(show, { extra: ["--child-node-options="], env: { ...CLEAN_ENV, NODE_OPTIONS: "--max-old-space-size=90" } })
      ).stdout.trim(),
    ).toBe("null");
    expect((await relay(show, { env: { ...CLEAN_ENV, NODE_OPTIONS: "--max-old-space-size=90" } })).stdout.trim()).toBe(
      '"--max-old-space-size=90"',
    );
    const missing = await relay([join(dir, "no-such-program")]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/cannot start .*no-such-program \(ENOENT\)/);
  });
});
