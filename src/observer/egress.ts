/**
 * The egress proxy for `network: "allowlist"` (docs/egress.md). It runs in the wrapper, outside
 * the jail, and is the jailed command's only way out: the relay inside the jail (egress-relay.ts)
 * hands every TCP connection made to its loopback port to this proxy's unix socket.
 *
 * It speaks HTTP proxy: `CONNECT host:port` opens a tunnel, an absolute-form request
 * (`GET http://host[:port]/path`, any method) is forwarded. Each request is decided by name
 * through `allowed(host, port)`: a refused host gets 403 and nothing is resolved or connected;
 * an allowed name is resolved here (the jail resolves nothing) and connected. Every request
 * that names a target is recorded exactly once (EgressRecord), before any byte of the client's
 * reaches the upstream.
 *
 * Bounds: a request head is at most HEAD_LIMIT bytes (431, connection closed), and so is an
 * upstream response head (502); a TLS ClientHello peeked in a tunnel is at most
 * CLIENT_HELLO_LIMIT bytes; at most MAX_CLIENT_CONNECTIONS clients at once; bodies and tunnels
 * are streamed with backpressure, never buffered whole.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import { errnoOf } from "../core/errors.js";
import { formatEndpoint, normalizeHost } from "../core/hosts.js";

export interface EgressRecord {
  /** Lower-case name or IP literal as the client gave it (IPv6 without brackets, no trailing dot). */
  host: string;
  port: number;
  proto: "connect" | "http";
  /** False when the proxy refused: not allowed, a name resolving to loopback/link-local, or the tunnel's TLS name. */
  allowed: boolean;
  /** The upstream IP actually connected to, when one was. */
  address?: string;
  /** Why it was refused, or why an allowed request did not get through. */
  reason?: string;
  /** The TLS server_name the client sent first inside a CONNECT tunnel, when it sent one. */
  sni?: string;
}

interface EgressProxyOptions {
  /** Where to listen. The caller owns the directory (mode 0700) and removes a stale socket first. */
  socketPath: string;
  /** The envelope's decision, on the normalised host and the port. A throw counts as a refusal. */
  allowed: (host: string, port: number) => boolean;
  /** Called once per request, synchronously, before any client byte is forwarded. Must not throw. */
  record: (e: EgressRecord) => void;
}

export interface EgressProxy {
  readonly socketPath: string;
  /** Stops listening, destroys every client connection, tunnel and upstream socket, and records what was still undecided. */
  close(): Promise<void>;
}

/** Largest request head (request line and headers) the proxy reads. */
export const HEAD_LIMIT = 64 * 1024;
/** Most bytes buffered while waiting for a tunnel's complete TLS ClientHello. */
export const CLIENT_HELLO_LIMIT = 64 * 1024;
/** Most client connections open at once (each may hold one upstream socket too); more are closed at accept. */
const MAX_CLIENT_CONNECTIONS = 1024;
/** How long one upstream address may take to accept a connection. */
const CONNECT_TIMEOUT_MS = 15_000;

const LOCAL_HOSTS = "localhost,127.0.0.1,::1";

/**
 * The environment keys the jailed command gets under `allowlist`, whatever `allowed_env` says:
 * every proxy variable points at the relay, and NODE_USE_ENV_PROXY=1 makes a Node that honours it
 * (24.5+, 22.21+) send fetch, http and https through them (on an older Node the preload does,
 * src/observer/preload/proxy.ts). The keys are exactly PROXY_ENV_KEYS (src/core/rules.ts), whose
 * reads the check does not judge under allowlist.
 */
export function proxyEnv(port: number): Record<string, string> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`proxyEnv: port ${String(port)} is not 1-65535`);
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: LOCAL_HOSTS,
    no_proxy: LOCAL_HOSTS,
    NODE_USE_ENV_PROXY: "1",
  };
}

const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** A normalised host if `raw` is a DNS name or an IP literal (no zone id), else null. */
function validHost(raw: string): string | null {
  const host = normalizeHost(raw);
  if (host.includes("%")) return null;
  if (net.isIP(host) !== 0) return host;
  return host.length <= 253 && NAME.test(host) ? host : null;
}

/** Parses `host:port` or `[v6]:port` (a CONNECT target, the relay's --listen). Null if malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  const bracketed = (m[1] as string).startsWith("[");
  const host = validHost(m[1] as string);
  if (host === null || port < 1 || port > 65535) return null;
  if (bracketed !== net.isIPv6(host)) return null;
  return { host, port };
}

// ---------------------------------------------------------------------------------------------
// The TLS ClientHello peek (RFC 8446 4.1.2, RFC 6066 3)

type ClientHelloPeek =
  { kind: "incomplete" } | { kind: "not-tls" } | { kind: "hello"; serverName: string | null } | { kind: "malformed"; why: string };

const INCOMPLETE: ClientHelloPeek = { kind: "incomplete" };
const malformed = (why: string): ClientHelloPeek => ({ kind: "malformed", why });

/**
 * Looks at the first bytes a client sent into a tunnel. A first byte other than 0x16 (a TLS
 * handshake record) is "not-tls". Otherwise the ClientHello is reassembled from consecutive
 * handshake records and its server_name read; anything that does not parse is "malformed".
 * Pure, and it reads no further than the ClientHello's own declared lengths.
 */
export function peekClientHello(data: Buffer): ClientHelloPeek {
  if (data.length === 0) return INCOMPLETE;
  if (data[0] !== 0x16) return { kind: "not-tls" };
  const fragments: Buffer[] = [];
  let have = 0;
  let need = -1;
  /** Reads the handshake header once 4 bytes of it are there (in whole records or the one still arriving). */
  const header = (partial: Buffer): ClientHelloPeek | null => {
    if (need !== -1 || have + partial.length < 4) return null;
    const start = Buffer.concat([...fragments, partial], 4);
    if (start[0] !== 1) return malformed("the first handshake message is not a ClientHello");
    need = 4 + start.readUIntBE(1, 3);
    return need > CLIENT_HELLO_LIMIT ? malformed("ClientHello longer than the limit") : null;
  };
  for (let off = 0; ;) {
    if (data.length - off < 5) return INCOMPLETE;
    if (data[off] !== 0x16) return malformed("a non-handshake record before the end of the ClientHello");
    if (data[off + 1] !== 3) return malformed("not a TLS record version");
    const length = data.readUInt16BE(off + 3);
    if (length === 0 || length > 16384) return malformed(`record length ${length}`);
    if (data.length - off - 5 < length) return header(data.subarray(off + 5)) ?? INCOMPLETE;
    const fragment = data.subarray(off + 5, off + 5 + length);
    const verdict = header(fragment);
    if (verdict !== null) return verdict;
    fragments.push(fragment);
    have += length;
    off += 5 + length;
    if (need !== -1 && have >= need) return parseClientHelloBody(Buffer.concat(fragments, need).subarray(4));
  }
}

function parseClientHelloBody(body: Buffer): ClientHelloPeek {
  let p = 2 + 32; // legacy_version, random
  const fits = (n: number): boolean => p + n <= body.length;
  if (!fits(1)) return malformed("truncated before session_id");
  const sessionId = body[p] as number;
  p += 1;
  if (sessionId > 32 || !fits(sessionId + 2)) return malformed("bad session_id");
  p += sessionId;
  const suites = body.readUInt16BE(p);
  p += 2;
  if (suites < 2 || suites % 2 !== 0 || !fits(suites + 1)) return malformed("bad cipher_suites");
  p += suites;
  const compressions = body[p] as number;
  p += 1;
  if (compressions < 1 || !fits(compressions)) return malformed("bad compression_methods");
  p += compressions;
  if (p === body.length) return { kind: "hello", serverName: null };
  if (!fits(2)) return malformed("truncated extensions");
  const extensionsEnd = p + 2 + body.readUInt16BE(p);
  p += 2;
  if (extensionsEnd !== body.length) return malformed("extensions length does not match the ClientHello");
  const seen = new Set<number>();
  let serverName: string | null = null;
  while (p < extensionsEnd) {
    if (!fits(4)) return malformed("truncated extension header");
    const type = body.readUInt16BE(p);
    const length = body.readUInt16BE(p + 2);
    p += 4;
    if (!fits(length)) return malformed("truncated extension");
    if (seen.has(type)) return malformed(`extension ${type} twice`);
    seen.add(type);
    if (type === 0) {
      const name = parseServerName(body.subarray(p, p + length));
      if (typeof name !== "string" && name !== null) return name;
      serverName = name;
    }
    p += length;
  }
  return { kind: "hello", serverName };
}

/** The host_name of a server_name extension: a string, null when it names none, or a malformed verdict. */
function parseServerName(ext: Buffer): string | null | ClientHelloPeek {
  if (ext.length === 0) return null;
  if (ext.length < 2 || 2 + ext.readUInt16BE(0) !== ext.length) return malformed("bad server_name list length");
  let name: string | null = null;
  for (let p = 2; p < ext.length;) {
    if (p + 3 > ext.length) return malformed("truncated server_name entry");
    const type = ext[p] as number;
    const length = ext.readUInt16BE(p + 1);
    p += 3;
    if (length === 0 || p + length > ext.length) return malformed("bad server_name entry length");
    if (type === 0) {
      if (name !== null) return malformed("two host_name entries");
      name = ext.toString("latin1", p, p + length);
      if (!/^[\x21-\x7e]+$/.test(name)) return malformed("host_name is not printable ASCII");
    }
    p += length;
  }
  return name;
}

// ---------------------------------------------------------------------------------------------
// Plumbing

const noop = (): void => {};

/** Pipes two sockets both ways (with backpressure); when either closes, the other is destroyed. */
export function splice(a: net.Socket, b: net.Socket): void {
  a.on("error", noop);
  b.on("error", noop);
  a.once("close", () => b.destroy());
  b.once("close", () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

/** Addresses a name may not lead to unless the client named the IP itself: this host's loopback, "any", link-local (cloud metadata). */
const LOCAL_ONLY = new net.BlockList();
LOCAL_ONLY.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("0.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("169.254.0.0", 16, "ipv4");
LOCAL_ONLY.addAddress("::1", "ipv6");
LOCAL_ONLY.addAddress("::", "ipv6");
LOCAL_ONLY.addSubnet("fe80::", 10, "ipv6");

export function localOnly(address: string): boolean {
  return LOCAL_ONLY.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/** Copies headers without the hop-by-hop ones (RFC 9110 7.6.1), the ones `Connection` names, and Proxy-Authorization. */
function stripHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const drop = new Set(HOP_BY_HOP);
  for (const token of String(headers.connection ?? "").split(",")) drop.add(token.trim().toLowerCase());
  const out: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined && !drop.has(key)) out[key] = value;
  }
  return out;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  502: "Bad Gateway",
};

/** A complete response written straight to a socket that the HTTP server no longer manages (CONNECT, parse errors); then closed. */
function rawReply(socket: net.Socket, status: number, text: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + text, () => socket.destroy());
}

function plainReply(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), connection: "close" });
  res.end(text);
}

type Upstream = { ok: true; socket: net.Socket; address: string } | { ok: false; status: 403 | 502; reason: string };

function errorText(e: unknown): string {
  return errnoOf(e) ?? (e as Error).message ?? String(e);
}

// ---------------------------------------------------------------------------------------------
// The proxy

/** Starts the proxy on `socketPath`; resolves once it listens. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const open = new Set<net.Socket>();
  /** Requests not yet recorded, each with what to record if the proxy closes first. */
  const pending = new Set<() => void>();
  let closing = false;

  const track = (socket: net.Socket): void => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };

  /** One request's record: written exactly once, by the first of its outcome or close(). */
  const begin = (host: string, port: number, proto: EgressRecord["proto"]) => {
    let address: string | undefined;
    let done = false;
    const finish = (allowed: boolean, extra: { reason?: string | undefined; sni?: string | undefined } = {}): void => {
      if (done) return;
      done = true;
      pending.delete(onClose);
      const e: EgressRecord = { host, port, proto, allowed };
      if (address !== undefined) e.address = address;
      if (extra.reason !== undefined) e.reason = extra.reason;
      if (extra.sni !== undefined) e.sni = extra.sni;
      options.record(e);
    };
    const onClose = (): void => finish(true, address === undefined ? { reason: "proxy closed before the upstream connected" } : {});
    pending.add(onClose);
    return {
      finish,
      connected: (a: string): void => {
        address = a;
      },
    };
  };

  const refusal = (host: string, port: number): string | null => {
    try {
      return options.allowed(host, port) ? null : "host not allowed";
    } catch (e) {
      return `allowed() failed: ${errorText(e)}`;
    }
  };

  const connectOnce = (address: string, port: number): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host: address, port });
      socket.on("error", noop);
      track(socket);
      const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("close", () => {
        clearTimeout(timer);
        reject(new Error(socket.errored ? errorText(socket.errored) : "closed"));
      });
    });

  /** Resolves an allowed name (every address, in the resolver's order) and connects to the first that answers. */
  const openUpstream = async (host: string, port: number): Promise<Upstream> => {
    let addresses: string[];
    if (net.isIP(host) !== 0) {
      addresses = [host];
    } else {
      try {
        addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
      } catch (e) {
        return { ok: false, status: 502, reason: `dns: ${errorText(e)}` };
      }
      const reachable = addresses.filter((a) => !localOnly(a));
      if (reachable.length === 0)
        return { ok: false, status: 403, reason: `resolves only to loopback or link-local addresses (${addresses.join(", ")})` };
      addresses = reachable;
    }
    const failures: string[] = [];
    for (const address of addresses) {
      if (closing) break;
      try {
        return { ok: true, socket: await connectOnce(address, port), address };
      } catch (e) {
        failures.push(`${formatEndpoint(address, port)} ${errorText(e)}`);
      }
    }
    return { ok: false, status: 502, reason: closing ? "proxy closed" : `upstream: ${failures.join("; ")}` };
  };

  const tunnel = async (host: string, port: number, client: net.Socket, head: Buffer): Promise<void> => {
    const endpoint = formatEndpoint(host, port);
    const why = refusal(host, port);
    if (why !== null) {
      options.record({ host, port, proto: "connect", allowed: false, reason: why });
      rawReply(client, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
      return;
    }
    client.pause();
    const request = begin(host, port, "connect");
    const up = await openUpstream(host, port);
    if (!up.ok) {
      request.finish(up.status !== 403, { reason: up.reason });
      rawReply(client, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
      return;
    }
    const upstream = up.socket;
    request.connected(up.address);
    if (closing || client.destroyed) {
      upstream.destroy();
      request.finish(true, { reason: "client closed before the tunnel opened" });
      return;
    }
    // The server's bytes flow at once (server-first protocols); the client's wait for the peek.
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    client.once("close", () => {
      upstream.destroy();
      request.finish(true);
    });
    upstream.once("close", () => {
      client.destroy();
      request.finish(true);
    });
    upstream.pipe(client);
    let buffered = head;
    let peeking = true;
    const refuse = (reason: string, sni?: string): void => {
      peeking = false;
      request.finish(false, { reason, sni });
      client.destroy();
      upstream.destroy();
    };
    const inspect = (): void => {
      const peek = peekClientHello(buffered);
      if (peek.kind === "incomplete") {
        if (buffered.length > CLIENT_HELLO_LIMIT) refuse("client hello too large");
        return;
      }
      if (peek.kind === "malformed") return refuse(`malformed client hello: ${peek.why}`);
      const sni = peek.kind === "hello" && peek.serverName !== null ? normalizeHost(peek.serverName) : undefined;
      if (sni !== undefined && sni !== host) return refuse("sni mismatch", sni);
      peeking = false;
      client.removeListener("data", onData);
      request.finish(true, { sni });
      upstream.write(buffered);
      client.pipe(upstream);
    };
    const onData = (chunk: Buffer): void => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      inspect();
    };
    client.on("data", onData);
    client.once("end", () => {
      if (!peeking) return;
      // The client half-closed before its first bytes were judged: with nothing sent, pass the
      // half-close on (the server may still answer); a cut-off ClientHello is refused.
      if (buffered.length > 0) return refuse("client closed inside its client hello");
      peeking = false;
      client.removeListener("data", onData);
      request.finish(true);
      upstream.end();
    });
    if (buffered.length > 0) inspect();
    if (peeking) client.resume();
  };

  const forward = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return plainReply(res, 400, "envelope-gate egress: send an absolute-form http:// request or CONNECT\n");
    }
    const host = validHost(url.hostname);
    if (url.protocol !== "http:" || host === null)
      return plainReply(res, 400, `envelope-gate egress: cannot forward ${url.protocol}//${url.host}\n`);
    const port = url.port === "" ? 80 : Number(url.port);
    const endpoint = formatEndpoint(host, port);
    const why = refusal(host, port);
    if (why !== null) {
      options.record({ host, port, proto: "http", allowed: false, reason: why });
      return plainReply(res, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
    }
    req.pause();
    const request = begin(host, port, "http");
    const up = await openUpstream(host, port);
    if (!up.ok) {
      request.finish(up.status !== 403, { reason: up.reason });
      return plainReply(res, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
    }
    request.connected(up.address);
    request.finish(true);
    const upstream = up.socket;
    if (closing || res.destroyed) {
      upstream.destroy();
      return;
    }
    const headers = stripHopByHop(req.headers);
    headers.host = url.host;
    // Node decoded any chunked body; re-chunk it upstream whatever the method.
    if (req.headers["transfer-encoding"] !== undefined) headers["transfer-encoding"] = "chunked";
    const upstreamRequest = http.request({
      createConnection: () => upstream,
      method: req.method,
      path: url.pathname + url.search,
      headers,
      setHost: false,
      maxHeaderSize: HEAD_LIMIT,
    });
    upstreamRequest.on("response", (upstreamResponse) => {
      res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, stripHopByHop(upstreamResponse.headers));
      upstreamResponse.pipe(res);
    });
    upstreamRequest.on("error", (e) => {
      if (res.headersSent) res.destroy();
      else plainReply(res, 502, `envelope-gate egress: ${endpoint}: upstream: ${errorText(e)}\n`);
    });
    res.once("close", () => upstream.destroy());
    req.pipe(upstreamRequest);
  };

  const server = http.createServer({ maxHeaderSize: HEAD_LIMIT, requestTimeout: 0, requireHostHeader: false });
  server.maxConnections = MAX_CLIENT_CONNECTIONS;
  server.on("connection", track);
  server.on("request", (req, res) => {
    forward(req, res).catch((e: unknown) => res.destroy(e as Error));
  });
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on("error", noop);
    const target = parseAuthority(req.url ?? "");
    if (target === null) return rawReply(client, 400, "envelope-gate egress: CONNECT needs host:port\n");
    tunnel(target.host, target.port, client, head).catch(() => client.destroy());
  });
  server.on("clientError", (err: NodeJS.ErrnoException, socket: net.Socket) => {
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    const what =
      status === 431 ? `request head over ${HEAD_LIMIT} bytes` : status === 408 ? "request head not received in time" : "bad request";
    rawReply(socket, status, `envelope-gate egress: ${what}\n`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socketPath, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });

  let closed: Promise<void> | null = null;
  return {
    socketPath: options.socketPath,
    close(): Promise<void> {
      if (closed !== null) return closed;
      closing = true;
      closed = new Promise((resolve) => server.close(() => resolve()));
      for (const flush of [...pending]) flush();
      for (const socket of open) socket.destroy();
      return closed;
    },
  };
}
