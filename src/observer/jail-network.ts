/**
 * The jail's network namespace, held for the whole run (docs/egress.md, "The jail's resolver and
 * services"):
 *
 *   holder (netns-holder.ts, in a bubblewrap of its own: user + network namespace, only lo)
 *     127.0.0.1:53 udp+tcp ──unix──> resolver here: records every name, answers or refuses it
 *     <service address>    ──unix──> forward here: connects to the job's real service, records it
 *   every stage's jail joins that namespace (nsenter before the tracer) instead of making its own.
 *
 * A unix socket service is bound by the jail itself at its path (jail.ts), over the forward's own
 * socket here. Nothing here judges: the records are judged by `check` like any other line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { lookup } from "node:dns/promises";
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { DNS_TYPE, DnsFrameReader, RCODE, buildAnswer, buildError, frameMessage, parseQuery, type DnsQuery } from "../core/dns-wire.js";
import { errnoOf, Refusal } from "../core/errors.js";
import { formatEndpoint } from "../core/hosts.js";
import type { Service } from "../core/services.js";
import { localOnly } from "./egress.js";

/** Where the jail's resolver listens: where resolv.conf points, and where resolvers look when it says nothing. */
export const RESOLVER_ADDRESS = { host: "127.0.0.1", port: 53 } as const;

/** A name lookup the resolver answered or refused, or a connection the forward carried. */
export type NetworkRecord =
  | { kind: "lookup"; name: string; allowed: boolean }
  | { kind: "service"; host: string; port: number | null; ok: boolean; bytesIn: number; bytesOut: number; reason?: string };

export interface JailNetworkOptions {
  /** The wrapper's own directory for the sockets and the jail's resolv.conf and hosts (mode 0700, made here). */
  dir: string;
  bwrap: string;
  nsenter: string;
  nodeBinary: string;
  holderBundle: string;
  services: readonly Service[];
  /** Whether a name may be resolved for the run (never called for a service's name or a loopback name). */
  nameAllowed: (name: string) => boolean;
  /** How long a service may take to accept the start's probe. */
  probeTimeoutMs?: number;
}

export interface JailNetwork {
  /** Run before the tracer: enter the holder's network namespace (and, unprivileged, its user namespace). */
  prefix: string[];
  /** The file the jail shows at /etc/resolv.conf. */
  resolvConf: string;
  /** Lines the jail's /etc/hosts has for the services' names (machine-identity.ts writes the file). */
  hostsLines: string[];
  /** Unix socket services: the forward's socket here, bound at the service's path in the jail. */
  unixServices: { jail: string; host: string }[];
  /** Addresses inside the jail that are this plumbing, never the command's own connections. */
  plumbing: { host: string; port: number }[];
  /** Each service as the jail sees it, for meta. */
  meta: { resolver: string; services: { service: string; jail: string }[] };
  /** Where records go: each stage points this at its own merger. */
  record: (r: NetworkRecord) => void;
  /**
   * Why the holder ended while the run was on (null while it holds): nothing after that point is
   * answered or recorded. `onLost` is told once, when it happens.
   */
  lost: string | null;
  onLost: ((why: string) => void) | null;
  /** Ends every forward still open (recording it); the namespace stays for the next stage. */
  settle(): void;
  close(): Promise<void>;
}

interface Forward {
  service: Service;
  /** Inside the jail: `IP:PORT` for TCP, the path for a unix socket. */
  jail: string;
  socketPath: string;
}

/**
 * The address each service's name gets inside the jail: its own, per name, away from 127.0.0.1,
 * Debian's 127.0.1.1 and every address a service declares by IP literal.
 */
function nameAddresses(services: readonly Service[]): Map<string, string> {
  const taken = new Set(services.flatMap((s) => (s.kind === "tcp" && net.isIP(s.host) !== 0 ? [s.host] : [])));
  const names = new Map<string, string>();
  let next = 1;
  for (const s of services) {
    if (s.kind !== "tcp" || s.host === "localhost" || net.isIP(s.host) !== 0 || names.has(s.host)) continue;
    while (taken.has(`127.0.2.${next}`)) next++;
    names.set(s.host, `127.0.2.${next++}`);
  }
  return names;
}

function planForwards(dir: string, services: readonly Service[]): { forwards: Forward[]; names: Map<string, string> } {
  const names = nameAddresses(services);
  const forwards = services.map((service, i): Forward => {
    const socketPath = join(dir, `service-${i}.sock`);
    if (service.kind === "unix") return { service, jail: service.path, socketPath };
    const address = service.host === "localhost" ? "127.0.0.1" : (names.get(service.host) ?? service.host);
    return { service, jail: formatEndpoint(address, service.port), socketPath };
  });
  return { forwards, names };
}

function resolvConfText(): string {
  return `# envelope-gate: the jail's resolver (docs/egress.md)\nnameserver ${RESOLVER_ADDRESS.host}\noptions edns0\n`;
}

function unavailable(service: Service, why: string): Refusal {
  return new Refusal("SERVICE_UNAVAILABLE", `the service ${service.source} is not answering (${why})`, {
    hint: "Start it as a job service with a health check so that the job waits for it (docs/authoring.md#suites-with-services), or remove it from the envelope's services.",
  });
}

/** The real address a TCP service is reached at: a name's addresses, never link-local (metadata). */
async function serviceTargets(service: Extract<Service, { kind: "tcp" }>): Promise<string[]> {
  if (net.isIP(service.host) !== 0) return [service.host];
  const found = await lookup(service.host, { all: true, verbatim: true });
  return found.map((a) => a.address).filter((a) => !localOnly(a) || /^127\.|^::1$/.test(a));
}

/** One connect, given up after `timeoutMs`. */
function connectOnce(options: net.NetConnectOpts, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(options);
    s.setTimeout(timeoutMs, () => s.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    s.once("connect", () => {
      s.setTimeout(0);
      s.removeAllListeners("error");
      resolve(s);
    });
    s.once("error", reject);
  });
}

/** The real service, connected: each of its addresses in turn; the last failure when none answers. */
async function connectService(service: Service, timeoutMs: number): Promise<net.Socket> {
  if (service.kind === "unix") return connectOnce({ path: service.path }, timeoutMs);
  const targets = await serviceTargets(service);
  if (targets.length === 0) throw new Error("its name leads only to link-local addresses");
  let last: unknown = null;
  for (const host of targets) {
    try {
      return await connectOnce({ host, port: service.port }, timeoutMs);
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/** A refused or failed service connection's reason, as a record carries it. */
function reasonOf(err: unknown): string {
  return errnoOf(err) ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Starts the holder and the resolver and forwards behind it. Every declared service is probed
 * first: one that does not accept a connection is SERVICE_UNAVAILABLE, and the run never starts.
 */
export async function startJailNetwork(options: JailNetworkOptions): Promise<JailNetwork> {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const timeoutMs = options.probeTimeoutMs ?? 10_000;
  for (const service of options.services) {
    let socket: net.Socket;
    try {
      socket = await connectService(service, timeoutMs);
    } catch (err) {
      throw unavailable(service, reasonOf(err));
    }
    socket.destroy();
  }
  const { forwards, names } = planForwards(options.dir, options.services);
  const resolvConf = join(options.dir, "resolv.conf");
  writeFileSync(resolvConf, resolvConfText(), { mode: 0o644 });

  const open = new Set<() => void>();
  let closing = false;
  const servers: net.Server[] = [];
  const network: JailNetwork = {
    prefix: [],
    resolvConf,
    hostsLines: [...names].map(([name, address]) => `${address}\t${name}`),
    unixServices: forwards.filter((f) => f.service.kind === "unix").map((f) => ({ jail: f.jail, host: f.socketPath })),
    plumbing: [
      RESOLVER_ADDRESS,
      ...forwards.flatMap((f) => {
        if (f.service.kind === "unix") return [];
        const host = f.jail.startsWith("[") ? f.jail.slice(1, f.jail.indexOf("]")) : f.jail.slice(0, f.jail.lastIndexOf(":"));
        return [{ host, port: f.service.port }];
      }),
    ],
    meta: {
      resolver: `${RESOLVER_ADDRESS.host}:${RESOLVER_ADDRESS.port}`,
      services: forwards.map((f) => ({ service: f.service.source, jail: f.jail })),
    },
    record: () => undefined,
    lost: null,
    onLost: null,
    settle: () => {
      for (const end of [...open]) end();
    },
    close: async () => {
      closing = true;
      network.settle();
      holder?.stdin?.end();
      holder?.kill("SIGKILL");
      await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined)))));
    },
  };

  const resolver = net.createServer((conn) => {
    const frames = new DnsFrameReader();
    conn.on("error", () => undefined);
    conn.on("data", (chunk: Buffer) => {
      let queries: Buffer[];
      try {
        queries = frames.push(chunk);
      } catch {
        conn.destroy();
        return;
      }
      for (const message of queries) {
        void answer(message, names, options.nameAllowed, (r) => network.record(r)).then((reply) => {
          if (!conn.destroyed) conn.write(frameMessage(reply));
        });
      }
    });
  });
  resolver.maxConnections = 128;
  servers.push(resolver);
  await listenUnix(resolver, join(options.dir, "dns.sock"));

  for (const forward of forwards) {
    const server = net.createServer((conn) => carry(forward.service, conn, timeoutMs, open, (r) => network.record(r)));
    servers.push(server);
    await listenUnix(server, forward.socketPath);
  }

  let holder: ChildProcess | null = null;
  const tcpArgs = forwards.filter((f) => f.service.kind === "tcp").flatMap((f) => ["--tcp", `${f.jail}=${f.socketPath}`]);
  const root = process.geteuid?.() === 0;
  const uid = String(process.getuid?.() ?? 0);
  const gid = String(process.getgid?.() ?? 0);
  holder = spawn(
    options.bwrap,
    [
      "--unshare-user",
      "--unshare-net",
      "--uid",
      uid,
      "--gid",
      gid,
      "--cap-drop",
      "ALL",
      "--cap-add",
      "CAP_NET_BIND_SERVICE",
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--die-with-parent",
      "--",
      options.nodeBinary,
      options.holderBundle,
      "--dns",
      `${RESOLVER_ADDRESS.host}:${RESOLVER_ADDRESS.port}=${join(options.dir, "dns.sock")}`,
      ...tcpArgs,
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
  );
  const watched = watchHolder(holder);
  const pid = await watched.ready;
  if (pid === null) {
    await network.close();
    throw new Refusal("JAIL_UNAVAILABLE", `the jail's network namespace cannot be set up (${watched.error() ?? "it ended"})`, {
      hint: "bubblewrap must be able to make a user and network namespace (docs/action.md, Prerequisites).",
    });
  }
  holder.once("exit", (code, signal) => {
    if (closing) return;
    const said = watched.error();
    const why = `the jail's network holder ended (${signal ?? `exit ${String(code)}`}${said !== null ? `: ${said}` : ""})`;
    network.lost = why;
    network.onLost?.(why);
  });
  network.prefix = root
    ? [options.nsenter, `--net=/proc/${pid}/ns/net`, "--"]
    : [options.nsenter, `--user=/proc/${pid}/ns/user`, `--net=/proc/${pid}/ns/net`, "--preserve-credentials", "--"];
  return network;
}

/** The holder's pid once it says it is ready (null if it ends first), and the first line it wrote on stderr. */
function watchHolder(holder: ChildProcess): { ready: Promise<number | null>; error: () => string | null } {
  let stderr = "";
  holder.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const ready = new Promise<number | null>((settle) => {
    let out = "";
    holder.stdout?.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      const m = /^ready (\d+)\n/.exec(out);
      if (m) settle(Number(m[1]));
    });
    holder.once("error", () => settle(null));
    holder.once("exit", () => settle(null));
  });
  return { ready, error: () => stderr.trim().split("\n")[0] || null };
}

function listenUnix(server: net.Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.removeAllListeners("error");
      server.on("error", () => undefined);
      resolve();
    });
  });
}

/** One connection from the jail to a declared service: connected, piped both ways, counted, recorded once when it ends. */
function carry(service: Service, conn: net.Socket, timeoutMs: number, open: Set<() => void>, record: (r: NetworkRecord) => void): void {
  const host = service.kind === "unix" ? `unix:${service.path}` : service.host;
  const port = service.kind === "unix" ? null : service.port;
  let bytesIn = 0;
  let bytesOut = 0;
  let recorded = false;
  let upstream: net.Socket | null = null;
  const end = (ok: boolean, reason?: string): void => {
    if (recorded) return;
    recorded = true;
    open.delete(settle);
    conn.destroy();
    upstream?.destroy();
    record({ kind: "service", host, port, ok, bytesIn, bytesOut, ...(reason !== undefined ? { reason } : {}) });
  };
  const settle = (): void => end(upstream !== null);
  open.add(settle);
  conn.on("error", () => undefined);
  conn.pause();
  connectService(service, timeoutMs).then(
    (socket) => {
      upstream = socket;
      if (recorded || conn.destroyed) {
        end(true);
        return;
      }
      socket.on("error", () => undefined);
      conn.on("data", (d: Buffer) => (bytesOut += d.length));
      socket.on("data", (d: Buffer) => (bytesIn += d.length));
      conn.once("close", () => end(true));
      socket.once("close", () => end(true));
      conn.pipe(socket);
      socket.pipe(conn);
      conn.resume();
    },
    (err: unknown) => end(false, `upstream: ${reasonOf(err)}`),
  );
}

/** In-addr and ip6 reverse names of loopback addresses: the jail's own, answered "no such name" and not recorded. */
function isLoopbackReverse(name: string): boolean {
  return /(?:^|\.)127\.in-addr\.arpa$/.test(name) || name === `1.${"0.".repeat(31)}ip6.arpa`;
}

async function answer(
  message: Buffer,
  names: ReadonlyMap<string, string>,
  nameAllowed: (name: string) => boolean,
  record: (r: NetworkRecord) => void,
): Promise<Buffer> {
  const parsed = parseQuery(message);
  if (!parsed.ok) return buildError(parsed.id, RCODE.FORMERR);
  const query = parsed.query;
  const name = query.name;
  if (query.opcode !== 0) {
    record({ kind: "lookup", name, allowed: false });
    return buildAnswer(query, { rcode: RCODE.NOTIMP });
  }
  if (name === "localhost" || name.endsWith(".localhost")) {
    return buildAnswer(query, { rcode: RCODE.NOERROR, addresses: ["127.0.0.1", "::1"] });
  }
  if (isLoopbackReverse(name)) return buildAnswer(query, { rcode: RCODE.NXDOMAIN });
  const service = names.get(name);
  if (service !== undefined) {
    record({ kind: "lookup", name, allowed: true });
    return buildAnswer(query, { rcode: RCODE.NOERROR, addresses: [service] });
  }
  let allowed: boolean;
  try {
    allowed = nameAllowed(name);
  } catch {
    allowed = false;
  }
  record({ kind: "lookup", name, allowed });
  if (!allowed) return buildAnswer(query, { rcode: RCODE.REFUSED });
  return resolved(query);
}

/** An allowed name, resolved as the egress proxy resolves it: never to this host's loopback or link-local addresses. */
async function resolved(query: DnsQuery): Promise<Buffer> {
  if (query.type !== DNS_TYPE.A && query.type !== DNS_TYPE.AAAA) return buildAnswer(query, { rcode: RCODE.NOERROR });
  try {
    const found = await lookup(query.name, { all: true, verbatim: true });
    return buildAnswer(query, { rcode: RCODE.NOERROR, addresses: found.map((a) => a.address).filter((a) => !localOnly(a)) });
  } catch (err) {
    const code = errnoOf(err);
    return buildAnswer(query, { rcode: code === "ENOTFOUND" || code === "ENODATA" ? RCODE.NXDOMAIN : RCODE.SERVFAIL });
  }
}
