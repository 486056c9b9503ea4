import { describe, expect, it } from "vitest";
import type { Envelope } from "../../src/core/envelope.js";
import { envelopeJson, lineDiff, suggestEnvelope, type RecordedLog } from "../../src/core/suggest.js";

const meta = {
  v: 1,
  kind: "meta",
  run_id: "r",
  envelope_hash: "sha256:x",
  runner: "m",
  started_at: "t",
  observers: ["node", "process"],
  network_enforced: true,
  workspace: "/work/repo",
  scratch: "/tmp/s",
};
const log = (events: Record<string, unknown>[], extra: Record<string, unknown> = {}): RecordedLog => ({
  file: "o.jsonl",
  lines: [{ ...meta, ...extra }, ...events.map((e) => ({ v: 1, ...e })), { v: 1, kind: "end", events: events.length + 1, exit_code: 0 }],
});
const env = (key: string, source = "node") => ({ kind: "env", key, source });

describe("suggest: the tightest envelope that passes, explained", () => {
  it("folds a family of keys into a prefix pattern only where three or more show, and never secrets", () => {
    const s = suggestEnvelope(
      [
        log([
          env("TSC_WATCHFILE"),
          env("TSC_WATCHDIRECTORY"),
          env("TSC_NONPOLLING_WATCHER"),
          env("VITEST"),
          env("VITEST_POOL_ID"),
          env("VITEST_MODE"),
          env("CI"),
          env("AWS_REGION"),
          env("AWS_SECRET_ACCESS_KEY"),
          env("AWS_SESSION_TOKEN"),
          env("FORCE_COLOR", "runtime"),
        ]),
      ],
      null,
    );
    expect(s.envelope.allowed_env).toEqual(["TSC_*", "VITEST*", "AWS_REGION", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "CI"]);
    expect(s.added.find((a) => a.entry === "TSC_*")).toMatchObject({
      covers: ["TSC_NONPOLLING_WATCHER", "TSC_WATCHDIRECTORY", "TSC_WATCHFILE"],
      count: 3,
      first: "o.jsonl:2",
    });
  });

  it("folds detection keys into a named set where three or more of it show; a credential-named key stays on its own", () => {
    const s = suggestEnvelope(
      [
        log([
          env("CIRCLECI"),
          env("TRAVIS"),
          env("GITLAB_CI"),
          env("CI"),
          env("CLAUDECODE"),
          env("CURSOR_AGENT"),
          env("TERM"),
          env("INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN"),
          env("GITHUB_ACTIONS"),
          env("GITHUB_SHA"),
          env("GITHUB_REF"),
          env("GITHUB_TOKEN"),
          env("GITHUB_REPOSITORY"),
          env("GITHUB_RUN_ID"),
        ]),
      ],
      null,
    );
    // Two agent keys and one terminal key are no family: listed exactly. A run-identity key
    // (GITHUB_RUN_ID) is never covered by a pattern: listed exactly too.
    expect(s.envelope.allowed_env).toEqual([
      "@ci",
      "GITHUB_*",
      "CLAUDECODE",
      "CURSOR_AGENT",
      "GITHUB_RUN_ID",
      "GITHUB_TOKEN",
      "INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN",
      "TERM",
    ]);
    expect(s.added.find((a) => a.entry === "@ci")?.covers).toEqual(["CI", "CIRCLECI", "GITHUB_ACTIONS", "GITLAB_CI", "TRAVIS"]);
  });

  it("adds the directories written outside the roots, written with ${WORKSPACE}/${SCRATCH} where they lie under them", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "write", path: "/work/repo/src/a.ts", op: "write" },
          { kind: "write", path: "/var/cache/tool/x", op: "create" },
          { kind: "write", path: "/var/cache/tool/deep/y", op: "create" },
          { kind: "write", path: "/etc/z", op: "write", canary: true },
        ]),
      ],
      null,
    );
    expect(s.envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}", "/var/cache/tool"]);
    expect(s.added[0]?.covers).toEqual(["/var/cache/tool/deep/y", "/var/cache/tool/x"]);
  });

  it("turns observed hosts into an allowlist by name; loopback in the run's own namespace is not a host; a unix socket is only a note", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "host", host: "registry.npmjs.org", port: 443, proto: "connect", source: "proxy" },
          { kind: "host", host: "127.0.0.1", port: 5173, proto: "connect", source: "process" },
          { kind: "host", host: "localhost", proto: "dns", source: "node" },
          { kind: "host", host: "unix:/run/docker.sock", proto: "connect", source: "process" },
        ]),
      ],
      null,
    );
    expect(s.envelope.network).toBe("allowlist");
    expect(s.envelope.allowed_hosts).toEqual(["registry.npmjs.org:443"]);
    expect(s.notes.join("\n")).toContain("unix:/run/docker.sock");
  });

  it("widens an existing envelope only where the evidence needs it, keeps what it has, and says why a run is no clean run", () => {
    const from: Envelope = {
      envelope_id: "e",
      allowed_roots: ["${WORKSPACE}"],
      allowed_tools: ["read_file"],
      allowed_env: ["PATH", "TAP_*"],
      allowed_hosts: [],
      network: "deny",
      allowed_commands: ["node"],
    };
    const s = suggestEnvelope(
      [
        log([
          env("TAP_TIMEOUT"),
          env("PATH"),
          { kind: "tool", name: "apply_patch" },
          { kind: "exec", path: "/usr/bin/git", argv: ["git"] },
          { kind: "exec", path: "/usr/bin/node", argv: ["node"] },
          { kind: "syscall", name: "ptrace" },
        ]),
      ],
      from,
    );
    expect(s.envelope.allowed_env).toEqual(["PATH", "TAP_*"]);
    expect(s.envelope.allowed_tools).toEqual(["read_file", "apply_patch"]);
    expect(s.envelope.allowed_commands).toEqual(["node", "/usr/bin/git"]);
    expect(s.notes.join("\n")).toContain("ptrace");
    expect(from.allowed_tools).toEqual(["read_file"]);
  });

  it("refuses a log that did not finish", () => {
    expect(() => suggestEnvelope([{ file: "cut.jsonl", lines: [meta] }], null)).toThrow(/finished run/);
  });

  it("writes the envelope in the contract's key order and diffs it line by line", () => {
    const text = envelopeJson({
      network: "deny",
      envelope_id: "e",
      allowed_hosts: [],
      allowed_env: ["A"],
      allowed_tools: [],
      allowed_roots: ["/r"],
    } as Envelope);
    expect(Object.keys(JSON.parse(text))).toEqual([
      "envelope_id",
      "allowed_roots",
      "allowed_tools",
      "allowed_env",
      "allowed_hosts",
      "network",
    ]);
    expect(lineDiff("a\nb\nc\n", "a\nx\nc\n")).toBe("  a\n- b\n+ x\n  c");
  });
});
