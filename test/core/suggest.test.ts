import { describe, expect, it } from "vitest";
import type { Envelope } from "../../src/core/envelope.js";
import { envelopeJson, lineDiff, suggestEnvelope, type RecordedLog } from "../../src/core/suggest.js";
import { recordedLog } from "../support/logs.js";

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
const lines = (events: Record<string, unknown>[], extra: Record<string, unknown> = {}, exit: number | null = 0) => [
  { ...meta, ...extra },
  ...events.map((e) => ({ v: 1, ...e })),
  { v: 1, kind: "end", events: events.length + 1, exit_code: exit },
];
const log = (events: Record<string, unknown>[], extra: Record<string, unknown> = {}, exit: number | null = 0): RecordedLog =>
  recordedLog("o.jsonl", lines(events, extra, exit));
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
  it("an audit run's proxy keys seen only by enumerating its environment are not proposed under deny; a read by name is, and outside audit too", () => {
    const proxyKeys = ["HTTP_PROXY", "https_proxy", "NO_PROXY", "NODE_USE_ENV_PROXY"];
    const enumerated = [...proxyKeys, "TMPDIR"].map((key) => ({ kind: "env", key, op: "enumerate", source: "node" }));
    const audited = suggestEnvelope([log(enumerated, { audit: true })], from0);
    expect(audited.envelope.allowed_env).toEqual(["TMPDIR"]);
    expect(audited.envelope.network).toBe("deny");
    expect(audited.notes.join("\n")).toContain(
      "HTTP_PROXY, NODE_USE_ENV_PROXY, NO_PROXY, https_proxy: seen only by enumerating an audit run's environment",
    );
    // By name (a client looking for a proxy), in an audit run: proposed, as an enforced run reads it too.
    const byName = suggestEnvelope([log([{ kind: "env", key: "HTTP_PROXY", op: "get", source: "node" }], { audit: true })], from0);
    expect(byName.envelope.allowed_env).toEqual(["HTTP_PROXY"]);
    // Enumerated in a run that is not an audit: the caller's own keys, proposed as before.
    const plain = suggestEnvelope([log(enumerated)], from0);
    expect([...plain.envelope.allowed_env].sort()).toEqual([...proxyKeys, "TMPDIR"].sort());
  });

  it("folds a family of keys into a prefix pattern only where three or more show, and never proposes secrets", () => {
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
    expect(s.envelope.allowed_env).toEqual(["TSC_*", "VITEST*", "AWS_REGION", "CI"]);
    expect(s.notProposed.map((n) => [n.entry, n.kind])).toEqual([
      ["AWS_SECRET_ACCESS_KEY", "credential"],
      ["AWS_SESSION_TOKEN", "credential"],
    ]);
    expect(s.added.find((a) => a.entry === "TSC_*")).toMatchObject({
      covers: ["TSC_NONPOLLING_WATCHER", "TSC_WATCHDIRECTORY", "TSC_WATCHFILE"],
      count: 3,
      first: "o.jsonl:2",
    });
  });

  it("folds detection keys into a named set where three or more of it show; a credential or run-identity key is listed apart", () => {
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
    // (GITHUB_RUN_ID, the Action's INPUT_*) and a credential are never proposed: listed apart.
    expect(s.envelope.allowed_env).toEqual(["@ci", "GITHUB_*", "CLAUDECODE", "CURSOR_AGENT", "TERM"]);
    expect(s.notProposed.map((n) => [n.entry, n.kind])).toEqual([
      ["GITHUB_RUN_ID", "run_identity"],
      ["GITHUB_TOKEN", "credential"],
      ["INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN", "run_identity"],
    ]);
    expect(s.added.find((a) => a.entry === "@ci")?.covers).toEqual(["CI", "CIRCLECI", "GITHUB_ACTIONS", "GITLAB_CI", "TRAVIS"]);
  });

  it("adds the directories written outside the roots, written with ${WORKSPACE}/${SCRATCH} where they lie under them", () => {
    const s = suggestEnvelope(
      [
        // The canary first: check refuses one after the run's events, and suggest reads as check does.
        log([
          { kind: "write", path: "/etc/z", op: "write", canary: true },
          { kind: "write", path: "/work/repo/src/a.ts", op: "write" },
          { kind: "write", path: "/var/cache/tool/x", op: "create" },
          { kind: "write", path: "/var/cache/tool/deep/y", op: "create" },
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

  it("never proposes a container engine (a docker socket, ports 2375/2376 on any host, loopback too): a note says what to do", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "host", host: "unix:/var/run/docker.sock", proto: "connect", source: "process" },
          { kind: "host", host: "127.0.0.2", port: 2375, proto: "connect", source: "process" },
          { kind: "host", host: "docker.example", port: 2376, proto: "connect", ok: false, source: "proxy" },
          { kind: "host", host: "docker.example", proto: "dns", source: "node" },
          { kind: "host", host: "registry.npmjs.org", port: 443, proto: "connect", source: "proxy" },
        ]),
      ],
      { ...from0, network: "allowlist", loopback: "network" },
    );
    expect(s.envelope.allowed_hosts).toEqual(["registry.npmjs.org:443"]);
    const notes = s.notes.join("\n");
    for (const subject of ["unix:/var/run/docker.sock", "127.0.0.2:2375", "docker.example:2376"]) {
      expect(notes).toContain(
        `o.jsonl:${2 + ["unix:/var/run/docker.sock", "127.0.0.2:2375", "docker.example:2376"].indexOf(subject)}: the run reached for ${subject}, a container engine`,
      );
    }
    expect(notes).toContain("Docker is refused in the jail (its socket is root on the host)");
    expect(notes).toContain("docs/authoring.md#suites-with-services");
  });

  it("gives a host set's first line as the earliest one read, not the smallest text (line 20 before line 100)", () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: "write", path: `/work/repo/f${i}`, op: "write" }));
    const s = suggestEnvelope(
      [
        log([
          { kind: "exec", path: "/usr/bin/npm", argv: ["npm", "ci"], pid: 700, source: "process" },
          ...filler(17),
          // line 20: the first endpoint on the set's names; line 100: the second.
          { kind: "host", host: "registry.yarnpkg.com", port: 443, proto: "connect", source: "proxy" },
          ...filler(79),
          { kind: "host", host: "registry.npmjs.org", port: 443, proto: "connect", source: "proxy" },
        ]),
      ],
      null,
    );
    const npm = s.added.find((a) => a.entry === "@npm");
    expect(npm).toMatchObject({ key: "allowed_hosts", first: "o.jsonl:20", count: 2 });
    expect(npm?.covers.sort()).toEqual(["registry.npmjs.org:443", "registry.yarnpkg.com:443"]);
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
    expect(() => suggestEnvelope([recordedLog("cut.jsonl", [meta])], null)).toThrow(
      expect.objectContaining({ code: "OBSERVER_LOG_INCOMPLETE" }),
    );
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
    const other = recordedLog("two.jsonl", lines([], { scratch: "/var/tmp/s2" }));
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

describe("suggest names the program of each entry and proposes withheld keys of failed runs (issue 20 items 3 and 6)", () => {
  const exec = (pid: number, jailPid: number | undefined, path: string, argv: string[], ppid?: number) => ({
    kind: "exec",
    pid,
    ...(ppid === undefined ? {} : { ppid }),
    ...(jailPid === undefined ? {} : { jail_pid: jailPid }),
    path,
    argv,
    source: "process",
  });
  const failed = (events: Record<string, unknown>[], withheld: string[], exit: number | null = 1): RecordedLog => {
    return log(events, { withheld }, exit);
  };

  it("joins a hook line's jail pid to the exec line that carries it, and a process line's host pid to its exec", () => {
    const s = suggestEnvelope(
      [
        log([
          exec(500, 2, "/usr/bin/dash", ["sh", "-c", "node a.js; node b.js"]),
          exec(501, 3, "/usr/bin/node", ["node", "a.js"], 500),
          exec(502, 4, "/usr/bin/node", ["node", "b.js", "--flag", "x"], 500),
          { kind: "env", pid: 4, key: "KEYB", source: "node" },
          { kind: "env", pid: 3, key: "KEYA", source: "node" },
          { kind: "write", pid: 500, path: "/var/cache/eg/x", op: "create", source: "process" },
          // A pid no exec line names: no program, never a guess.
          { kind: "env", pid: 99, key: "KEYC", source: "node" },
        ]),
      ],
      { ...from0, allowed_commands: [] },
    );
    const by = (entry: string) => s.added.find((a) => a.entry === entry)?.program;
    expect(by("KEYA")).toBe("node a.js (pid 3)");
    expect(by("KEYB")).toBe("node b.js --flag … (pid 4)");
    expect(by("KEYC")).toBeUndefined();
    expect(by("/var/cache/eg")).toBe("dash (sh) -c 'node a.js; node b.js' (pid 2)");
    // A command is named by the program that started it (its parent, by host pid).
    expect(by("node")).toBe("dash (sh) -c 'node a.js; node b.js' (pid 2)");
  });

  it("takes the pid's exec last before the line, or the first after it when the hook's record came first", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "env", pid: 7, key: "EG_EARLY", source: "node" },
          exec(700, 7, "/usr/bin/env", ["/usr/bin/env", "node", "tool.js"]),
          exec(700, 7, "/usr/bin/node", ["node", "tool.js"]),
          { kind: "env", pid: 7, key: "EG_LATE", source: "node" },
        ]),
      ],
      null,
    );
    expect(s.added.find((a) => a.entry === "EG_EARLY")?.program).toBe("env node tool.js (pid 7)");
    expect(s.added.find((a) => a.entry === "EG_LATE")?.program).toBe("node tool.js (pid 7)");
  });

  it("escapes control characters of a program's arguments", () => {
    const s = suggestEnvelope(
      [log([exec(800, 8, "/usr/bin/node", ["node", "a\u001b[31m\u202eb"]), { kind: "env", pid: 8, key: "EG_X", source: "node" }])],
      null,
    );
    expect(s.added[0]?.program).toBe("node a\\u{001B}[31m\\u{202E}b (pid 8)");
  });

  it("proposes withheld keys of a failed run's non-Node program, unobserved; never a credential or machine key; not when it exited 0", () => {
    const events = [
      exec(900, 2, "/usr/bin/dash", ["sh", "run.sh"]),
      exec(901, 3, "/usr/bin/python3.11", ["python3", "-c", "import x"], 900),
      exec(902, 4, "/work/repo/bin/cargo", ["cargo", "test"], 900),
    ];
    const withheld = [
      "VIRTUAL_ENV",
      "CARGO_HOME",
      "CARGO_REGISTRY_TOKEN",
      "GOCACHE",
      "HOME",
      "HOSTNAME",
      "AWS_SECRET_ACCESS_KEY",
      "UNRELATED",
    ];
    const s = suggestEnvelope([failed(events, withheld)], from0);
    const unobserved = s.added.filter((a) => a.unobserved === true);
    expect(unobserved.map((a) => a.entry)).toEqual(["CARGO_HOME", "HOME", "VIRTUAL_ENV"]);
    expect(s.envelope.allowed_env).toEqual(["CARGO_HOME", "HOME", "VIRTUAL_ENV"]);
    // A withheld program-control key python reads (PYTHONPATH) is listed apart, not proposed.
    expect(suggestEnvelope([failed(events, ["PYTHONPATH"])], from0).notProposed).toMatchObject([
      { entry: "PYTHONPATH", kind: "program_control" },
    ]);
    const py = unobserved.find((a) => a.entry === "VIRTUAL_ENV");
    expect(py).toMatchObject({ key: "allowed_env", first: "o.jsonl:3", program: "python3.11 -c 'import x' (pid 3)" });
    expect(py?.reason).toBe("withheld; python3.11 ran and the command exited 1; not observed: non-Node programs' reads cannot be seen");
    expect(unobserved.find((a) => a.entry === "HOME")?.reason).toContain("dash ran");
    // A killed command failed too.
    expect(suggestEnvelope([failed(events, ["VIRTUAL_ENV"], null)], from0).added[0]?.reason).toContain("was killed by a signal");
    // Exit 0: nothing proposed.
    expect(suggestEnvelope([failed(events, withheld, 0)], from0).added).toEqual([]);
    // No such program ran (only Node): nothing proposed, not even HOME.
    expect(suggestEnvelope([failed([exec(950, 2, "/usr/bin/node", ["node", "t.js"])], withheld)], from0).added).toEqual([]);
    // A key the run was seen reading is an observed entry, not proposed twice.
    const seen = suggestEnvelope(
      [failed([...events, { kind: "env", pid: 3, key: "VIRTUAL_ENV", source: "node" }], ["VIRTUAL_ENV"])],
      from0,
    );
    expect(seen.added.map((a) => [a.entry, a.unobserved])).toEqual([["VIRTUAL_ENV", undefined]]);
  });
});

describe("proposals a reviewer can trust (issue 31, item 3)", () => {
  const exec = (pid: number, jailPid: number, path: string, argv: string[]) => ({
    kind: "exec",
    pid,
    jail_pid: jailPid,
    path,
    argv,
    source: "process",
  });
  const FIVE = ["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "SONAR_LOGIN"];
  /** The Node one-liner: reads the five keys, tries (and fails) two system writes, exits 0. */
  const oneLiner = (exit = 0): RecordedLog => {
    const l = log(
      [
        exec(100, 2, "/usr/bin/node", ["node", "-e", "read and write"]),
        ...FIVE.map((key) => ({ kind: "env", pid: 2, key, source: "node" })),
        { kind: "env", pid: 2, key: "WIDGETS_MODE", source: "node" },
        { kind: "write", pid: 100, path: "/usr/share/x", op: "mkdir", ok: false, source: "process" },
        { kind: "write", pid: 100, path: "/usr/lib/x/y.pyc", op: "create", ok: false, source: "process" },
      ],
      {},
      exit,
    );
    return l;
  };

  it("a Node one-liner reading five such keys and refused in /usr: the envelope allows none of them, each listed apart with why", () => {
    const s = suggestEnvelope([oneLiner()], from0);
    expect(s.envelope.allowed_env).toEqual(["WIDGETS_MODE"]);
    expect(s.envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
    const apart = new Map(s.notProposed.map((n) => [n.entry, n]));
    for (const key of FIVE) expect(apart.get(key), key).toMatchObject({ key: "allowed_env", count: 1 });
    expect(apart.get("AWS_SECRET_ACCESS_KEY")).toMatchObject({
      kind: "credential",
      first: "o.jsonl:3",
      program: "node -e 'read and write' (pid 2)",
    });
    expect(apart.get("RUNNER_NAME")?.kind).toBe("machine_identity");
    expect(apart.get("HOSTNAME")?.kind).toBe("machine_identity");
    expect(apart.get("GITHUB_RUN_ID")?.kind).toBe("run_identity");
    expect(apart.get("SONAR_LOGIN")?.kind).toBe("credential");
    for (const n of s.notProposed) expect(n.why.length, n.entry).toBeGreaterThan(20);
    // The roots: under the system's directories, whatever else is true of them.
    expect(apart.get("/usr/share")).toMatchObject({ key: "allowed_roots", kind: "system_directory", covers: ["/usr/share/x"] });
    expect(apart.get("/usr/lib/x")).toMatchObject({ key: "allowed_roots", kind: "system_directory", avoidWith: "PYTHONDONTWRITEBYTECODE" });
    // Failed, the run still gets no system directory.
    expect(suggestEnvelope([oneLiner(1)], from0).envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
  });

  it("a refused write the command did not need (it exited 0) is listed apart; in a failed run it is proposed", () => {
    const refused = (exit: number): RecordedLog => {
      const l = log(
        [
          { kind: "write", path: "/home/runner/.cache/pip/x", op: "create", ok: false, source: "process" },
          { kind: "write", path: "/srv/app/__pycache__/m.cpython-312.pyc", op: "create", ok: false, source: "process" },
        ],
        {},
        exit,
      );
      return l;
    };
    const passed = suggestEnvelope([refused(0)], from0);
    expect(passed.envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
    expect(passed.notProposed.map((n) => [n.entry, n.kind, n.avoidWith]).sort()).toEqual([
      ["/home/runner/.cache/pip", "refused_unneeded", undefined],
      ["/srv/app/__pycache__", "refused_unneeded", "PYTHONDONTWRITEBYTECODE"],
    ]);
    expect([...suggestEnvelope([refused(1)], from0).envelope.allowed_roots].sort()).toEqual([
      "${SCRATCH}",
      "${WORKSPACE}",
      "/home/runner/.cache/pip",
      "/srv/app/__pycache__",
    ]);
    // A write that was done is needed, wherever another was refused.
    const done = log([{ kind: "write", path: "/home/runner/.cache/pip/y", op: "create", source: "process" }]);
    expect(suggestEnvelope([refused(0), done], from0).envelope.allowed_roots).toContain("/home/runner/.cache/pip");
  });

  it("the tool cache and another program's install directory are never roots", () => {
    const s = suggestEnvelope(
      [
        log([
          exec(100, 2, "/home/runner/.nvm/versions/node/v20.1.0/bin/node", ["node", "t.js"]),
          { kind: "write", path: "/opt/hostedtoolcache/Python/3.12.1/x64/lib/x", op: "create", source: "process" },
          { kind: "write", path: "/home/runner/.nvm/versions/node/v20.1.0/lib/node_modules/x/y", op: "create", source: "process" },
          { kind: "write", path: "/home/runner/.cache/widgets/z", op: "create", source: "process" },
        ]),
      ],
      from0,
    );
    expect(s.envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}", "/home/runner/.cache/widgets"]);
    expect(s.notProposed.map((n) => n.kind).sort()).toEqual(["install_directory", "tool_cache"]);
  });

  it("a family never covers a program-control key: its keys are proposed exactly; carriers and non-ASCII keys stand apart", () => {
    const s = suggestEnvelope(
      [
        log([
          env("NODE_ENV"),
          env("NODE_DEBUG"),
          env("NODE_PENDING_DEPRECATION"),
          env("NODE_OPTIONS"),
          env("NODE_TLS_REJECT_UNAUTHORIZED"),
          env("GIT_DIR"),
          env("GIT_WORK_TREE"),
          env("GIT_TERMINAL_PROMPT"),
          env("GIT_AUTHOR_NAME"),
          env("GIT_COMMITTER_NAME"),
          env("GIT_ASKPASS"),
          env("GIT_SSH_COMMAND"),
          // The run's own git keys (GIT_CONFIG_VALUE_<n>): not judged, so neither proposed nor listed.
          env("GIT_CONFIG_VALUE_0"),
          env("npm_config_userconfig"),
          env("RUNNER_ENVIRONMENT"),
          env("P\u0410TH"),
        ]),
      ],
      from0,
    );
    expect(s.envelope.allowed_env).toEqual([
      "GIT_AUTHOR_NAME",
      "GIT_COMMITTER_NAME",
      "GIT_TERMINAL_PROMPT",
      "NODE_DEBUG",
      "NODE_ENV",
      "NODE_PENDING_DEPRECATION",
    ]);
    const apart = new Map(s.notProposed.map((n) => [n.entry, n.kind]));
    expect(Object.fromEntries(apart)).toEqual({
      GIT_ASKPASS: "credential_carrier",
      GIT_DIR: "program_control",
      GIT_WORK_TREE: "program_control",
      GIT_SSH_COMMAND: "program_control",
      NODE_OPTIONS: "program_control",
      NODE_TLS_REJECT_UNAUTHORIZED: "program_control",
      "P\\u{0410}TH": "not_printable",
      RUNNER_ENVIRONMENT: "machine_identity",
      npm_config_userconfig: "credential_carrier",
    });
    expect(s.notes.join("\n")).toMatch(/NODE_\* not proposed: would cover NODE_OPTIONS/);
    expect(s.notes.join("\n")).toMatch(/GIT_\* not proposed: would cover GIT_CONFIG\*, GIT_SSH_COMMAND/);
  });

  it("a failed run's withheld credential is listed apart, never proposed unobserved", () => {
    const l = log([exec(902, 4, "/work/repo/bin/cargo", ["cargo", "test"])], { withheld: ["CARGO_HOME", "CARGO_REGISTRY_TOKEN"] }, 1);
    const s = suggestEnvelope([l], from0);
    expect(s.envelope.allowed_env).toEqual(["CARGO_HOME"]);
    expect(s.notProposed).toMatchObject([{ entry: "CARGO_REGISTRY_TOKEN", kind: "credential" }]);
  });
});
