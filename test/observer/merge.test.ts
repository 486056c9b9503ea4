import { describe, expect, it } from "vitest";
import type { Emitted } from "../../src/core/log-format.js";
import { ChannelMessageError, Merger } from "../../src/observer/merge.js";

function merger(processObserverLive = true, canary = false): { m: Merger; out: Emitted[] } {
  const out: Emitted[] = [];
  return { m: new Merger({ processObserverLive, canary, emit: (e) => out.push(e) }), out };
}

const strip = (events: Emitted[]): Record<string, unknown>[] => events.map(({ ts: _ts, ...rest }) => rest);

describe("merging the two observers", () => {
  it("writes: hook records never take a process-level one away; both are written", () => {
    const { m, out } = merger();
    m.fromHook({ kind: "write", pid: 10, path: "/w/a", op: "write" });
    m.fromProcess({ kind: "write", tgid: 10, path: "/w/a", op: "create" });
    m.fromProcess({ kind: "write", tgid: 10, path: "/w/a", op: "create" });
    m.fromProcess({ kind: "write", tgid: 11, path: "/w/b", op: "create", refused: true });
    expect(strip(out)).toEqual([
      { kind: "write", pid: 10, path: "/w/a", op: "write", source: "node" },
      { kind: "write", pid: 10, path: "/w/a", op: "create", source: "process" },
      { kind: "write", pid: 10, path: "/w/a", op: "create", source: "process" },
      { kind: "write", pid: 11, path: "/w/b", op: "create", ok: false, source: "process" },
    ]);
  });

  it("hosts: process-level connects are all kept (once per address); a noted name rides along as via, never as a replacement", () => {
    const { m, out } = merger();
    m.fromHook({ kind: "host", pid: 10, host: "api.example.com", port: 443, proto: "tcp" });
    m.fromHook({ kind: "note", pid: 10, address: "::ffff:93.184.216.34", port: 443 });
    m.fromProcess({ kind: "host", tgid: 10, host: "10.0.0.53", port: 53, proto: "connect" });
    m.fromProcess({ kind: "host", tgid: 10, host: "93.184.216.34", port: 443, proto: "connect" });
    m.fromProcess({ kind: "host", tgid: 10, host: "203.0.113.9", port: 443, proto: "connect" });
    m.fromProcess({ kind: "host", tgid: 10, host: "203.0.113.9", port: 443, proto: "connect" });
    // A forged note for an address nobody connected to by name changes nothing.
    m.fromHook({ kind: "note", pid: 12, address: "198.51.100.7", port: 80 });
    m.fromProcess({ kind: "host", tgid: 12, host: "198.51.100.7", port: 80, proto: "connect" });
    expect(strip(out)).toEqual([
      { kind: "host", pid: 10, host: "api.example.com", port: 443, proto: "tcp", source: "node" },
      { kind: "host", pid: 10, host: "10.0.0.53", port: 53, proto: "connect", source: "process" },
      { kind: "host", pid: 10, host: "93.184.216.34", port: 443, proto: "connect", via: "api.example.com", source: "process" },
      { kind: "host", pid: 10, host: "203.0.113.9", port: 443, proto: "connect", source: "process" },
      { kind: "host", pid: 12, host: "198.51.100.7", port: 80, proto: "connect", source: "process" },
    ]);
  });

  it("under allowlist, the proxy's records are written by name and the relay's own address by neither observer", () => {
    const out: Emitted[] = [];
    const m = new Merger({
      processObserverLive: true,
      egressEndpoint: { host: "127.0.0.1", port: 3128 },
      canary: false,
      emit: (e) => out.push(e),
    });
    m.fromHook({ kind: "host", pid: 10, host: "127.0.0.1", port: 3128, proto: "tcp" });
    m.fromProcess({ kind: "host", tgid: 10, host: "127.0.0.1", port: 3128, proto: "connect" });
    m.fromEgress({ host: "registry.npmjs.org", port: 443, proto: "connect", allowed: true, address: "104.16.0.1" });
    m.fromEgress({ host: "exfil.example.net", port: 443, proto: "connect", allowed: false, reason: "not allowed" });
    m.fromProcess({ kind: "host", tgid: 10, host: "127.0.0.1", port: 3129, proto: "connect" });
    expect(strip(out)).toEqual([
      { kind: "host", host: "registry.npmjs.org", port: 443, proto: "connect", source: "proxy" },
      { kind: "host", host: "exfil.example.net", port: 443, proto: "connect", ok: false, source: "proxy" },
      { kind: "host", pid: 10, host: "127.0.0.1", port: 3129, proto: "connect", source: "process" },
    ]);
  });

  it("unix sockets become hosts named unix:<path>, and refused calls syscall events", () => {
    const { m, out } = merger();
    m.fromProcess({ kind: "unix", tgid: 10, address: "/run/docker.sock", proto: "connect" });
    m.fromProcess({ kind: "forbidden", tgid: 10, name: "open_by_handle_at" });
    expect(strip(out)).toEqual([
      { kind: "host", pid: 10, host: "unix:/run/docker.sock", proto: "connect", source: "process" },
      { kind: "syscall", pid: 10, name: "open_by_handle_at", source: "process" },
    ]);
  });

  it("execs come from the process observer when it is live, from the hooks under --node-only", () => {
    const full = merger(true);
    full.m.fromHook({ kind: "exec", pid: 10, path: "/bin/sh", argv: ["/bin/sh", "-c", "x"] });
    full.m.fromProcess({ kind: "exec", tgid: 11, ppid: 10, path: "/bin/sh", argv: ["/bin/sh", "-c", "x"] });
    expect(strip(full.out)).toEqual([
      { kind: "exec", pid: 11, ppid: 10, path: "/bin/sh", argv: ["/bin/sh", "-c", "x"], source: "process" },
    ]);
    const nodeOnly = merger(false);
    nodeOnly.m.fromHook({ kind: "exec", pid: 10, path: "/bin/sh", argv: ["/bin/sh", "-c", "x"], cwd: "/w" });
    expect(strip(nodeOnly.out)).toEqual([
      { kind: "exec", pid: 10, path: "/bin/sh", argv: ["/bin/sh", "-c", "x"], cwd: "/w", source: "node" },
    ]);
  });

  it("env reads by Node's own code of a runtime key are source runtime; anything else is judged", () => {
    const { m, out } = merger();
    m.fromHook({ kind: "env", pid: 1, key: "FORCE_COLOR", op: "get", origin: "internal" });
    m.fromHook({ kind: "env", pid: 1, key: "FORCE_COLOR", op: "get", origin: "user" });
    m.fromHook({ kind: "env", pid: 1, key: "AWS_SECRET_ACCESS_KEY", op: "get", origin: "internal" });
    expect(out.map((e) => (e.kind === "env" ? `${e.key}:${e.source}` : e.kind))).toEqual([
      "FORCE_COLOR:runtime",
      "FORCE_COLOR:node",
      "AWS_SECRET_ACCESS_KEY:node",
    ]);
  });

  it("canary stage: everything is kept and marked", () => {
    const { m, out } = merger(true, true);
    m.fromHook({ kind: "write", pid: 1, path: "/s/c", op: "write" });
    m.fromProcess({ kind: "write", tgid: 1, path: "/s/c", op: "create" });
    expect(out.map((e) => [e.source, e.canary])).toEqual([
      ["node", true],
      ["process", true],
    ]);
  });

  it("refuses anything the preload does not send", () => {
    const { m } = merger();
    for (const bad of [
      null,
      [],
      { kind: "write", pid: 1, path: "relative", op: "write" },
      { kind: "write", pid: 1, path: "/x", op: "explode" },
      { kind: "meta", pid: 1 },
      { kind: "end", pid: 1, events: 3, exit_code: 0 },
      { kind: "tool", pid: "1", name: "x" },
      { kind: "host", pid: 1, host: "", proto: "tcp" },
      { kind: "exec", pid: 1, path: "/bin/x", argv: [1] },
    ]) {
      expect(() => m.fromHook(bad)).toThrow(ChannelMessageError);
    }
  });
});
