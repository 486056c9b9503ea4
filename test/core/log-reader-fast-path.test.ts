// The byte paths added for speed (issue 21, item 3): each must give what the strict JSON path gives,
// and the file reader must give what one in-memory push gives, however the chunks fall.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { expandRoots, loadEnvelope, type LoadedEnvelope } from "../../src/core/envelope.js";
import { LogEvaluator, type LogVerdict } from "../../src/core/log-reader.js";
import { evaluateLogFile } from "../../src/check/files.js";
import { envelopeText, logText, tempDir, type Event } from "../support/logs.js";

const WORKSPACE = "/work/repo";
const SCRATCH = "/tmp/agent-scratch";

function envelope(overrides: Record<string, unknown> = {}): LoadedEnvelope {
  return loadEnvelope(Buffer.from(envelopeText(overrides)), "envelope.json");
}

const rootsOf = (loaded: LoadedEnvelope): string[] => expandRoots(loaded, { workspace: WORKSPACE, scratch: SCRATCH });

function evaluate(loaded: LoadedEnvelope, bytes: Buffer | string, chunkSize = 0): LogVerdict {
  const ev = new LogEvaluator(loaded, { roots: rootsOf(loaded), file: "observer.jsonl" });
  const buf = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  if (chunkSize <= 0) ev.push(buf);
  else for (let i = 0; i < buf.length; i += chunkSize) ev.push(buf.subarray(i, i + chunkSize));
  return ev.finish();
}

function outcome(run: () => LogVerdict): LogVerdict | { code: string; line: number | undefined; message: string } {
  try {
    return run();
  } catch (err) {
    expect(err).toBeInstanceOf(Refusal);
    const e = err as Refusal;
    return { code: e.code, line: e.line, message: e.message };
  }
}

/** Every line re-serialised with spaces, which sends it down the strict JSON.parse path. */
function spaced(text: string): string {
  return text
    .split("\n")
    .map((l) => (l === "" ? l : JSON.stringify(JSON.parse(l), null, 1).replace(/\n\s*/g, " ")))
    .join("\n");
}

/** The log with one event line replaced by raw text. */
function withLine(loaded: LoadedEnvelope, raw: string): string {
  return logText(loaded.hash, [{ kind: "tool", name: "read_file" }]).replace(/\n(.*"kind":"tool".*)\n/, `\n${raw}\n`);
}

const ids = (v: LogVerdict): string[] => v.violations.map((x) => x.id);

describe("flat string arrays (exec argv) on the byte path", () => {
  const loaded = envelope({ allowed_commands: ["git"] });
  const events: Event[] = [
    { kind: "exec", path: "/usr/bin/git", argv: ["git", "status", "--porcelain"], pid: 3 },
    { kind: "exec", path: "/usr/bin/curl", argv: ["curl", "h\u00e9llo", ""] },
    { kind: "exec", path: "/usr/bin/git", argv: ["git"], cwd: "/work/repo", jail_pid: 9 },
  ];

  it("gives the strict path's verdict, in any chunking", () => {
    const compact = logText(loaded.hash, events, { seq: true });
    const strict = evaluate(loaded, spaced(compact));
    for (const size of [0, 1, 5, 64]) expect(evaluate(loaded, compact, size)).toEqual(strict);
    expect(ids(strict)).toEqual(["undeclared_command:/usr/bin/curl"]);
  });

  it.each([
    ["a number in argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["git",1]}'],
    ["an empty-array argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":[]}'],
    ["an array for a path", '{"v":1,"kind":"write","path":["/work/repo/a"],"op":"write"}'],
    ["an array for a tool name", '{"v":1,"kind":"tool","name":["read_file"]}'],
    ["an array for a pid", '{"v":1,"kind":"env","key":"CI","pid":["1"]}'],
  ])("answers %s exactly as the strict path does", (_name, raw) => {
    const fast = outcome(() => evaluate(loaded, withLine(loaded, raw)));
    expect(fast).toEqual(outcome(() => evaluate(loaded, spaced(withLine(loaded, raw)))));
  });

  it.each([
    ["a trailing comma in argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["git",]}'],
    ["an unclosed argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["git"}'],
    ["a raw tab in argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["g\tit"]}'],
    ["argv twice", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["git"],"argv":["sh"]}'],
    ["a number in argv", '{"v":1,"kind":"exec","path":"/usr/bin/git","argv":["git",1]}'],
  ])("refuses %s, naming the line", (_name, raw) => {
    expect(outcome(() => evaluate(loaded, withLine(loaded, raw)))).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: 2 });
  });
});

describe("field keys matched by their bytes", () => {
  const loaded = envelope();
  it.each([
    ["a key that is a field's start", '{"v":1,"kind":"env","ke":"CI"}'],
    ["a key that runs past a field", '{"v":1,"kind":"env","keys":"CI"}'],
    ["a key sharing a field's first two bytes", '{"v":1,"kind":"env","key":"CI","vi":"x"}'],
    ["a key ending the line", '{"v":1,"kind":"env","key":"CI","v'],
    ["a one-byte key", '{"v":1,"kind":"env","key":"CI","k":1}'],
    ["an empty key", '{"v":1,"kind":"env","key":"CI","":1}'],
    ["a field with a non-ASCII byte", '{"v":1,"kind":"env","k\u00e9y":"CI"}'],
  ])("refuses %s", (_name, raw) => {
    expect(outcome(() => evaluate(loaded, withLine(loaded, raw)))).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: 2 });
  });

  it("reads v and via apart", () => {
    const l = envelope({ network: "allowlist", allowed_hosts: ["api.example.com"] });
    const v = evaluate(l, logText(l.hash, [{ kind: "host", host: "10.0.0.1", port: 443, via: "api.example.com" }]));
    expect(v.verdict).toBe("pass");
  });
});

describe("allowed tools and env keys matched on the bytes", () => {
  it("passes the allowed ones and still judges the rest, as the strict path does", () => {
    const loaded = envelope({ allowed_env: ["CI", "PATH", "NPM_*", "@ci"] });
    const events: Event[] = [
      { kind: "tool", name: "read_file" },
      { kind: "tool", name: "read_fil" },
      { kind: "tool", name: "read_files" },
      { kind: "env", key: "CI" },
      { kind: "env", key: "NPM_TOKEN" },
      { kind: "env", key: "NPM_CONFIG_CACHE" },
      { kind: "env", key: "PAT" },
      { kind: "env", key: "PATH2" },
    ];
    const compact = logText(loaded.hash, events);
    const fast = evaluate(loaded, compact);
    expect(fast).toEqual(evaluate(loaded, spaced(compact)));
    expect(ids(fast)).toContain("undeclared_tool:read_fil");
    expect(ids(fast)).toContain("undeclared_tool:read_files");
    expect(ids(fast)).toContain("undeclared_env:PAT");
    expect(ids(fast)).toContain("undeclared_env:PATH2");
  });

  it("still refuses an empty tool name and an empty key", () => {
    const loaded = envelope();
    for (const raw of ['{"v":1,"kind":"tool","name":""}', '{"v":1,"kind":"env","key":""}']) {
      expect(outcome(() => evaluate(loaded, withLine(loaded, raw)))).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: 2 });
    }
  });
});

describe("the protected pre-filter on the bytes", () => {
  const loaded = envelope();
  const write = (path: string): Event => ({ kind: "write", path, op: "write" });

  it("looks only at the write's own path, never at the lines after it in the chunk", () => {
    const v = evaluate(
      loaded,
      logText(loaded.hash, [write(`${WORKSPACE}/src/a.ts`), write(`${WORKSPACE}/.git/config`), write(`${WORKSPACE}/b`)]),
    );
    expect(v.violations).toEqual([
      {
        id: `write_protected:${WORKSPACE}/.git/config`,
        rule: "write_protected",
        subject: `${WORKSPACE}/.git/config`,
        first_line: 3,
        count: 1,
      },
    ]);
  });

  it("agrees with the strict path on .git at the end, inside a segment, and on recorded protected paths", () => {
    const events = [
      write(`${WORKSPACE}/.git`),
      write(`${WORKSPACE}/.gitignore`),
      write(`${WORKSPACE}/a.git/x`),
      write(`${WORKSPACE}/x/.git/HEAD`),
      write(`${WORKSPACE}/.github/workflows/ci.yml`),
      write(`${WORKSPACE}/.githubx`),
      write(`${WORKSPACE}/vendor/action`),
      write(`${WORKSPACE}/vendor/actions`),
    ];
    const meta = { protected: { paths: [`${WORKSPACE}/.github`, `${WORKSPACE}/vendor/action`], writable: [] } };
    const compact = logText(loaded.hash, events, { meta });
    const fast = evaluate(loaded, compact);
    expect(fast).toEqual(evaluate(loaded, spaced(compact)));
    expect(ids(fast)).toEqual([
      `write_protected:${WORKSPACE}/.git`,
      `write_protected:${WORKSPACE}/x/.git/HEAD`,
      `write_protected:${WORKSPACE}/.github/workflows/ci.yml`,
      `write_protected:${WORKSPACE}/vendor/action`,
    ]);
  });

  it("judges a root that holds a .git as the strict path does (the lexical rule looks below the root)", () => {
    const text = logText(loaded.hash, [write("/work/repo/.git/wt/a"), write("/work/repo/.git/wt/.git/b")]);
    const run = (t: string): LogVerdict => {
      const ev = new LogEvaluator(loaded, { roots: ["/work/repo/.git/wt", SCRATCH], file: "observer.jsonl" });
      ev.push(Buffer.from(t));
      return ev.finish();
    };
    expect(run(text)).toEqual(run(spaced(text)));
    expect(ids(run(text))).toEqual(["write_protected:/work/repo/.git/wt/.git/b"]);
  });

  it("folds a path below the root before judging it", () => {
    const v = evaluate(
      loaded,
      logText(loaded.hash, [write(`${WORKSPACE}/a/../../etc/x`), write(`${WORKSPACE}/a/./b`), write(`${WORKSPACE}//.git/x`)]),
    );
    expect(ids(v)).toEqual(["write_outside_root:/work/etc/x", `write_protected:${WORKSPACE}/.git/x`]);
  });
});

describe("reading the file: two buffers taking turns", () => {
  const dir = tempDir("eg-fast-path-");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const loaded = envelope({ allowed_commands: ["git"] });
  const events: Event[] = [];
  for (let i = 0; i < 150; i++) {
    events.push({ kind: "write", path: `${WORKSPACE}/src/m${i % 13}/f\u00e9${i}.ts`, op: "write", pid: 10 + (i % 3), source: "node" });
    if (i % 7 === 0) events.push({ kind: "exec", path: "/usr/bin/git", argv: ["git", "status", `--n=${i}`] });
    if (i % 50 === 3) events.push({ kind: "env", key: `SECRET_${i}` });
  }
  const text = logText(loaded.hash, events, { seq: true });
  const file = (name: string, content: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const read = (path: string, chunk: number) => evaluateLogFile(loaded, path, { roots: rootsOf(loaded) }, chunk);

  it("gives one push's verdict whatever the chunk size, with CRLF too", async () => {
    const lf = file("lf.jsonl", text);
    const crlf = file("crlf.jsonl", text.replace(/\n/g, "\r\n"));
    const expected = evaluate(loaded, text);
    expect(ids(expected)).toContain("undeclared_env:SECRET_3");
    for (const size of [7, 100, 4096, 1 << 20]) {
      expect(await read(lf, size)).toEqual(expected);
      expect(await read(crlf, size)).toEqual(evaluate(loaded, text.replace(/\n/g, "\r\n")));
    }
  });

  it("refuses invalid UTF-8 split across two reads, naming its line", async () => {
    const lines = text.split("\n");
    const at = 100;
    const prefix = Buffer.from(lines.slice(0, at).join("\n") + "\n" + '{"v":1,"kind":"env","key":"X');
    const bad = Buffer.concat([prefix, Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from('"}\n' + lines.slice(at + 1).join("\n"))]);
    const path = file("bad-utf8.jsonl", bad);
    for (const size of [prefix.length - 1, prefix.length, prefix.length + 1, 3, 4096]) {
      const err = await read(path, size).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Refusal);
      expect(err).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: at + 1 });
    }
  });

  it("refuses a line longer than the limit across many reads, and a bad line early, with the next read in flight", async () => {
    const lines = text.split("\n");
    const early = file("early.jsonl", [lines[0], "{oops", ...lines.slice(2)].join("\n"));
    for (const size of [16, 1 << 20]) {
      await expect(read(early, size)).rejects.toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: 2 });
    }
    const long = file("long.jsonl", [lines[0], `{"v":1,"kind":"tool","name":"${"a".repeat(5 * 1024 * 1024)}"}`, ""].join("\n"));
    await expect(read(long, 1 << 20)).rejects.toMatchObject({ code: "OBSERVER_LOG_MALFORMED", line: 2 });
  });

  it("refuses a last line cut inside a read", async () => {
    const cut = file("cut.jsonl", text.slice(0, -7));
    for (const size of [5, 1 << 20]) await expect(read(cut, size)).rejects.toMatchObject({ code: "OBSERVER_LOG_INCOMPLETE" });
  });
});

describe('"source": "effects" (the effects check), on both paths', () => {
  const loaded = envelope();
  const judge = (events: Event[]): ReturnType<typeof outcome>[] => {
    const text = logText(loaded.hash, events);
    return [outcome(() => evaluate(loaded, text)), outcome(() => evaluate(loaded, spaced(text)))];
  };

  it("a write from the filesystem is write_protected, whatever its path: .git, .gitmodules, a path with no protected name", () => {
    const [fast, strict] = judge([
      { kind: "write", path: `${WORKSPACE}/sub/.git`, op: "mkdir", source: "effects" },
      { kind: "write", path: `${WORKSPACE}/.gitmodules`, op: "create", source: "effects" },
      { kind: "write", path: `${WORKSPACE}/src/a.ts`, op: "write", source: "effects" },
      { kind: "write", path: `${WORKSPACE}/src/b.ts`, op: "write" },
    ]);
    expect(fast).toEqual(strict);
    expect(ids(fast as LogVerdict)).toEqual([
      `write_protected:${WORKSPACE}/sub/.git`,
      `write_protected:${WORKSPACE}/.gitmodules`,
      `write_protected:${WORKSPACE}/src/a.ts`,
    ]);
  });

  it("only on write lines, and never as a canary", () => {
    for (const events of [
      [{ kind: "exec", path: "/usr/bin/git", argv: ["git"], source: "effects" }],
      [{ kind: "tool", name: "read_file", source: "effects" }],
    ] as Event[][]) {
      const [fast, strict] = judge(events);
      expect(fast).toEqual(strict);
      expect(fast).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", message: expect.stringContaining("only on write events") });
    }
    const raw = withLine(loaded, `{"v":1,"kind":"write","path":"${WORKSPACE}/.git","op":"mkdir","source":"effects","canary":true}`);
    const a = outcome(() => evaluate(loaded, raw));
    expect(a).toEqual(outcome(() => evaluate(loaded, spaced(raw))));
    expect(a).toMatchObject({ code: "OBSERVER_LOG_MALFORMED", message: expect.stringContaining("never a canary") });
  });
});
