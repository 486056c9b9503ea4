/**
 * Turns hook messages and strace events into log events. The rules (docs/observer.md, "Merging"):
 *
 * - Hook records can add events, never take a process-level one away: with the process
 *   observer live, everything it reports is written.
 * - write: with the process observer live the hooks leave writes to it (preload-config.json);
 *   any hook write record that still arrives is written as well. Under Node-only observation
 *   the hooks are the only record.
 * - exec: with the process observer live only its execs are written (it sees the real execve of
 *   every program); hook exec records are kept only under Node-only observation.
 * - host: hook records (by name) are always written. A process-level connect or send is
 *   written once per (process, address, port); when the same process's hooks noted that they
 *   connected that address for a name, the line carries the name as `via`. Under allowlist the
 *   egress proxy writes each request it gets (`source: "proxy"`, the destination by name), and
 *   connects to the relay that leads to it are not written again by either observer.
 * - env and tool come only from the hooks; `syscall` (a refused call) only from the process observer.
 */
import { isWriteOp, type Emitted, type ExecEvent, type HostEvent } from "../core/log-format.js";
import { RUNTIME_ENV_KEYS } from "../core/rules.js";
import type { EgressRecord } from "./egress.js";
import type { NetworkRecord } from "./jail-network.js";
import type { ProcessEvent } from "./process-event.js";

export class ChannelMessageError extends Error {}

function text(value: unknown, field: string, kind: string): string {
  if (typeof value !== "string" || value === "" || value.includes("\u0000")) {
    throw new ChannelMessageError(`a ${kind} message needs a non-empty string "${field}"`);
  }
  return value;
}

function absolutePath(value: unknown, field: string, kind: string): string {
  const p = text(value, field, kind);
  if (!p.startsWith("/")) throw new ChannelMessageError(`a ${kind} message has a relative "${field}"`);
  return p;
}

function integer(value: unknown, field: string, kind: string): number {
  if (!Number.isInteger(value)) throw new ChannelMessageError(`a ${kind} message needs an integer "${field}"`);
  return value as number;
}

function mappedV4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

interface MergerOptions {
  processObserverLive: boolean;
  /**
   * Under allowlist, the relay's address inside the jail: connects to it are the way out, and
   * the proxy records each request with its real destination, so they are not written twice.
   */
  egressEndpoint?: { host: string; port: number } | null;
  /**
   * The jail's resolver and the declared services' addresses inside the jail (jail-network.ts):
   * connects to them are plumbing, and the resolver and the forward record what they carried.
   */
  plumbing?: readonly { host: string; port: number }[];
  /** The path to record for a path the hooks saw in the jail (its /tmp is the run's scratch). */
  recordPath?: (path: string) => string;
  /** Every event of this stage is a self-check canary: recorded, marked, never merged away. */
  canary: boolean;
  emit: (event: Emitted) => void;
}

export class Merger {
  private readonly options: MergerOptions;
  /** `${pid}\0${address}\0${port}` the hooks connected to -> the name they connected by. */
  private readonly hookedAddresses = new Map<string, string>();
  /** `${pid}\0${port}` -> the last name the hooks connected to on that port. */
  private readonly lastHookName = new Map<string, string>();
  private readonly processHostsSeen = new Set<string>();

  /** Maps a pid the hooks report (the jail's) to the process observer's (the host's). */
  pidOfHook: (hookPid: number) => number | null = (pid) => pid;

  constructor(options: MergerOptions) {
    this.options = options;
  }

  private out(event: Emitted): void {
    if (this.options.canary) event.canary = true;
    this.options.emit(event);
  }

  /** One parsed JSON message from the hooks' channel. Throws ChannelMessageError on anything unexpected. */
  fromHook(message: unknown): void {
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      throw new ChannelMessageError("a channel message is not a JSON object");
    }
    const m = message as Record<string, unknown>;
    const kind = m.kind;
    const pid = integer(m.pid, "pid", String(kind));
    const ts = typeof m.ts === "number" ? m.ts : undefined;
    // What every hook event carries after its kind, in this order.
    const head = ts !== undefined ? { ts, pid } : { pid };
    switch (kind) {
      case "write": {
        const seen = absolutePath(m.path, "path", kind);
        const path = this.options.recordPath?.(seen) ?? seen;
        const op = text(m.op, "op", kind);
        if (!isWriteOp(op)) throw new ChannelMessageError(`a write message has an unknown op "${op}"`);
        // The hottest record: built directly (same fields, same order as head gives).
        this.out(
          ts !== undefined ? { kind: "write", ts, pid, path, op, source: "node" } : { kind: "write", pid, path, op, source: "node" },
        );
        return;
      }
      case "env": {
        const key = text(m.key, "key", kind);
        const op = text(m.op, "op", kind);
        const runtime = m.origin === "internal" && RUNTIME_ENV_KEYS.has(key);
        this.out({ kind: "env", ...head, key, op, source: runtime ? "runtime" : "node" });
        return;
      }
      case "host": {
        const host = text(m.host, "host", kind);
        const proto = text(m.proto, "proto", kind);
        const port = m.port !== undefined ? integer(m.port, "port", kind) : undefined;
        if (this.isEgress(host, port)) return;
        const outer = this.pidOfHook(pid);
        if (outer !== null && proto !== "dns" && port !== undefined) this.lastHookName.set(`${outer}\0${String(port)}`, host);
        this.out({ kind: "host", ...head, host, ...(port !== undefined ? { port } : {}), proto, source: "node" });
        return;
      }
      case "note": {
        const address = mappedV4(text(m.address, "address", kind));
        const port = integer(m.port, "port", kind);
        const outer = this.pidOfHook(pid);
        const name = outer === null ? undefined : this.lastHookName.get(`${outer}\0${port}`);
        if (name !== undefined && name !== address) this.hookedAddresses.set(`${outer}\0${address}\0${port}`, name);
        return;
      }
      case "exec": {
        const path = absolutePath(m.path, "path", kind);
        const argv = m.argv;
        if (!Array.isArray(argv) || !argv.every((a): a is string => typeof a === "string")) {
          throw new ChannelMessageError(`an exec message needs "argv" as an array of strings`);
        }
        if (this.options.processObserverLive && !this.options.canary) return;
        const event: Emitted<ExecEvent> = { kind: "exec", ...head, path, argv };
        if (m.cwd !== undefined) event.cwd = absolutePath(m.cwd, "cwd", kind);
        event.source = "node";
        this.out(event);
        return;
      }
      case "tool": {
        const name = text(m.name, "name", kind);
        this.out({ kind: "tool", ...head, name, source: "sdk" });
        return;
      }
      default:
        throw new ChannelMessageError(`unknown channel message kind ${JSON.stringify(kind)}`);
    }
  }

  private isEgress(host: string, port: number | undefined): boolean {
    const e = this.options.egressEndpoint;
    if (e !== null && e !== undefined && port === e.port && (host === e.host || host === "localhost")) return true;
    const plain = mappedV4(host);
    return (this.options.plumbing ?? []).some(
      (p) => port === p.port && (plain === p.host || (host === "localhost" && p.host === "127.0.0.1")),
    );
  }

  /** A lookup the jail's resolver answered or refused, or a connection the forward to a service carried. */
  fromNetwork(record: NetworkRecord): void {
    if (record.kind === "lookup") {
      const event: Emitted<HostEvent> = { kind: "host", ts: Date.now(), host: record.name, proto: "dns" };
      if (!record.allowed) event.ok = false;
      event.source = "resolver";
      this.out(event);
      return;
    }
    const event: Emitted<HostEvent> = { kind: "host", ts: Date.now(), host: record.host };
    if (record.port !== null) event.port = record.port;
    event.proto = record.port === null ? "unix" : "tcp";
    if (!record.ok) event.ok = false;
    event.source = "service";
    event.bytes_in = record.bytesIn;
    event.bytes_out = record.bytesOut;
    this.out(event);
  }

  /** One request the egress proxy decided on. */
  fromEgress(record: EgressRecord): void {
    const event: Emitted<HostEvent> = { kind: "host", ts: Date.now(), host: record.host, port: record.port, proto: record.proto };
    if (!record.allowed) event.ok = false;
    event.source = "proxy";
    this.out(event);
    // A TLS hello naming another host than the tunnel's (fronting) is an attempt on that host: judged by its own name.
    if (record.sni !== undefined && record.sni !== record.host) {
      const named: Emitted<HostEvent> = { kind: "host", ts: event.ts, host: record.sni, port: record.port, proto: record.proto };
      if (!record.allowed) named.ok = false;
      named.source = "proxy";
      this.out(named);
    }
  }

  fromProcess(event: ProcessEvent): void {
    const ts = Date.now();
    switch (event.kind) {
      case "write":
        // A path that cannot be known is said as such, never judged: check refuses the log.
        if (event.pathUnknown !== undefined) {
          this.out({
            kind: "write",
            ts,
            pid: event.tgid,
            path: event.path,
            op: event.op,
            path_unknown: event.pathUnknown,
            source: "process",
          });
          return;
        }
        this.out(
          event.refused === true
            ? { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, ok: false, source: "process" }
            : event.errno !== undefined
              ? { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, errno: event.errno, source: "process" }
              : { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, source: "process" },
        );
        return;
      case "exec": {
        this.out({
          kind: "exec",
          ts,
          pid: event.tgid,
          ...(event.ppid !== null ? { ppid: event.ppid } : {}),
          // The pid the Node hooks' lines carry for this process (the jail's): joins them to this exec.
          ...(event.jailPid !== undefined ? { jail_pid: event.jailPid } : {}),
          path: event.path,
          argv: event.argv,
          ...(event.interpreter !== undefined ? { interpreter: event.interpreter } : {}),
          source: "process",
        });
        return;
      }
      case "host": {
        const key = `${event.tgid}\0${event.host}\0${event.port}`;
        if (!this.options.canary) {
          if (this.isEgress(event.host, event.port)) return;
          if (this.processHostsSeen.has(key)) return;
          this.processHostsSeen.add(key);
        }
        const out: Emitted<HostEvent> = { kind: "host", ts, pid: event.tgid, host: event.host, port: event.port, proto: event.proto };
        const via = this.hookedAddresses.get(key);
        if (via !== undefined) out.via = via;
        out.source = "process";
        this.out(out);
        return;
      }
      case "unix": {
        const key = `${event.tgid}\0unix:${event.address}`;
        if (!this.options.canary) {
          if (this.processHostsSeen.has(key)) return;
          this.processHostsSeen.add(key);
        }
        this.out({ kind: "host", ts, pid: event.tgid, host: `unix:${event.address}`, proto: event.proto, source: "process" });
        return;
      }
      case "forbidden":
        this.out({ kind: "syscall", ts, pid: event.tgid, name: event.name, source: "process" });
        return;
      case "channel":
        return;
    }
  }
}
