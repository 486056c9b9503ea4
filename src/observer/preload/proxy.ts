/**
 * proxy: under `network: "allowlist"` the run's only way out is the egress proxy named by
 * HTTP_PROXY/HTTPS_PROXY (docs/egress.md). Node's own clients ignore those variables unless
 * NODE_USE_ENV_PROXY=1 on a Node that honours it (24.5 and newer, 22.21 and newer; the wrapper
 * sets it under allowlist). On an older Node (20) this area gives NODE_USE_ENV_PROXY=1 the same
 * meaning (and does nothing without it): it makes `fetch`, `http` and `https` use the proxy.
 * Every request to a host that NO_PROXY does not name goes through a CONNECT tunnel to the proxy
 * (TLS on top for https), so the proxy sees the name and the port and judges them. NO_PROXY hosts (loopback: the run's own namespace) stay direct.
 *
 * - `http.globalAgent` and `https.globalAgent` are replaced by agents whose connections are
 *   tunnels. A request that brings its own agent (or `agent: false`) goes direct, and in the jail
 *   has no route: fail closed.
 * - `fetch`: Node 20 loads its bundled undici on the first call. The first call of the wrapped
 *   `fetch` loads it (with a `data:` URL, which never touches the network), then replaces the
 *   global dispatcher (`Symbol.for("undici.globalDispatcher.1")`) with an undici Agent of the
 *   same class whose `connect` opens the tunnel, before the program's own request is dispatched.
 *   Loading undici eagerly would cost every Node process of the run about 100 ms. A dispatcher the
 *   program set before its first fetch (`setGlobalDispatcher` from the undici package: a MockAgent,
 *   its own ProxyAgent) is left alone.
 *
 * Nothing here is recorded: the proxy records every tunnel by name (`source: "proxy"`), and the
 * connect to the relay's own address is written by neither observer.
 */
import { load, type HookContext } from "./context.js";

type NetModule = typeof import("node:net");
type TlsModule = typeof import("node:tls");
type Socket = import("node:net").Socket;
type Callback = (err: Error | null, socket?: Socket) => void;

/** True when this Node's own clients follow the proxy variables under NODE_USE_ENV_PROXY=1. */
export function nodeHonoursEnvProxy(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return major > 24 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21);
}

interface ProxyAddress {
  host: string;
  port: number;
}

function parseProxy(value: string | undefined): ProxyAddress | null {
  if (value === undefined || value === "") return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:") return null;
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    return { host, port: url.port === "" ? 80 : Number(url.port) };
  } catch {
    return null;
  }
}

/** NO_PROXY as curl reads it: `*`, exact names, and `.suffix` / `suffix` for a domain and its subdomains. */
function noProxyMatcher(value: string | undefined): (host: string) => boolean {
  const entries = (value ?? "")
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "");
  return (raw) => {
    const host = raw.toLowerCase().replace(/^\[|\]$/g, "");
    for (const entry of entries) {
      if (entry === "*") return true;
      const e = entry.replace(/^\*?\./, "").replace(/^\[|\]$/g, "");
      if (host === e || host.endsWith("." + e)) return true;
    }
    return false;
  };
}

export function installProxy(ctx: HookContext): void {
  const env = ctx.realEnv;
  // NODE_USE_ENV_PROXY=1 (the wrapper's, under allowlist) asks for the proxy; a Node that honours it does the rest.
  if (env.NODE_USE_ENV_PROXY !== "1" || nodeHonoursEnvProxy(process.version)) return;
  const proxy = parseProxy(env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy);
  if (proxy === null) return;
  const net = load<NetModule>("node:net");
  const tls = load<TlsModule>("node:tls");
  const http = load<typeof import("node:http")>("node:http");
  const https = load<typeof import("node:https")>("node:https");
  const direct = noProxyMatcher(env.NO_PROXY ?? env.no_proxy);

  /** A socket to host:port through a CONNECT tunnel; `callback` gets it once the proxy said 200. */
  function tunnel(host: string, port: number, callback: Callback): void {
    const authority = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
    const socket = net.connect(proxy!.port, proxy!.host);
    let head = Buffer.alloc(0);
    let done = false;
    const fail = (err: Error): void => {
      if (done) return;
      done = true;
      socket.destroy();
      callback(err);
    };
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) {
        if (head.length > 65536) fail(new Error(`envelope-gate proxy: response head for CONNECT ${authority} is too large`));
        return;
      }
      socket.off("data", onData);
      socket.off("error", fail);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString("latin1"));
      if (status === null || status[1] !== "200") {
        const line = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
        const err = new Error(`envelope-gate proxy refused CONNECT ${authority}: ${line}`) as Error & { code: string; statusCode: number };
        err.code = "ERR_PROXY_TUNNEL";
        err.statusCode = status === null ? 0 : Number(status[1]);
        fail(err);
        return;
      }
      done = true;
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      callback(null, socket);
    };
    socket.on("data", onData);
    socket.on("error", fail);
    socket.on("close", () => fail(new Error(`envelope-gate proxy closed the connection during CONNECT ${authority}`)));
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  }

  /** `tls.connect` over a tunnel, with the options the caller would have given tls.connect. */
  function secure(socket: Socket, options: import("node:tls").ConnectionOptions, callback: Callback): void {
    const tlsSocket = tls.connect({ ...options, socket });
    const onError = (err: Error): void => {
      tlsSocket.destroy();
      callback(err);
    };
    tlsSocket.once("error", onError);
    tlsSocket.once("secureConnect", () => {
      tlsSocket.off("error", onError);
      callback(null, tlsSocket);
    });
  }

  type AgentOptions = Record<string, unknown> & { host?: string; hostname?: string; port?: number | string; servername?: string };
  const hostOf = (o: AgentOptions): string => String(o.hostname ?? o.host ?? "localhost").replace(/^\[|\]$/g, "");

  // ---- http / https ------------------------------------------------------------------------
  type CreateConnection = (options: AgentOptions, callback: Callback) => Socket | undefined;
  const httpConnection: CreateConnection = (options, callback) => {
    const host = hostOf(options);
    const port = Number(options.port ?? 80);
    if (direct(host)) return net.connect({ ...(options as object), host, port } as import("node:net").NetConnectOpts);
    tunnel(host, port, callback);
    return undefined;
  };
  const httpsConnection: CreateConnection = (options, callback) => {
    const host = hostOf(options);
    const port = Number(options.port ?? 443);
    if (direct(host)) return tls.connect({ ...(options as object), host, port } as import("node:tls").ConnectionOptions);
    const servername = options.servername ?? (net.isIP(host) === 0 ? host : undefined);
    tunnel(host, port, (err, socket) => {
      if (err !== null || socket === undefined) return callback(err ?? new Error("no socket"));
      const { host: _h, port: _p, path: _path, ...tlsOptions } = options;
      secure(socket, { ...(tlsOptions as object), servername } as import("node:tls").ConnectionOptions, callback);
    });
    return undefined;
  };
  // Node's Agent calls `this.createConnection(options, oncreate)` and takes the socket from the
  // callback when nothing is returned.
  const httpAgent = new http.Agent({ keepAlive: true });
  const httpsAgent = new https.Agent({ keepAlive: true });
  (httpAgent as unknown as { createConnection: CreateConnection }).createConnection = httpConnection;
  (httpsAgent as unknown as { createConnection: CreateConnection }).createConnection = httpsConnection;
  http.globalAgent = httpAgent;
  https.globalAgent = httpsAgent;

  // ---- fetch (Node's bundled undici) --------------------------------------------------------
  const DISPATCHER = Symbol.for("undici.globalDispatcher.1");
  const g = globalThis as unknown as Record<string | symbol, unknown>;
  const originalFetch = g.fetch as ((input: unknown, init?: unknown) => Promise<unknown>) | undefined;
  if (typeof originalFetch !== "function") return;
  let installed = false;
  function installDispatcher(): void {
    installed = true;
    // A dispatcher the program set itself (an undici MockAgent, its own ProxyAgent) stays its own.
    if (g[DISPATCHER] !== undefined) return;
    // Loads undici (and with it the default global Agent) without a network request.
    originalFetch!.call(globalThis, "data:,").catch(() => undefined);
    const current = g[DISPATCHER] as { constructor: new (options: unknown) => unknown } | undefined;
    if (current === undefined || typeof current.constructor !== "function") return;
    type Connector = (
      o: { hostname: string; host?: string; protocol: string; port: string; servername?: string | null },
      cb: Callback,
    ) => void;
    const connect: Connector = (o, cb) => {
      const host = o.hostname.replace(/^\[|\]$/g, "");
      const https = o.protocol === "https:";
      const port = o.port !== "" ? Number(o.port) : https ? 443 : 80;
      const servername = o.servername ?? (net.isIP(host) === 0 ? host : undefined);
      const tlsOptions = { servername, ALPNProtocols: ["http/1.1"] };
      if (direct(host)) {
        const s = https ? tls.connect({ ...tlsOptions, host, port }) : net.connect({ host, port });
        const ready = https ? "secureConnect" : "connect";
        s.once("error", (err) => cb(err));
        s.once(ready, () => cb(null, s));
        return;
      }
      tunnel(host, port, (err, socket) => {
        if (err !== null || socket === undefined) return cb(err ?? new Error("no socket"));
        if (!https) return cb(null, socket);
        secure(socket, tlsOptions, cb);
      });
    };
    g[DISPATCHER] = new current.constructor({ connect });
  }
  const fetch = function fetch(this: unknown, input: unknown, init?: unknown): Promise<unknown> {
    if (!installed) installDispatcher();
    return originalFetch.call(this, input, init);
  };
  Object.defineProperty(fetch, "length", { value: originalFetch.length });
  Object.defineProperty(globalThis, "fetch", { value: fetch, writable: true, enumerable: true, configurable: true });
}
