/**
 * Turns hook messages and strace events into log events, and merges the two observers
 * without reporting one fact twice. The dedup rules (docs/observer.md, "Merging"):
 *
 * - write: per process (thread group) and resolved path, the observer that reports it first
 *   owns it; the other observer's reports of that (process, path) are dropped. Repeats from the
 *   same observer are kept.
 * - exec: when the process observer is live it alone records execs (it sees the real execve of
 *   every program, shells included); hook exec records are kept only under --node-only.
 * - host: hook records (by name) are always kept. A process-level connect/send from a process is
 *   dropped when that process's hooks already reported the same address and port (they note
 *   each address a hooked connect resolves to), or when it goes to port 53 from a process whose
 *   hooks reported a DNS lookup (the resolver's own traffic). Other process-level
 *   destinations are recorded once per (process, address, port).
 * - env and tool come only from the hooks.
 */
import { RUNTIME_ENV_KEYS, WRITE_OPS } from "../core/log.js";
import type { ProcessEvent } from "./strace.js";

export type LogEvent = Record<string, unknown> & { kind: string };

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

const IP_V4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function isIpLiteral(host: string): boolean {
  return IP_V4.test(host) || host.includes(":");
}

function mappedV4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] as string) : address;
}

export interface MergerOptions {
  processObserverLive: boolean;
  /** Every event of this stage is a self-check canary: recorded, marked, never merged away. */
  canary: boolean;
  emit: (event: LogEvent) => void;
}

export class Merger {
  private readonly options: MergerOptions;
  /** `${pid}\0${path}` -> the source that reported it first. */
  private readonly writeOwner = new Map<string, string>();
  /** `${pid}\0${address}\0${port}` the hooks resolved or connected to. */
  private readonly hookedAddresses = new Set<string>();
  private readonly dnsUsers = new Set<number>();
  private readonly processHostsSeen = new Set<string>();

  constructor(options: MergerOptions) {
    this.options = options;
  }

  private out(event: LogEvent): void {
    if (this.options.canary) event.canary = true;
    this.options.emit(event);
  }

  private claimWrite(pid: number, path: string, source: string): boolean {
    if (this.options.canary) return true;
    const key = `${pid}\0${path}`;
    const owner = this.writeOwner.get(key);
    if (owner === undefined) {
      this.writeOwner.set(key, source);
      return true;
    }
    return owner === source;
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
    const base = (k: string): LogEvent => {
      const e: LogEvent = { kind: k };
      if (ts !== undefined) e.ts = ts;
      e.pid = pid;
      return e;
    };
    switch (kind) {
      case "write": {
        const path = absolutePath(m.path, "path", kind);
        const op = text(m.op, "op", kind);
        if (!WRITE_OPS.has(op)) throw new ChannelMessageError(`a write message has an unknown op "${op}"`);
        if (!this.claimWrite(pid, path, "node")) return;
        // The hottest record: built directly (same fields, same order as base() gives).
        this.out(ts !== undefined ? { kind: "write", ts, pid, path, op, source: "node" } : { kind: "write", pid, path, op, source: "node" });
        return;
      }
      case "env": {
        const key = text(m.key, "key", kind);
        const op = text(m.op, "op", kind);
        const runtime = m.origin === "internal" && RUNTIME_ENV_KEYS.has(key);
        this.out({ ...base("env"), key, op, source: runtime ? "runtime" : "node" });
        return;
      }
      case "host": {
        const host = text(m.host, "host", kind);
        const proto = text(m.proto, "proto", kind);
        const event: LogEvent = { ...base("host"), host };
        if (m.port !== undefined) event.port = integer(m.port, "port", kind);
        event.proto = proto;
        event.source = "node";
        if (proto === "dns" || !isIpLiteral(host)) this.dnsUsers.add(pid);
        this.out(event);
        return;
      }
      case "note": {
        const address = mappedV4(text(m.address, "address", kind));
        const port = integer(m.port, "port", kind);
        this.hookedAddresses.add(`${pid}\0${address}\0${port}`);
        return;
      }
      case "exec": {
        const path = absolutePath(m.path, "path", kind);
        const argv = m.argv;
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
          throw new ChannelMessageError(`an exec message needs "argv" as an array of strings`);
        }
        if (this.options.processObserverLive && !this.options.canary) return;
        const event: LogEvent = { ...base("exec"), path, argv };
        if (m.cwd !== undefined) event.cwd = absolutePath(m.cwd, "cwd", kind);
        event.source = "node";
        this.out(event);
        return;
      }
      case "tool": {
        const name = text(m.name, "name", kind);
        this.out({ ...base("tool"), name, source: "sdk" });
        return;
      }
      default:
        throw new ChannelMessageError(`unknown channel message kind ${JSON.stringify(kind)}`);
    }
  }

  fromProcess(event: ProcessEvent): void {
    const ts = Date.now();
    switch (event.kind) {
      case "write":
        if (!this.claimWrite(event.tgid, event.path, "process")) return;
        this.out({ kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, source: "process" });
        return;
      case "exec": {
        const out: LogEvent = { kind: "exec", ts, pid: event.tgid };
        if (event.ppid !== null) out.ppid = event.ppid;
        out.path = event.path;
        out.argv = event.argv;
        out.source = "process";
        this.out(out);
        return;
      }
      case "host": {
        if (!this.options.canary) {
          if (this.hookedAddresses.has(`${event.tgid}\0${event.host}\0${event.port}`)) return;
          if (event.port === 53 && this.dnsUsers.has(event.tgid)) return;
          const key = `${event.tgid}\0${event.host}\0${event.port}`;
          if (this.processHostsSeen.has(key)) return;
          this.processHostsSeen.add(key);
        }
        this.out({ kind: "host", ts, pid: event.tgid, host: event.host, port: event.port, proto: event.proto, source: "process" });
        return;
      }
    }
  }
}
