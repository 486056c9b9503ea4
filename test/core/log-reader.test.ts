import { describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { expandRoots, loadEnvelope, type LoadedEnvelope } from "../../src/core/envelope.js";
import { ENV_SETS } from "../../src/core/env-sets.js";
import { CREDENTIAL_KEY, MACHINE_KEY } from "../../src/core/never-proposed.js";
import { LogEvaluator, walkLog, type LogVerdict } from "../../src/core/log-reader.js";
import { MAX_LINE_LENGTH } from "../../src/core/log-format.js";
import { envelopeText, logText, type Event } from "../support/logs.js";

const WORKSPACE = "/work/repo";
const SCRATCH = "/tmp/agent-scratch";

function envelope(overrides: Record<string, unknown> = {}): LoadedEnvelope {
  return loadEnvelope(Buffer.from(envelopeText(overrides)), "envelope.json");
}

function evaluate(loaded: LoadedEnvelope, bytes: Buffer | string, chunkSize = 0): LogVerdict {
  const ev = new LogEvaluator(loaded, { roots: expandRoots(loaded, { workspace: WORKSPACE, scratch: SCRATCH }), file: "observer.jsonl" });
  const buf = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  if (chunkSize <= 0) ev.push(buf);
  else for (let i = 0; i < buf.length; i += chunkSize) ev.push(buf.subarray(i, i + chunkSize));
  return ev.finish();
}

function judge(events: Event[], overrides: Record<string, unknown> = {}): LogVerdict {
  const loaded = envelope(overrides);
  return evaluate(loaded, logText(loaded.hash, events));
}

function refusal(loaded: LoadedEnvelope, bytes: Buffer | string): Refusal {
  try {
    evaluate(loaded, bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(Refusal);
    return err as Refusal;
  }
  throw new Error("expected a refusal");
}

const ids = (v: LogVerdict) => v.violations.map((x) => x.id);

describe("the seed's decision table, envelope rows", () => {
  it.each([
    ["write under the workspace", { kind: "write", path: "/work/repo/src/mod.py", op: "write" }, []],
    ["write under /etc", { kind: "write", path: "/etc/cron.d/x", op: "create" }, ["write_outside_root:/etc/cron.d/x"]],
    ["write under $HOME", { kind: "write", path: "/root/.bashrc", op: "write" }, ["write_outside_root:/root/.bashrc"]],
    ["tool apply_patch", { kind: "tool", name: "apply_patch" }, []],
    ["tool bash not listed", { kind: "tool", name: "bash" }, ["undeclared_tool:bash"]],
    ["env RUN_ID", { kind: "env", key: "RUN_ID" }, []],
    ["env AWS_SECRET_ACCESS_KEY", { kind: "env", key: "AWS_SECRET_ACCESS_KEY" }, ["undeclared_env:AWS_SECRET_ACCESS_KEY"]],
    ["any host under network deny", { kind: "host", host: "api.example.com", port: 443 }, ["network_denied:api.example.com:443"]],
  ] as const)("%s", (_name, event, expected) => {
    const verdict = judge([event as Event]);
    expect(ids(verdict)).toEqual(expected);
    expect(verdict.verdict).toBe(expected.length === 0 ? "pass" : "envelope_fail");
  });

  it("judges hosts against the allowlist when network is allowlist", () => {
    const v = judge(
      [
        { kind: "host", host: "registry.npmjs.org", port: 443 },
        { kind: "host", host: "a.cdn.example.com", port: 443 },
        { kind: "host", host: "cdn.example.com", port: 443 },
        { kind: "host", host: "1.2.3.4", port: 80 },
      ],
      { network: "allowlist", allowed_hosts: ["registry.npmjs.org:443", "*.cdn.example.com"] },
    );
    expect(ids(v)).toEqual(["undeclared_host:cdn.example.com:443", "undeclared_host:1.2.3.4:80"]);
  });

  it("judges execs only when allowed_commands exists", () => {
    const execs = [
      { kind: "exec", path: "/usr/bin/git", argv: ["git", "status"] },
      { kind: "exec", path: "/usr/bin/curl", argv: ["curl", "x"] },
      { kind: "exec", path: "/usr/local/bin/node", argv: ["node"] },
    ];
    expect(ids(judge(execs))).toEqual([]);
    expect(ids(judge(execs, { allowed_commands: ["git", "/usr/local/bin/node"] }))).toEqual(["undeclared_command:/usr/bin/curl"]);
    expect(ids(judge(execs, { allowed_commands: [] }))).toHaveLength(3);
  });

  it("judges a `#!` script's interpreter as a command that ran, by its path, on the script's line", () => {
    const execs = [
      { kind: "exec", path: "/work/repo/bin/mocha", argv: ["/usr/bin/env", "node", "/work/repo/bin/mocha"], interpreter: "/usr/bin/env" },
      { kind: "exec", path: "/work/repo/run.sh", argv: ["/work/repo/evil", "/work/repo/run.sh"], interpreter: "/work/repo/evil" },
    ];
    expect(ids(judge(execs))).toEqual([]);
    const v = judge(execs, { allowed_commands: ["env", "/work/repo/bin/mocha", "/work/repo/run.sh"] });
    expect(v.violations).toEqual([
      { id: "undeclared_command:/work/repo/evil", rule: "undeclared_command", subject: "/work/repo/evil", first_line: 3, count: 1 },
    ]);
    expect(ids(judge(execs, { allowed_commands: ["/work/repo/evil", "env"] }))).toEqual([
      "undeclared_command:/work/repo/bin/mocha",
      "undeclared_command:/work/repo/run.sh",
    ]);
  });

  it("walks a script's line as two commands: the script's, then its interpreter's, which names the script", () => {
    const loaded = envelope({ allowed_commands: ["env"] });
    const text = logText(loaded.hash, [
      { kind: "exec", path: "/work/repo/bin/mocha", argv: ["/usr/bin/env", "node", "/work/repo/bin/mocha"], interpreter: "/usr/bin/env" },
    ]);
    const walked = walkLog({ file: "observer.jsonl", bytes: Buffer.from(text) }, loaded.envelope);
    expect(walked.events.map((e) => (e.kind === "exec" ? [e.line, e.subject, e.interprets ?? null, e.verdict] : null))).toEqual([
      [2, "/work/repo/bin/mocha", null, "undeclared_command"],
      [2, "/usr/bin/env", "/work/repo/bin/mocha", null],
    ]);
  });

  it("refuses an exec's interpreter that is not an absolute path", () => {
    const loaded = envelope();
    for (const interpreter of ["env", "", 7]) {
      const text = logText(loaded.hash, [{ kind: "exec", path: "/work/repo/x", argv: ["x"], interpreter } as unknown as Event]);
      expect(refusal(loaded, text).code).toBe("OBSERVER_LOG_MALFORMED");
    }
  });

  it("reports each distinct violation once with its first line and count", () => {
    const v = judge([
      { kind: "tool", name: "curl" },
      { kind: "write", path: "/work/repo/ok", op: "write" },
      { kind: "tool", name: "curl" },
      { kind: "env", key: "HOME" },
      { kind: "tool", name: "curl" },
    ]);
    expect(v.violations).toEqual([
      { id: "undeclared_tool:curl", rule: "undeclared_tool", subject: "curl", first_line: 2, count: 3 },
      { id: "undeclared_env:HOME", rule: "undeclared_env", subject: "HOME", first_line: 5, count: 1 },
    ]);
    expect(v.events).toBe(5);
    expect(v.counts).toMatchObject({ write: 1, tool: 3, env: 1 });
  });
});

describe("hostile paths", () => {
  it.each([
    ["/work/repo/../repo-evil/x", "/work/repo-evil/x"],
    ["/work/repo-evil/x", "/work/repo-evil/x"],
    ["/work/repo/../../etc/passwd", "/etc/passwd"],
    ["//etc//passwd", "/etc/passwd"],
    ["/work/repo/./../../root/.ssh/authorized_keys", "/root/.ssh/authorized_keys"],
    ["/tmp/agent-scratch-evil/f", "/tmp/agent-scratch-evil/f"],
  ])("%s is outside", (path, folded) => {
    expect(ids(judge([{ kind: "write", path, op: "write" }]))).toEqual([`write_outside_root:${folded}`]);
  });

  it.each(["/work/repo/", "/work/repo//src///a", "/work/repo/a/../b", "/tmp/agent-scratch/run/./x"])("%s is inside", (path) => {
    expect(ids(judge([{ kind: "write", path, op: "mkdir" }]))).toEqual([]);
  });

  it("refuses a relative path and a NUL byte", () => {
    const loaded = envelope();
    expect(refusal(loaded, logText(loaded.hash, [{ kind: "write", path: "repo/x", op: "write" }])).code).toBe("OBSERVER_LOG_MALFORMED");
    const nul = refusal(loaded, logText(loaded.hash, [{ kind: "write", path: "/work/repo/a\u0000/../../etc/x", op: "write" }]));
    expect(nul.code).toBe("OBSERVER_LOG_MALFORMED");
    expect(nul.message).toMatch(/NUL/);
    expect(nul.line).toBe(2);
  });

  it("treats a write to the log's own path as a violation", () => {
    const v = judge(
      [
        { kind: "write", path: "/work/repo/observer.jsonl", op: "write" },
        { kind: "write", path: "/work/repo/a", op: "write" },
      ].map((e) => e as Event),
    );
    expect(ids(v)).toEqual([]);
    const loaded = envelope();
    const text = logText(loaded.hash, [{ kind: "write", path: "/work/repo/observer.jsonl", op: "write" }], {
      meta: { log_path: "/work/repo/observer.jsonl" },
    });
    expect(ids(evaluate(loaded, text))).toEqual(["write_outside_root:/work/repo/observer.jsonl"]);
  });
});

describe("runtime env reads and canaries", () => {
  it("does not judge the runtime's own reads of the documented keys, and judges any other", () => {
    const v = judge([
      { kind: "env", key: "NO_COLOR", source: "runtime" },
      { kind: "env", key: "NODE_V8_COVERAGE", source: "runtime" },
      { kind: "env", key: "NO_COLOR", source: "node" },
      { kind: "env", key: "AWS_PROFILE", source: "runtime" },
    ]);
    expect(ids(v)).toEqual(["undeclared_env:NO_COLOR", "undeclared_env:AWS_PROFILE"]);
  });

  it("does not judge canaries in the block after meta", () => {
    const v = judge([
      { kind: "write", path: "/tmp/agent-scratch/.canary", op: "create", canary: true },
      { kind: "env", key: "EG_CANARY", canary: true },
      { kind: "host", host: "canary.invalid", canary: true },
      { kind: "tool", name: "read_file" },
    ]);
    expect(v.verdict).toBe("pass");
    expect(v.counts.canary).toBe(3);
  });

  it("refuses a canary after the self-check block", () => {
    const loaded = envelope();
    const err = refusal(
      loaded,
      logText(loaded.hash, [
        { kind: "tool", name: "read_file" },
        { kind: "env", key: "AWS_SECRET_ACCESS_KEY", canary: true },
      ]),
    );
    expect(err.code).toBe("OBSERVER_LOG_MALFORMED");
    expect(err.line).toBe(3);
  });
});

describe("structure: could not observe never reads as observed nothing", () => {
  const loaded = envelope();
  const good = logText(loaded.hash, [
    { kind: "tool", name: "read_file" },
    { kind: "env", key: "CI" },
  ]);
  const lines = good.split("\n");

  it("passes a whole log fed in any chunking", () => {
    for (const size of [0, 1, 3, 7, 64]) expect(evaluate(loaded, good, size).verdict).toBe("pass");
  });

  it.each([
    ["an empty file", "", "OBSERVER_LOG_INCOMPLETE"],
    ["no end line", lines.slice(0, 3).join("\n") + "\n", "OBSERVER_LOG_INCOMPLETE"],
    ["a truncated last line", good.slice(0, -10), "OBSERVER_LOG_INCOMPLETE"],
    ["no trailing newline", good.slice(0, -1), "OBSERVER_LOG_INCOMPLETE"],
    ["no meta line", lines.slice(1).join("\n"), "OBSERVER_LOG_INCOMPLETE"],
    ["an end count that lies", good.replace('"events":3', '"events":2'), "OBSERVER_LOG_INCOMPLETE"],
    ["a dropped line", [lines[0], lines[2], lines[3], ""].join("\n"), "OBSERVER_LOG_INCOMPLETE"],
    ["content after end", good + lines[1] + "\n", "OBSERVER_LOG_MALFORMED"],
    ["a second meta", [lines[0], lines[0], ...lines.slice(1)].join("\n"), "OBSERVER_LOG_MALFORMED"],
    ["bad JSON", [lines[0], "{not json", ...lines.slice(2)].join("\n"), "OBSERVER_LOG_MALFORMED"],
    ["an empty line", [lines[0], "", ...lines.slice(2)].join("\n"), "OBSERVER_LOG_MALFORMED"],
    ["an array line", [lines[0], "[1,2]", ...lines.slice(2)].join("\n"), "OBSERVER_LOG_MALFORMED"],
    ["an unknown kind", good.replace('"kind":"tool"', '"kind":"telepathy"'), "OBSERVER_LOG_MALFORMED"],
    ["an unknown field", good.replace('"name":"read_file"', '"name":"read_file","allowed":true'), "OBSERVER_LOG_MALFORMED"],
    ["a missing field", good.replace(',"name":"read_file"', ""), "OBSERVER_LOG_MALFORMED"],
    ["a wrong type", good.replace('"name":"read_file"', '"name":42'), "OBSERVER_LOG_MALFORMED"],
    ["a wrong version", good.replace('{"v":1,"kind":"tool"', '{"v":2,"kind":"tool"'), "OBSERVER_LOG_MALFORMED"],
    ["a duplicate key", good.replace('"key":"CI"', '"key":"CI","key":"AWS_SECRET_ACCESS_KEY"'), "OBSERVER_LOG_MALFORMED"],
    ["a bad write op", logText(loaded.hash, [{ kind: "write", path: "/work/repo/x", op: "scribble" }]), "OBSERVER_LOG_MALFORMED"],
    ["a bad source", good.replace('"key":"CI"', '"key":"CI","source":"trusted"'), "OBSERVER_LOG_MALFORMED"],
    ["a byte order mark", "\ufeff" + good, "OBSERVER_LOG_MALFORMED"],
  ])("refuses %s", (_name, text, code) => {
    expect(refusal(loaded, text).code).toBe(code);
  });

  it("names the line of the problem", () => {
    const err = refusal(loaded, [lines[0], lines[1], "{oops", lines[3], ""].join("\n"));
    expect(err.line).toBe(3);
    expect(err.message).toContain("observer.jsonl:3");
  });

  it("refuses a meta hash for another envelope", () => {
    const other = envelope({ allowed_tools: ["read_file", "apply_patch", "run_tests", "bash"] });
    const err = refusal(loaded, logText(other.hash, [{ kind: "tool", name: "bash" }]));
    expect(err.code).toBe("OBSERVER_LOG_ENVELOPE_MISMATCH");
    expect(err.line).toBe(1);
  });

  it("accepts CRLF line endings", () => {
    expect(evaluate(loaded, good.replace(/\n/g, "\r\n")).verdict).toBe("pass");
  });

  it("refuses invalid UTF-8 and names its line, in any chunking", () => {
    const bad = Buffer.concat([
      Buffer.from(lines[0] + "\n" + '{"v":1,"kind":"env","key":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n' + lines.slice(2).join("\n")),
    ]);
    for (const size of [0, 5]) {
      const err = (() => {
        try {
          evaluate(loaded, bad, size);
        } catch (e) {
          return e as Refusal;
        }
        throw new Error("expected refusal");
      })();
      expect(err.code).toBe("OBSERVER_LOG_MALFORMED");
      expect(err.line).toBe(2);
    }
  });

  it("refuses a log that ends inside a UTF-8 sequence", () => {
    const cut = Buffer.concat([Buffer.from(good), Buffer.from([0xe2, 0x82])]);
    expect(refusal(loaded, cut).code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("refuses a 10 MB line without buffering it whole", () => {
    const huge = `{"v":1,"kind":"write","op":"write","path":"/work/repo/${"a".repeat(10 * 1024 * 1024)}"}`;
    const text = [lines[0], huge, ""].join("\n");
    const ev = new LogEvaluator(loaded, { roots: ["/work/repo"], file: "observer.jsonl" });
    let err: unknown;
    try {
      const buf = Buffer.from(text);
      for (let i = 0; i < buf.length; i += 1 << 20) ev.push(buf.subarray(i, i + (1 << 20)));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Refusal);
    expect((err as Refusal).code).toBe("OBSERVER_LOG_MALFORMED");
    expect((err as Refusal).message).toContain(String(MAX_LINE_LENGTH));
    expect((err as Refusal).line).toBe(2);
  });

  it("checks sequence numbers when meta carries one", () => {
    const seqd = logText(
      loaded.hash,
      [
        { kind: "tool", name: "read_file" },
        { kind: "env", key: "CI" },
      ],
      { seq: true },
    );
    expect(evaluate(loaded, seqd).verdict).toBe("pass");
    expect(refusal(loaded, seqd.replace('"seq":2', '"seq":5')).code).toBe("OBSERVER_LOG_MALFORMED");
    expect(refusal(loaded, seqd.replace(',"seq":2', "")).code).toBe("OBSERVER_LOG_MALFORMED");
    expect(refusal(loaded, good.replace('"key":"CI"', '"key":"CI","seq":2')).code).toBe("OBSERVER_LOG_MALFORMED");
  });

  it("keeps quotes and braces inside strings out of the duplicate-key count", () => {
    const v = judge([
      { kind: "exec", path: "/bin/sh", argv: ["sh", "-c", 'echo "{\\"a\\":1}" : }'] },
      { kind: "env", key: 'we"ird:{' },
    ]);
    expect(ids(v)).toEqual(['undeclared_env:we"ird:{']);
  });
});

describe("the compact fast path and the full JSON path agree", () => {
  const loaded = envelope({ network: "allowlist", allowed_hosts: ["api.example.com"], allowed_commands: ["git"] });
  const events: Event[] = [
    { kind: "write", path: "/work/repo/a", op: "write", pid: 12, source: "node" },
    { kind: "write", path: "/work/repo/../x", op: "rename", ok: false },
    { kind: "env", key: "HOME", op: "get" },
    { kind: "tool", name: "bash", via: "sdk" },
    { kind: "host", host: "api.example.com", port: 443, proto: "tcp" },
    { kind: "host", host: "evil.example.com", port: null },
    { kind: "exec", path: "/usr/bin/curl", argv: ["curl"] },
  ];
  const compact = logText(loaded.hash, events, { seq: true });
  // Spaces after separators send every line down the full JSON.parse path.
  const spaced = compact
    .split("\n")
    .map((l) => (l === "" ? l : JSON.stringify(JSON.parse(l), null, 1).replace(/\n\s*/g, " ")))
    .join("\n");

  it("gives the same verdict either way", () => {
    expect(spaced).not.toBe(compact);
    const a = evaluate(loaded, compact);
    const b = evaluate(loaded, spaced);
    expect(b).toEqual(a);
    expect(ids(a)).toEqual([
      "write_outside_root:/work/x",
      "undeclared_env:HOME",
      "undeclared_tool:bash",
      "undeclared_host:evil.example.com",
      "undeclared_command:/usr/bin/curl",
    ]);
  });

  it.each([
    ["a duplicate key", '{"v":1,"kind":"env","key":"CI","key":"HOME"}'],
    ["a raw tab in a string", '{"v":1,"kind":"env","key":"C\tI"}'],
    ["a leading zero", '{"v":01,"kind":"env","key":"CI"}'],
    ["a trailing comma", '{"v":1,"kind":"env","key":"CI",}'],
    ["an unterminated string", '{"v":1,"kind":"env","key":"CI}'],
    ["a bare word", '{"v":1,"kind":"env","key":CI}'],
  ])("refuses %s on either path", (_name, line) => {
    const text = logText(loaded.hash, [{ kind: "tool", name: "read_file" }]).replace(/\n(.*"kind":"tool".*)\n/, `\n${line}\n`);
    expect(refusal(loaded, text).code).toBe("OBSERVER_LOG_MALFORMED");
  });

  it("reads escapes on the full path", () => {
    const v = judge([
      { kind: "write", path: '/work/repo/\u00e9t\u00e9 \\ "q"', op: "write" },
      { kind: "write", path: "/etc/\u00e9", op: "write" },
    ]);
    expect(ids(v)).toEqual(["write_outside_root:/etc/\u00e9"]);
  });
});

describe("bytes", () => {
  it("reads non-ASCII paths and keys on the fast path, split anywhere", () => {
    const loaded = envelope();
    const text = logText(loaded.hash, [
      { kind: "write", path: "/work/repo/\u00e9t\u00e9/\u65e5\u672c.txt", op: "write" },
      { kind: "write", path: "/work/r\u00e9po/x", op: "write" },
      { kind: "env", key: "CL\u00c9" },
    ]);
    for (const size of [0, 1, 2, 5]) {
      expect(ids(evaluate(loaded, text, size))).toEqual(["write_outside_root:/work/r\u00e9po/x", "undeclared_env:CL\u00c9"]);
    }
  });

  it("keeps a root boundary at a segment even when bytes match further", () => {
    const loaded = envelope({ allowed_roots: ["/work/repo"] });
    const v = evaluate(
      loaded,
      logText(loaded.hash, [
        { kind: "write", path: "/work/repo", op: "mkdir" },
        { kind: "write", path: "/work/repo2", op: "mkdir" },
        { kind: "write", path: "/work/rep", op: "mkdir" },
        { kind: "write", path: "/work/repo/.git/config", op: "write" },
        { kind: "write", path: "/work/repo/..", op: "write" },
        { kind: "write", path: "/work/repo/...", op: "write" },
      ]),
    );
    // Inside the root, .git is a protected path (docs/formats.md, Protected paths).
    expect(ids(v)).toEqual([
      "write_outside_root:/work/repo2",
      "write_outside_root:/work/rep",
      "write_protected:/work/repo/.git/config",
      "write_outside_root:/work",
    ]);
  });
});

describe("observation is policy", () => {
  it("refuses a log the process observer did not watch, unless the envelope accepts Node-only observation", () => {
    const full = envelope();
    const nodeOnly = logText(full.hash, [{ kind: "write", path: "/etc/x", op: "write" }], { meta: { observers: ["node"] } });
    expect(refusal(full, nodeOnly).code).toBe("OBSERVATION_PARTIAL");
    const accepting = envelope({ observation: "node" });
    const accepted = evaluate(
      accepting,
      logText(accepting.hash, [{ kind: "write", path: "/etc/x", op: "write" }], { meta: { observers: ["node"] } }),
    );
    expect(ids(accepted)).toEqual(["write_outside_root:/etc/x"]);
    // "full" is the default, said out loud.
    const explicit = envelope({ observation: "full" });
    expect(refusal(explicit, logText(explicit.hash, [], { meta: { observers: ["node"] } })).code).toBe("OBSERVATION_PARTIAL");
  });

  it("refuses a meta that does not say what observed the run", () => {
    const loaded = envelope();
    for (const observers of [undefined, [], ["strace"], "process", ["node", 1]]) {
      const text = logText(loaded.hash, [], { meta: { observers } });
      expect(refusal(loaded, text).code).toBe("OBSERVER_LOG_MALFORMED");
    }
  });

  it("an envelope's observation key is validated", () => {
    expect(() => envelope({ observation: "none" })).toThrow(Refusal);
  });
});

describe("what the jail adds to the log", () => {
  it("a refused system call is always a violation, with its name", () => {
    expect(
      ids(
        judge([
          { kind: "syscall", name: "io_uring_setup", source: "process" },
          { kind: "syscall", name: "io_uring_setup" },
        ]),
      ),
    ).toEqual(["forbidden_syscall:io_uring_setup"]);
    expect(judge([{ kind: "syscall", name: "ptrace", source: "process" }]).violations[0]?.count).toBe(1);
  });

  it("the new write ops are judged like the others", () => {
    const v = judge(["chown", "utimes", "xattr", "bind"].map((op, i) => ({ kind: "write", path: `/etc/f${i}`, op })));
    expect(ids(v)).toEqual(["/etc/f0", "/etc/f1", "/etc/f2", "/etc/f3"].map((p) => `write_outside_root:${p}`));
    expect(ids(judge([{ kind: "write", path: `${WORKSPACE}/a.sock`, op: "bind" }]))).toEqual([]);
  });

  it("a write the jail refused as read-only is outside, whatever its name resolved to", () => {
    expect(ids(judge([{ kind: "write", path: `${WORKSPACE}/gone-link`, op: "create", ok: false, source: "process" }]))).toEqual([
      `write_outside_root:${WORKSPACE}/gone-link`,
    ]);
  });

  it("unix socket hosts keep their case; a process-level address is judged by the name the hooks connected it for", () => {
    expect(ids(judge([{ kind: "host", host: "unix:/run/PG/.s.PGSQL.5432", proto: "connect" }]))).toEqual([
      "network_denied:unix:/run/PG/.s.PGSQL.5432",
    ]);
    const allow = { network: "allowlist", allowed_hosts: ["api.example.com"] };
    expect(ids(judge([{ kind: "host", host: "93.184.216.34", port: 443, via: "api.example.com", source: "process" }], allow))).toEqual([]);
    expect(ids(judge([{ kind: "host", host: "93.184.216.34", port: 443, via: "evil.example.net", source: "process" }], allow))).toEqual([
      "undeclared_host:93.184.216.34:443",
    ]);
    expect(
      ids(judge([{ kind: "host", host: "exfil.example.net", port: 443, proto: "connect", ok: false, source: "proxy" }], allow)),
    ).toEqual(["undeclared_host:exfil.example.net:443"]);
  });
});

describe("a container engine: docker_refused, one id per attempt", () => {
  const events = [
    { kind: "host", host: "unix:/var/run/docker.sock", proto: "connect", source: "process" },
    { kind: "host", host: "unix:/run/user/1000/podman/podman.sock", proto: "connect", source: "process" },
    { kind: "host", host: "127.0.0.2", port: 2375, proto: "tcp", source: "node" },
    { kind: "host", host: "127.0.0.2", port: 2375, proto: "connect", source: "process" },
    { kind: "host", host: "docker.example", port: 2376, proto: "connect", ok: false, source: "proxy" },
  ];
  const refused = [
    "docker_refused:unix:/var/run/docker.sock",
    "docker_refused:unix:/run/user/1000/podman/podman.sock",
    "docker_refused:127.0.0.2:2375",
    "docker_refused:docker.example:2376",
  ];

  it("under deny and allowlist, on loopback in the run's own network too, whatever allowed_hosts lists", () => {
    const own = { meta: { network_enforced: true } };
    for (const overrides of [
      {},
      { loopback: "network" },
      { network: "allowlist", allowed_hosts: ["127.0.0.2:2375", "docker.example", "*.example"] },
      { network: "allowlist", allowed_hosts: [], loopback: "network" },
    ]) {
      const loaded = envelope(overrides);
      const v = evaluate(loaded, logText(loaded.hash, events, own));
      expect(ids(v), JSON.stringify(overrides)).toEqual(refused);
      expect(v.violations.find((x) => x.subject === "127.0.0.2:2375")?.count).toBe(2);
    }
  });

  it("the walk says so, and loopback docker ports are not the run's own", () => {
    const loaded = envelope();
    const walked = walkLog(
      { file: "o.jsonl", bytes: Buffer.from(logText(loaded.hash, events, { meta: { network_enforced: true } })) },
      loaded.envelope,
    );
    const hosts = walked.events.filter((e) => e.kind === "host");
    expect(hosts.map((e) => e.verdict)).toEqual(events.map(() => "docker_refused"));
    expect(hosts.some((e) => e.kind === "host" && e.ownLoopback)).toBe(false);
  });
});

describe("loopback and prefix patterns", () => {
  it("loopback in the run's own network namespace is local unless the envelope says network", () => {
    const events = [
      { kind: "host", host: "localhost", port: 8080, proto: "tcp" },
      { kind: "host", host: "127.0.0.1", port: 8080, proto: "connect", source: "process" },
      { kind: "host", host: "::1", port: 53, proto: "udp" },
      { kind: "host", host: "app.localhost", proto: "dns" },
      { kind: "host", host: "192.0.2.1", port: 80, proto: "connect" },
    ];
    const own = { meta: { network_enforced: true } };
    const loaded = envelope();
    expect(ids(evaluate(loaded, logText(loaded.hash, events, own)))).toEqual(["network_denied:192.0.2.1:80"]);
    // Sharing the host's network, loopback is the host's services: judged.
    expect(ids(evaluate(loaded, logText(loaded.hash, events, { meta: { network_enforced: false } }))).length).toBe(5);
    const strict = envelope({ loopback: "network" });
    expect(ids(evaluate(strict, logText(strict.hash, events, own))).length).toBe(5);
    expect(() => envelope({ loopback: "any" })).toThrow(Refusal);
  });

  it("allowed_env takes PREFIX* patterns, never a bare star", () => {
    const v = judge(
      [
        { kind: "env", key: "TAP_TIMEOUT" },
        { kind: "env", key: "TAP" },
        { kind: "env", key: "VITEST_POOL_ID" },
        { kind: "env", key: "AWS_SECRET_ACCESS_KEY" },
      ],
      { allowed_env: ["PATH", "TAP_*", "VITEST*"] },
    );
    expect(ids(v)).toEqual(["undeclared_env:TAP", "undeclared_env:AWS_SECRET_ACCESS_KEY"]);
    for (const bad of ["*", "A*B", "*_KEY", "TAP_**"]) expect(() => envelope({ allowed_env: [bad] })).toThrow(/allowed_env/);
  });

  it("named sets (@ci, @agents, @terminal) allow their detection keys and nothing else", () => {
    const v = judge(
      [
        { kind: "env", key: "CIRCLECI" },
        { kind: "env", key: "GITHUB_ACTIONS" },
        { kind: "env", key: "CLAUDECODE" },
        { kind: "env", key: "TERM" },
        { kind: "env", key: "GITHUB_REPOSITORY" },
        { kind: "env", key: "INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN" },
      ],
      { allowed_env: ["PATH", "@ci", "@agents", "@terminal"] },
    );
    expect(ids(v)).toEqual(["undeclared_env:GITHUB_REPOSITORY", "undeclared_env:INPUT_AZURE_STATIC_WEB_APPS_API_TOKEN"]);
    expect(ids(judge([{ kind: "env", key: "CIRCLECI" }], { allowed_env: ["PATH", "@agents"] }))).toEqual(["undeclared_env:CIRCLECI"]);
    for (const bad of ["@", "@unknown", "@CI", "@ci*"]) expect(() => envelope({ allowed_env: [bad] }), bad).toThrow(/allowed_env/);
  });

  it("a pattern or a set never matches a key that names a credential; listed exactly, it is allowed", () => {
    const reads = [
      "GITHUB_TOKEN",
      "GITHUB_SHA",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_ACCESS_KEY_ID",
      "AWS_REGION",
      "NPM_CONFIG__AUTH",
      "npm_config__authToken",
      "npm_config_cache",
    ].map((key) => ({ kind: "env", key }));
    const v = judge(reads, { allowed_env: ["PATH", "GITHUB_*", "AWS_*", "NPM_*", "npm_*"] });
    expect(ids(v)).toEqual([
      "undeclared_env:GITHUB_TOKEN",
      "undeclared_env:AWS_SECRET_ACCESS_KEY",
      "undeclared_env:AWS_ACCESS_KEY_ID",
      "undeclared_env:NPM_CONFIG__AUTH",
      "undeclared_env:npm_config__authToken",
    ]);
    expect(ids(judge([{ kind: "env", key: "GITHUB_TOKEN" }], { allowed_env: ["PATH", "GITHUB_*", "GITHUB_TOKEN"] }))).toEqual([]);
  });

  it("a pattern or a set never matches a key that names the machine or its runner (issue 18: a test could fail on runner A's machine only); listed exactly, it is allowed", () => {
    const machine = [
      "RUNNER_NAME",
      "RUNNER_TRACKING_ID",
      "RUNNER_ENVIRONMENT",
      "ImageOS",
      "ImageVersion",
      "HOSTNAME",
      "HOST",
      "AGENT_MACHINENAME",
      "CI_RUNNER_DESCRIPTION",
      "INVOCATION_ID",
    ];
    const plain = ["RUNNER_OS", "RUNNER_ARCH", "RUNNER_TEMP", "HOSTTYPE", "CI_RUNNER_FOO", "AGENT_TEMPDIRECTORY", "ImageOSX"];
    const v = judge(
      [...machine, ...plain].map((key) => ({ kind: "env", key })),
      { allowed_env: ["PATH", "RUNNER_*", "Image*", "HOST*", "AGENT_*", "CI_*", "INVOCATION*"] },
    );
    expect(ids(v)).toEqual(machine.map((key) => `undeclared_env:${key}`));
    expect(ids(judge([{ kind: "env", key: "RUNNER_NAME" }], { allowed_env: ["PATH", "RUNNER_*", "RUNNER_NAME"] }))).toEqual([]);
  });

  it("keys whose values are credentials by convention are credential-named too (red team: they slipped through a pattern)", () => {
    const secret = [
      "CI_JOB_JWT",
      "CI_JOB_JWT_V2",
      "CI_REPOSITORY_URL",
      "GPG_PASSPHRASE",
      "MYSQL_PWD",
      "SMTP_PASS",
      "DOCKER_PASS",
      "SENTRY_DSN",
      "SLACK_WEBHOOK_URL",
      "AZURE_STORAGE_CONNECTION_STRING",
      "DATABASE_URL",
      "REDIS_URL",
      "MONGODB_URI",
      "DEPLOY_KEYS",
      "GH_PAT_2",
      "UNITY_LICENSE",
      "GIT_HTTP_EXTRAHEADER",
      // A registry carries the password where it has one: a credential carrier.
      "NPM_CONFIG_REGISTRY",
    ];
    const plain = ["CI_JOB_ID", "CI_PIPELINE_SOURCE", "SENTRY_ENVIRONMENT", "SLACK_CHANNEL", "DATABASE_NAME", "GPG_TTY", "OLDPWD"];
    const patterns = [
      "PATH",
      "CI_*",
      "GPG_*",
      "MYSQL_*",
      "SMTP_*",
      "DOCKER_*",
      "SENTRY_*",
      "SLACK_*",
      "AZURE_*",
      "DATABASE_*",
      "REDIS_*",
      "MONGODB_*",
      "DEPLOY_*",
      "GH_*",
      "UNITY_*",
      "GIT_*",
      "OLD*",
      "NPM_*",
    ];
    const v = judge(
      [...secret, ...plain].map((key) => ({ kind: "env", key })),
      { allowed_env: patterns },
    );
    expect(ids(v)).toEqual(secret.map((key) => `undeclared_env:${key}`));
  });

  it("no named set holds a key that names a credential or a key the wrapper injects", () => {
    for (const [name, keys] of ENV_SETS) {
      for (const key of keys) {
        expect(CREDENTIAL_KEY.test(key), `${name} ${key}`).toBe(false);
        expect(MACHINE_KEY.test(key), `${name} ${key}`).toBe(false);
        expect(["RUN_ID", "ENVELOPE_HASH", "SCRATCH", "PATH", "HOME"].includes(key), `${name} ${key}`).toBe(false);
      }
    }
  });
});

describe("writes that changed nothing because their target was missing (errno)", () => {
  const loaded = envelope();
  const missing = (path: string, extra: Event = {}): Event => ({
    kind: "write",
    path,
    op: "delete",
    errno: "ENOENT",
    source: "process",
    ...extra,
  });

  it("an ENOENT or ENOTDIR write outside the roots is counted, not judged; fast and full paths agree", () => {
    const events: Event[] = [
      missing("/var/tmp/gone/f"),
      missing("/etc/hostname/x", { errno: "ENOTDIR", op: "rename" }),
      { kind: "write", path: "/var/tmp/made", op: "create", source: "process" },
    ];
    const compact = logText(loaded.hash, events);
    const spaced = compact
      .split("\n")
      .map((l) => (l === "" ? l : JSON.stringify(JSON.parse(l), null, 1).replace(/\n\s*/g, " ")))
      .join("\n");
    const a = evaluate(loaded, compact);
    expect(evaluate(loaded, spaced)).toEqual(a);
    expect(ids(a)).toEqual(["write_outside_root:/var/tmp/made"]);
    expect(a.counts.write).toBe(3);
  });

  it("inside the roots it is judged as any write: a protected path still is; the log's own path always is", () => {
    expect(ids(judge([missing(`${WORKSPACE}/.git/hooks/x`)]))).toEqual([`write_protected:${WORKSPACE}/.git/hooks/x`]);
    expect(ids(judge([missing(`${WORKSPACE}/src/x`)]))).toEqual([]);
    const withLog = logText(loaded.hash, [missing("/var/log/observer.jsonl")], { meta: { log_path: "/var/log/observer.jsonl" } });
    expect(ids(evaluate(loaded, withLog))).toEqual(["write_outside_root:/var/log/observer.jsonl"]);
  });

  it.each([
    ["from the in-process hooks (their records are not the kernel's word)", missing("/etc/passwd", { source: "node" })],
    ["without a source", { kind: "write", path: "/etc/passwd", op: "delete", errno: "ENOENT" }],
    ["with another errno (EROFS is an attempt the jail refused)", missing("/etc/passwd", { errno: "EROFS" })],
    ["not a string", missing("/etc/passwd", { errno: 2 })],
    ["beside ok: false", missing("/etc/passwd", { ok: false })],
    ["on another kind", { kind: "env", key: "HOME", errno: "ENOENT", source: "process" }],
  ])("errno %s is refused as malformed", (_name, event) => {
    expect(refusal(loaded, logText(loaded.hash, [event])).code).toBe("OBSERVER_LOG_MALFORMED");
  });
});

describe("exec jail_pid and meta withheld (the pid join, issue 20 item 3)", () => {
  const exec = (extra: Record<string, unknown>) => ({
    kind: "exec",
    pid: 4100,
    path: "/usr/bin/python3.11",
    argv: ["python3"],
    source: "process",
    ...extra,
  });

  it("accepts a positive integer jail_pid on an exec line and refuses any other value", () => {
    expect(judge([exec({ jail_pid: 12 })]).verdict).toBe("pass");
    const loaded = envelope();
    for (const bad of [0, -3, 1.5, "12", null, true]) {
      const err = refusal(loaded, logText(loaded.hash, [exec({ jail_pid: bad })]));
      expect(err.code, String(bad)).toBe("OBSERVER_LOG_MALFORMED");
      expect(err.message).toContain('"jail_pid" must be a positive integer');
    }
    // Only exec lines carry it.
    const onEnv = refusal(loaded, logText(loaded.hash, [{ kind: "env", key: "CI", pid: 3, jail_pid: 3 }]));
    expect(onEnv.code).toBe("OBSERVER_LOG_MALFORMED");
  });

  it("accepts meta.withheld as distinct key names and refuses anything else", () => {
    const loaded = envelope();
    expect(evaluate(loaded, logText(loaded.hash, [], { meta: { withheld: ["HOME", "PYTHONPATH"] } })).verdict).toBe("pass");
    for (const bad of ["HOME", ["HOME", "HOME"], [""], ["A=b"], [7]]) {
      const err = refusal(loaded, logText(loaded.hash, [], { meta: { withheld: bad } }));
      expect(err.code, JSON.stringify(bad)).toBe("OBSERVER_LOG_MALFORMED");
      expect(err.line).toBe(1);
    }
  });

  it("accepts meta.recorder as the recorder that ran (and why auto fell back to strace) and refuses anything else", () => {
    const loaded = envelope();
    for (const good of [{ name: "ebpf" }, { name: "strace" }, { name: "strace", fallback: "no recorder binary at /x" }]) {
      expect(evaluate(loaded, logText(loaded.hash, [], { meta: { recorder: good } })).verdict, JSON.stringify(good)).toBe("pass");
    }
    for (const bad of [
      "ebpf",
      { name: "bpftrace" },
      { name: "ebpf", fallback: "x" },
      { name: "strace", fallback: "" },
      { name: "strace", why: "x" },
      [],
      null,
    ]) {
      const err = refusal(loaded, logText(loaded.hash, [], { meta: { recorder: bad } }));
      expect(err.code, JSON.stringify(bad)).toBe("OBSERVER_LOG_MALFORMED");
      expect(err.line).toBe(1);
    }
  });
});

describe("write path_unknown (issue 29: a path the recorder cannot know)", () => {
  const write = (extra: Record<string, unknown>) => ({
    kind: "write",
    pid: 4100,
    path: "/proc/self/fd/3/.git",
    op: "rename",
    source: "process",
    ...extra,
  });
  /** The same lines with spaces: the strict JSON.parse reader instead of the byte path. */
  const spaced = (text: string): string =>
    text
      .split("\n")
      .map((l) => (l === "" ? l : JSON.stringify(JSON.parse(l) as unknown, null, 1).replaceAll("\n", "")))
      .join("\n");

  it("refuses the log with OBSERVER_PATH_UNKNOWN naming the line and the reason, in both readers, whatever the path or its outcome", () => {
    const loaded = envelope();
    for (const extra of [
      { path_unknown: "fd-path" },
      { path_unknown: "walk-truncated", path: `${WORKSPACE}/inside.txt` },
      { path_unknown: "fd-path", canary: true },
    ]) {
      // A canary comes first (the self-check block); any other after an ordinary write.
      const before = "canary" in extra ? [] : [{ kind: "write", pid: 1, path: `${WORKSPACE}/ok`, op: "create", source: "process" }];
      const text = logText(loaded.hash, [...before, write(extra)]);
      const line = before.length + 2;
      for (const bytes of [text, spaced(text)]) {
        const err = refusal(loaded, bytes);
        expect(err.code, JSON.stringify(extra)).toBe("OBSERVER_PATH_UNKNOWN");
        expect(err.line).toBe(line);
        expect(err.message).toContain(`observer.jsonl:${line}:`);
        expect(err.message).toContain(String(extra.path_unknown));
      }
    }
  });

  it("a path_unknown that is no reason, or not the process observer's, is OBSERVER_LOG_MALFORMED; on another kind too", () => {
    const loaded = envelope();
    for (const bad of [
      write({ path_unknown: "" }),
      write({ path_unknown: 3 }),
      write({ path_unknown: "Fd Path" }),
      write({ path_unknown: "fd-path", source: "node" }),
    ]) {
      const err = refusal(loaded, logText(loaded.hash, [bad]));
      expect(err.code, JSON.stringify(bad)).toBe("OBSERVER_LOG_MALFORMED");
      expect(err.message).toContain("path_unknown");
    }
    const onExec = refusal(
      loaded,
      logText(loaded.hash, [{ kind: "exec", pid: 3, path: "/bin/true", argv: ["true"], path_unknown: "fd-path" }]),
    );
    expect(onExec.code).toBe("OBSERVER_LOG_MALFORMED");
  });

  it("the byte reader still reads `path` beside a field that starts with the same bytes", () => {
    const loaded = envelope();
    expect(judge([{ kind: "write", pid: 1, path: `${WORKSPACE}/a`, op: "create", source: "process" }]).verdict).toBe("pass");
    expect(judge([{ kind: "write", pid: 1, path: "/etc/x", op: "create", source: "process" }]).violations.map((v) => v.id)).toEqual([
      "write_outside_root:/etc/x",
    ]);
    // `pathX` is no field: malformed, as before.
    const err = refusal(loaded, logText(loaded.hash, [{ kind: "write", pid: 1, path: "/etc/x", pathX: 1, op: "create" }]));
    expect(err.code).toBe("OBSERVER_LOG_MALFORMED");
  });
});
