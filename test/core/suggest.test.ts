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
const from0: Envelope = {
  envelope_id: "e",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: [],
  allowed_env: [],
  allowed_hosts: [],
  network: "deny",
};

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
    // git was started by name (argv[0] "git"): PATH found it, its name is the entry.
    expect(s.envelope.allowed_commands).toEqual(["node", "git"]);
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
  it("reads every log against its own meta: a second run's scratch and workspace are variables too, never roots", () => {
    const second = (events: Record<string, unknown>[]): RecordedLog => ({
      ...log(events, { workspace: "/ci/other/repo", scratch: "/var/tmp/s2" }),
      file: "two.jsonl",
    });
    const writes = (ws: string, sc: string) => [
      { kind: "write", path: `${sc}/.envelope-gate-r/home/.cache/x`, op: "create" },
      { kind: "write", path: `${ws}/build/out.o`, op: "create" },
    ];
    const s = suggestEnvelope([log(writes("/work/repo", "/tmp/s")), second(writes("/ci/other/repo", "/var/tmp/s2"))], {
      ...structuredClone(from0),
      allowed_roots: ["${SCRATCH}"],
    });
    expect(s.envelope.allowed_roots).toEqual(["${SCRATCH}", "${WORKSPACE}/build"]);
    expect(s.added[0]).toMatchObject({ covers: ["${WORKSPACE}/build/out.o"], count: 2 });
    expect(JSON.stringify(s)).not.toMatch(/\/var\/tmp\/s2|\/ci\/other/);
  });

  it("honours a given workspace or scratch only where it is each log's own, and refuses it otherwise", () => {
    const other = {
      ...log([]),
      file: "two.jsonl",
      lines: [
        { ...meta, scratch: "/var/tmp/s2" },
        { v: 1, kind: "end", events: 1, exit_code: 0 },
      ],
    };
    expect(suggestEnvelope([log([])], null, { scratch: "/tmp/s/", workspace: "/work/repo" }).added).toEqual([]);
    expect(() => suggestEnvelope([log([]), other], null, { scratch: "/tmp/s" })).toThrow(
      expect.objectContaining({ code: "SUGGEST_ROOT_MISMATCH", file: "two.jsonl" }),
    );
    // A log whose meta does not say takes the given one.
    const bare = log([{ kind: "write", path: "/opt/ws/gen/a", op: "create" }], { workspace: undefined });
    expect(suggestEnvelope([bare], { ...from0, allowed_roots: ["${SCRATCH}"] }, { workspace: "/opt/ws" }).envelope.allowed_roots).toEqual([
      "${SCRATCH}",
      "${WORKSPACE}/gen",
    ]);
  });

  it("suggests a command started by a bare name (PATH found it) as its resolved file's name, else its path; a workspace path is noted", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "exec", path: "/root/.nvm/versions/node/v20.20.2/bin/node", argv: ["node", "x.js"] },
          { kind: "exec", path: "/root/.nvm/versions/node/v20.20.2/bin/node", argv: ["node", "y.js"] },
          { kind: "exec", path: "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", argv: ["/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "-quiet"] },
          { kind: "exec", path: "/work/repo/configure", argv: ["./configure"] },
          { kind: "exec", path: "/usr/bin/dash", argv: ["sh", "-c", "true"] },
        ]),
      ],
      { ...from0, allowed_commands: [] },
    );
    expect(s.envelope.allowed_commands).toEqual(["node", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "/work/repo/configure", "dash"]);
    expect(s.added.find((a) => a.entry === "node")).toMatchObject({ count: 2, first: "o.jsonl:2" });
    expect(s.notes.join("\n")).toContain("/work/repo/configure is listed as recorded");
  });
});
