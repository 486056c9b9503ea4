/**
 * network: every TCP connect (`net.Socket.prototype.connect`, which `net`, `tls`, `http`,
 * `https`, `http2` and `fetch` all go through), UDP connects and sends, and DNS lookups, recorded
 * as `host` by the name the program gave; `note` records tell the wrapper which addresses a
 * hooked connect resolved to, so the process observer's record of the same connect is merged.
 */
import { load, type HookContext } from "./context.js";

export function installNetwork(ctx: HookContext): void {
  const net = load<typeof import("node:net")>("node:net");
  const dns = load<typeof import("node:dns")>("node:dns");
  const originalLookup = dns.lookup;

  function recordHost(host: string, port: number | null, proto: string): void {
    const event: Record<string, unknown> = { kind: "host", host, proto };
    if (port !== null && Number.isInteger(port)) event.port = port;
    ctx.send(event);
  }

  function noteAddress(address: string, port: number): void {
    ctx.send({ kind: "note", address, port });
  }

  type LookupCallback = (err: Error | null, address: unknown, family?: number) => void;
  type LookupFn = (host: string, options: unknown, cb: LookupCallback) => void;

  function wrapLookup(userLookup: LookupFn | undefined, port: number): LookupFn {
    const base = userLookup ?? (originalLookup as unknown as LookupFn);
    return function lookup(host, options, cb) {
      const callback = (typeof options === "function" ? options : cb) as LookupCallback;
      const opts = typeof options === "function" ? {} : options;
      base(host, opts, (err, address, family) => {
        // Only Node's own resolver vouches for a name: an address from the program's own
        // `lookup` is judged as the address it is (the process observer records the connect).
        if (!err && userLookup === undefined) {
          const list = Array.isArray(address) ? address : [{ address }];
          for (const entry of list) {
            const a = (entry as { address?: unknown }).address;
            if (typeof a === "string") noteAddress(a, port);
          }
        }
        callback(err, address, family);
      });
    };
  }

  const SocketProto = net.Socket.prototype as unknown as Record<string, unknown>;
  const originalConnect = SocketProto.connect as (...a: unknown[]) => unknown;
  SocketProto.connect = function connect(this: unknown, ...args: unknown[]): unknown {
    if (ctx.depth === 0) {
      const first = args[0];
      let holder: unknown[] | null = null;
      let options: Record<string, unknown> | null = null;
      if (Array.isArray(first)) {
        holder = first;
        options = (first[0] ?? null) as Record<string, unknown> | null;
      } else if (first !== null && typeof first === "object") {
        options = first as Record<string, unknown>;
      } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
        options = { port: first, host: typeof args[1] === "string" ? args[1] : undefined };
        args = [options, ...args.slice(typeof args[1] === "string" ? 2 : 1)];
      }
      // http(s) agents pass `path: null` for a TCP connection; a string path is a unix socket.
      if (options !== null && typeof options.path !== "string" && options.port !== undefined && options.port !== null) {
        const host = typeof options.host === "string" && options.host !== "" ? options.host : "localhost";
        const port = Number(options.port);
        recordHost(host, port, "tcp");
        if (net.isIP(host) !== 0) {
          noteAddress(host, port);
        } else {
          const wrapped = { ...options, lookup: wrapLookup(options.lookup as LookupFn | undefined, port) };
          if (holder !== null) holder[0] = wrapped;
          else args[0] = wrapped;
        }
      }
    }
    return originalConnect.apply(this, args);
  };

  const dgram = load<typeof import("node:dgram")>("node:dgram");
  const DgramProto = dgram.Socket.prototype as unknown as Record<string, unknown>;
  const dgramSeen = new Set<string>();
  function recordUdp(socket: unknown, portArg: unknown, addressArg: unknown): void {
    const port = Number(portArg);
    if (!Number.isInteger(port)) return;
    const type = (socket as { type?: string }).type;
    const host = typeof addressArg === "string" && addressArg !== "" ? addressArg : type === "udp6" ? "::1" : "127.0.0.1";
    const key = `${host}\0${port}`;
    if (dgramSeen.has(key)) return;
    dgramSeen.add(key);
    recordHost(host, port, "udp");
    if (net.isIP(host) !== 0) noteAddress(host, port);
  }
  ctx.hook(DgramProto, "connect", (a, self) => recordUdp(self, a[0], typeof a[1] === "string" ? a[1] : undefined));
  ctx.hook(DgramProto, "send", (a, self) => {
    const [msg, offset, length] = a;
    const offsetForm = (typeof msg === "string" || ArrayBuffer.isView(msg)) && typeof offset === "number" && typeof length === "number";
    const port = offsetForm ? a[3] : a[1];
    const address = offsetForm ? a[4] : a[2];
    if (port !== undefined && typeof port !== "function") recordUdp(self, port, address);
  });

  // Node's own lookups (dgram, net with a lookup of its own) are part of a connect already recorded.
  const dnsHost = (a: unknown[]): void => {
    if (typeof a[0] === "string" && !ctx.callerIsNodeInternal()) recordHost(a[0], null, "dns");
  };
  const DNS_METHODS = [
    "lookup",
    "resolve",
    "resolve4",
    "resolve6",
    "resolveAny",
    "resolveCaa",
    "resolveCname",
    "resolveMx",
    "resolveNaptr",
    "resolveNs",
    "resolvePtr",
    "resolveSoa",
    "resolveSrv",
    "resolveTxt",
    "reverse",
  ];
  const dnsTables: Record<string, unknown>[] = [
    dns as unknown as Record<string, unknown>,
    dns.promises as unknown as Record<string, unknown>,
    dns.Resolver.prototype as unknown as Record<string, unknown>,
    dns.promises.Resolver.prototype as unknown as Record<string, unknown>,
  ];
  for (const table of dnsTables) {
    for (const name of DNS_METHODS) ctx.hook(table, name, dnsHost);
    ctx.hook(table, "lookupService", (a) => {
      if (typeof a[0] === "string") recordHost(a[0], Number.isInteger(Number(a[1])) ? Number(a[1]) : null, "dns");
    });
  }
}
