/**
 * Real test suites of other projects, adopted with envelope-gate end to end (issue 20): how each
 * is obtained (the npm registry or Debian packages only), a copy in a fresh workspace, and its
 * command; and `adopt`, which walks the adoption path of docs/authoring.md with the bundled CLI:
 * a bare run, rounds of two recordings (the first under a narrow envelope, which may fail) and
 * `suggest` over them, an enforced run under the suggested envelope, and a hostile twin (the same
 * suite plus one line) that must fail it. No envelope entry is told by hand: what the suite needs
 * is learnt from its logs, or proposed from the keys a failed run withheld.
 *
 * Used by test/observer/real-suites.test.ts and by `npm run adoption` (scripts/adoption.mjs,
 * which transpiles this file), so it imports only Node's own modules.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { TEST_TMP } from "./test-tmp.js";
import type { Envelope } from "../../src/core/envelope.js";

export type SuiteName = "node" | "python" | "go" | "c" | "rust";

export interface Hostile {
  /** What the added line does, in words. */
  what: string;
  /** The violation id `check` must report for it. */
  violation: string;
}

export interface Suite {
  name: SuiteName;
  /** What runs, in words. */
  title: string;
  /** Debian packages the suite needs, each with a file that shows it is installed. */
  debian: { pkg: string; file: string }[];
  /**
   * What the caller's environment sets besides the machine's (never an envelope entry: the
   * envelope is learnt). Rust's PATH, so Debian's cargo is found before a rustup shim.
   */
  env(): Record<string, string>;
  /** Fills the (empty) workspace; `base` is the adoption's own folder, outside every root, for downloads. */
  prepare(workspace: string, base: string): void;
  /** The command, run in the workspace. */
  command(): string[];
  /** Adds one line to the workspace's copy of the suite that must fail the check. */
  hostile(workspace: string, outside: string): Hostile;
}

const q = JSON.stringify;

// ---------------------------------------------------------------------------------------------
// Python: CPython 3.11's own tests, Debian's libpython3.11-testsuite.

const PYTHON = "/usr/bin/python3.11";
const PY_TEST = "/usr/lib/python3.11/test";
/** Files, temporary directories, subprocesses; no network. */
export const PYTHON_MODULES = ["test_json", "test_textwrap", "test_shutil", "test_tempfile", "test_popen"];

const python: Suite = {
  name: "python",
  title: `CPython 3.11's own tests (${PYTHON_MODULES.join(", ")}), run by regrtest`,
  debian: [
    { pkg: "python3.11", file: PYTHON },
    { pkg: "libpython3.11-testsuite", file: join(PY_TEST, "test_shutil.py") },
  ],
  env: () => ({}),
  prepare(workspace) {
    // The `test` package (its runner, support code, helper scripts and data files: every top-level
    // file but other test modules) and the chosen modules: `python -m test` in the workspace finds
    // this copy first (sys.path[0] is the current directory).
    const dest = join(workspace, "test");
    mkdirSync(dest);
    const dirs = new Set(["libregrtest", "support", ...PYTHON_MODULES]);
    const modules = new Set(PYTHON_MODULES.map((m) => `${m}.py`));
    for (const entry of readdirSync(PY_TEST, { withFileTypes: true })) {
      const wanted = entry.isDirectory() ? dirs.has(entry.name) : !entry.name.startsWith("test_") || modules.has(entry.name);
      if (wanted)
        cpSync(join(PY_TEST, entry.name), join(dest, entry.name), { recursive: true, filter: (src) => !src.includes("__pycache__") });
    }
  },
  command: () => [PYTHON, "-m", "test", ...PYTHON_MODULES],
  hostile(workspace, outside) {
    const file = join(outside, "python-was-here");
    appendFileSync(join(workspace, "test/test_textwrap.py"), `\nopen(${q(file)}, "w").write("x")\n`);
    return { what: `test_textwrap.py also writes ${file}`, violation: `write_outside_root:${file}` };
  },
};

// ---------------------------------------------------------------------------------------------
// Go: spf13/pflag's sources and tests from Debian's golang-github-spf13-pflag-dev, built and
// tested by Debian's golang-go with a cold build cache in the run's scratch.

const GO_SRC = "/usr/share/gocode/src/github.com/spf13/pflag";

const go: Suite = {
  name: "go",
  title: "spf13/pflag's own tests (`go test ./...`, a cold build cache in the run's HOME)",
  debian: [
    { pkg: "golang-go", file: "/usr/bin/go" },
    { pkg: "golang-github-spf13-pflag-dev", file: join(GO_SRC, "flag_test.go") },
  ],
  // The go command reads GOCACHE (or XDG_CACHE_HOME, or HOME) natively: no line records it, and
  // without one of them it refuses to build. The first recording fails for want of HOME, which
  // the caller had and run withheld: suggest proposes it (unobserved), and the cache lands in
  // the run's private HOME, in its scratch.
  env: () => ({}),
  prepare(workspace) {
    cpSync(GO_SRC, workspace, { recursive: true });
  },
  // -vet=off: go 1.19's vet, which `go test` runs first, rejects one of pflag's own test files
  // (a redundant newline in fmt.Println); the suite is the tests, not vet's opinion of them.
  command: () => ["go", "test", "-vet=off", "-count=1", "./..."],
  hostile(workspace, outside) {
    const file = join(outside, "go-was-here");
    appendFileSync(join(workspace, "flag_test.go"), `\nfunc init() { _ = os.WriteFile(${q(file)}, []byte("x"), 0644) }\n`);
    return { what: `flag_test.go also writes ${file}`, violation: `write_outside_root:${file}` };
  },
};

// ---------------------------------------------------------------------------------------------
// C: the SQLite amalgamation that better-sqlite3 ships on npm (this repository's own dependency),
// built with gcc and make, then a driver that runs a SQL script of assertions.

/** This repository's root: the nearest folder up with envelope-gate's package.json (the file may run transpiled elsewhere in it). */
function repoRoot(): string {
  for (let dir = import.meta.dirname; dir !== "/"; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "envelope-gate") return dir;
  }
  throw new Error(`no envelope-gate package.json above ${import.meta.dirname}`);
}

export const SQLITE_DIR = join(repoRoot(), "node_modules/better-sqlite3/deps/sqlite3");

const MAKEFILE = `CC = cc
CFLAGS = -O0
SQLITE_FLAGS = -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_FTS5

all: sqltest

sqlite3.o: sqlite3.c sqlite3.h
\t$(CC) $(CFLAGS) $(SQLITE_FLAGS) -c sqlite3.c -o $@

sqltest: sqltest.c sqlite3.o
\t$(CC) $(CFLAGS) -o $@ sqltest.c sqlite3.o -lm

test: sqltest
\trm -f test.db test.db-wal test.db-shm other.db copy.db
\t./sqltest test.db test.sql

.PHONY: all test
`;

const SQLTEST_C = `/* Runs a SQL script statement by statement; assert_eq(a, b) fails the run when a and b differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3.h"

static void assert_eq(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *a = (const char *)sqlite3_value_text(argv[0]);
  const char *b = (const char *)sqlite3_value_text(argv[1]);
  (void)argc;
  if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0)) {
    char *msg = sqlite3_mprintf("assert_eq: %s != %s", a ? a : "NULL", b ? b : "NULL");
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
    return;
  }
  sqlite3_result_int(ctx, 1);
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: %s DB SCRIPT\\n", argv[0]); return 2; }
  FILE *f = fopen(argv[2], "rb");
  if (f == NULL) { perror(argv[2]); return 2; }
  static char sql[1 << 20];
  size_t n = fread(sql, 1, sizeof sql - 1, f);
  fclose(f);
  sql[n] = 0;
  sqlite3 *db;
  if (sqlite3_open(argv[1], &db) != SQLITE_OK) { fprintf(stderr, "open: %s\\n", sqlite3_errmsg(db)); return 1; }
  sqlite3_create_function(db, "assert_eq", 2, SQLITE_UTF8, NULL, assert_eq, NULL, NULL);
  const char *tail = sql;
  int statements = 0;
  while (*tail) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) { fprintf(stderr, "prepare: %s\\n", sqlite3_errmsg(db)); return 1; }
    if (st == NULL) continue;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {}
    if (rc != SQLITE_DONE) { fprintf(stderr, "statement %d: %s\\n", statements + 1, sqlite3_errmsg(db)); return 1; }
    sqlite3_finalize(st);
    statements++;
  }
  sqlite3_close(db);
  printf("sqltest: %d statements, all assertions held (SQLite %s)\\n", statements, sqlite3_libversion());
  return 0;
}
`;

const TEST_SQL = `PRAGMA journal_mode=WAL;
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, n INT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
  INSERT INTO t(name, n) SELECT printf('row-%05d', x), x % 97 FROM c;
SELECT assert_eq((SELECT count(*) FROM t), 20000);
CREATE INDEX t_n ON t(n);
SELECT assert_eq((SELECT count(*) FROM t WHERE n = 5), 207);
PRAGMA temp_store=FILE;
PRAGMA cache_size=5;
SELECT assert_eq((SELECT group_concat(name) FROM (SELECT name FROM t ORDER BY name DESC LIMIT 2)), 'row-20000,row-19999');
SELECT assert_eq(json_extract('{"a":[1,2,3]}', '$.a[2]'), 3);
CREATE VIRTUAL TABLE docs USING fts5(body);
INSERT INTO docs VALUES ('the envelope is pinned'), ('the observer records'), ('a check fails closed');
SELECT assert_eq((SELECT count(*) FROM docs WHERE docs MATCH 'check'), 1);
ATTACH 'other.db' AS other;
CREATE TABLE other.u AS SELECT * FROM t WHERE n < 10;
SELECT assert_eq((SELECT count(*) FROM other.u), 2069);
DETACH other;
BEGIN;
DELETE FROM t WHERE n = 0;
ROLLBACK;
SELECT assert_eq((SELECT count(*) FROM t), 20000);
VACUUM INTO 'copy.db';
PRAGMA integrity_check;
`;

const c: Suite = {
  name: "c",
  title: "SQLite's amalgamation (from better-sqlite3 on npm) built with gcc and make, then a SQL script of assertions",
  debian: [
    { pkg: "gcc", file: "/usr/bin/gcc" },
    { pkg: "make", file: "/usr/bin/make" },
    { pkg: "libc6-dev", file: "/usr/include/stdio.h" },
  ],
  env: () => ({}),
  prepare(workspace) {
    for (const f of ["sqlite3.c", "sqlite3.h"]) cpSync(join(SQLITE_DIR, f), join(workspace, f));
    writeFileSync(join(workspace, "Makefile"), MAKEFILE);
    writeFileSync(join(workspace, "sqltest.c"), SQLTEST_C);
    writeFileSync(join(workspace, "test.sql"), TEST_SQL);
  },
  command: () => ["make", "test"],
  hostile(workspace, outside) {
    const file = join(outside, "c-was-here.db");
    appendFileSync(join(workspace, "test.sql"), `ATTACH ${q(file).replace(/"/g, "'")} AS evil; CREATE TABLE evil.t(x);\n`);
    return { what: `test.sql also creates the database ${file}`, violation: `write_outside_root:${file}` };
  },
};

// ---------------------------------------------------------------------------------------------
// Node: @fastify/error's own tests as published on npm (`node --test`: child processes, files in
// os.tmpdir(), no dependencies).

export const NODE_PACKAGE = "@fastify/error@4.3.0";

const node: Suite = {
  name: "node",
  title: `${NODE_PACKAGE}'s own tests from its npm tarball (\`node --test\`)`,
  debian: [],
  env: () => ({}),
  prepare(workspace, base) {
    const packed = join(base, "npm-pack");
    mkdirSync(packed, { recursive: true });
    if (!readdirSync(packed).some((f) => f.endsWith(".tgz"))) {
      const r = spawnSync("npm", ["pack", NODE_PACKAGE, "--pack-destination", packed, "--silent"], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`npm pack ${NODE_PACKAGE} failed: ${r.stderr}`);
    }
    const tgz = readdirSync(packed).find((f) => f.endsWith(".tgz"));
    const r = spawnSync("tar", ["xzf", join(packed, tgz ?? ""), "-C", workspace, "--strip-components=1"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tar failed: ${r.stderr}`);
  },
  command: () => [process.execPath, "--test"],
  hostile(workspace) {
    appendFileSync(join(workspace, "test/index.test.js"), `\nvoid process.env.AWS_SECRET_ACCESS_KEY\n`);
    return { what: "test/index.test.js also reads AWS_SECRET_ACCESS_KEY", violation: "undeclared_env:AWS_SECRET_ACCESS_KEY" };
  },
};

// ---------------------------------------------------------------------------------------------
// Rust: a crate with no dependencies, `cargo test --offline` with Debian's cargo.

const rust: Suite = {
  name: "rust",
  title: "a dependency-free crate's unit, integration and doc tests (`cargo test --offline`)",
  debian: [{ pkg: "cargo", file: "/usr/bin/cargo" }],
  // cargo reads CARGO_HOME and HOME natively (no line records it), but without them it falls back
  // to the passwd entry's home, which is the run's private HOME: nothing to propose.
  // Debian's cargo and rustc, not a rustup install's proxies earlier on the caller's PATH (they
  // need RUSTUP_HOME and a toolchain download).
  env: () => ({ PATH: "/usr/local/bin:/usr/bin:/bin" }),
  prepare(workspace) {
    mkdirSync(join(workspace, "src"));
    mkdirSync(join(workspace, "tests"));
    writeFileSync(join(workspace, "Cargo.toml"), `[package]\nname = "eg_suite"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`);
    writeFileSync(
      join(workspace, "src/lib.rs"),
      `//! Word counts.
use std::collections::BTreeMap;

/// Counts words.
///
/// \`\`\`
/// assert_eq!(eg_suite::count("a b a")["a"], 2);
/// \`\`\`
pub fn count(text: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for w in text.split_whitespace() {
        *m.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts() {
        assert_eq!(super::count("A a b")["a"], 2);
    }
}
`,
    );
    writeFileSync(
      join(workspace, "tests/files.rs"),
      `use std::io::Write;

#[test]
fn writes_and_reads_a_temp_file() {
    let path = std::env::temp_dir().join(format!("eg-suite-{}", std::process::id()));
    std::fs::File::create(&path).unwrap().write_all(b"x y x").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(eg_suite::count(&text)["x"], 2);
    std::fs::remove_file(&path).unwrap();
}
`,
    );
  },
  command: () => ["cargo", "test", "--offline"],
  hostile(workspace, outside) {
    const file = join(outside, "rust-was-here");
    appendFileSync(join(workspace, "tests/files.rs"), `\n#[test]\nfn hostile() { std::fs::write(${q(file)}, b"x").unwrap(); }\n`);
    return { what: `tests/files.rs also writes ${file}`, violation: `write_outside_root:${file}` };
  },
};

export const SUITES: Record<SuiteName, Suite> = { node, python, go, c, rust };

// ---------------------------------------------------------------------------------------------
// Obtaining what the suites need.

/** The Debian packages a suite needs that are not installed. */
export function missingPackages(suite: Suite): string[] {
  return suite.debian.filter((d) => !existsSync(d.file)).map((d) => d.pkg);
}

/**
 * Installs the suite's missing Debian packages with apt-get (root only, as .ci/run does); returns
 * null when everything is there, or why it is not.
 */
export function ensure(suite: Suite): string | null {
  let missing = missingPackages(suite);
  if (suite.name === "c" && !existsSync(join(SQLITE_DIR, "sqlite3.c"))) return `no SQLite amalgamation at ${SQLITE_DIR} (npm ci first)`;
  if (missing.length === 0) return null;
  if (process.getuid?.() !== 0) return `missing Debian packages ${missing.join(", ")} (not root: cannot apt-get install them)`;
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", ...missing], {
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  missing = missingPackages(suite);
  if (missing.length === 0) return null;
  return `apt-get could not install ${missing.join(", ")} (update exit ${update.status}, install exit ${install.status}: ${install.stderr.trim().slice(-400)})`;
}

// ---------------------------------------------------------------------------------------------
// The adoption path.

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function spawnIn(command: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command[0] ?? "", command.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - start }));
  });
}

export function writeEnvelope(file: string, envelope: Envelope): void {
  const text = JSON.stringify(envelope, null, 2) + "\n";
  writeFileSync(file, text);
  writeFileSync(`${file}.sha256`, `${createHash("sha256").update(text).digest("hex")}  ${file.split("/").pop() ?? ""}\n`);
}

/** The narrow envelope every suite is first recorded under: the roots, PATH, @ci, deny; nothing told. */
export function narrowEnvelope(suite: Suite): Envelope {
  return {
    envelope_id: `${suite.name}-suite-narrow`,
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: ["PATH", "@ci"],
    allowed_hosts: [],
    network: "deny",
  };
}

export interface Recorded {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  log: string;
  workspace: string;
  scratch: string;
  lines: Record<string, unknown>[];
  /** The keys run withheld from the caller's environment (`meta.withheld`, every name). */
  withheld: string[] | null;
  withheldCount: number | null;
}

export interface CheckReport {
  verdict: string;
  events: number;
  violations: { id: string; count: number; first_line: number }[];
  error: { code: string; message: string } | null;
}

/** One round of the adoption path: recordings under an envelope, `suggest` over them, the enforced run. */
export interface Round {
  /** The envelope the round records under (the narrow one, then the round before's suggestion). */
  envelope: Envelope;
  records: Recorded[];
  /** `check` of each recording against the round's envelope. */
  recordChecks: CheckReport[];
  suggestOutput: Spawned;
  suggested: Envelope;
  /** `suggest`'s entries, parsed from its output (`+` seen, `?` unobserved). */
  entries: SuggestedEntry[];
  enforced: Recorded;
  enforcedCheck: CheckReport;
}

export interface SuggestedEntry {
  key: string;
  entry: string;
  unobserved: boolean;
  /** The program suggest names (`read by …`, `written by …`), or for an unobserved key the one that ran. */
  program: string | null;
}

/** At most this many rounds: docs/authoring.md's adoption path allows rounds, the harness no more. */
export const MAX_ROUNDS = 3;

export interface Adoption {
  suite: SuiteName;
  base: string;
  outside: string;
  /** The caller's HOME: a fresh real directory, outside every root (a runner's /home/runner). */
  home: string;
  bare: Spawned;
  narrow: Envelope;
  /** Every round, in order; the last one's enforced run passed, or MAX_ROUNDS were used. */
  rounds: Round[];
  /** The first round's recordings, under the narrow envelope, and their checks. */
  records: Recorded[];
  recordChecks: CheckReport[];
  /** The last round's suggestion, output and enforced run. */
  suggestOutput: Spawned;
  suggested: Envelope;
  enforced: Recorded;
  enforcedCheck: CheckReport;
  hostile?: { what: string; violation: string; run: Recorded; check: CheckReport };
}

function parseLog(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * The environment every run starts from, as a GitHub-hosted runner gives it: the machine's, CI=true,
 * and HOME a real directory of its own (the runner's /home/runner), outside every root.
 */
function callerEnv(home: string, suite: Suite): NodeJS.ProcessEnv {
  return { ...process.env, CI: "true", HOME: home, ...suite.env() };
}

/** `suggest`'s entry lines: `  + allowed_env      KEY  (…; read by PROGRAM)` and `  ? allowed_env      KEY  (withheld; P ran …)`. */
export function parseSuggestEntries(stdout: string): SuggestedEntry[] {
  const out: SuggestedEntry[] = [];
  for (const line of stdout.split("\n")) {
    const m = /^ {2}([+?]) (allowed_[a-z]+) +(\S+) {2}\((.*)\)$/.exec(line);
    if (m === null) continue;
    const [, mark, key, entry, detail] = m as unknown as [string, string, string, string, string];
    const by = /; (?:read|written|called|reached|started) by (.*)$/.exec(detail);
    const ran = /^withheld; (\S+) ran /.exec(detail);
    out.push({ key, entry, unobserved: mark === "?", program: by?.[1] ?? ran?.[1] ?? null });
  }
  return out;
}

export interface AdoptOptions {
  /** The bundled CLI, `dist/cli/index.js`. */
  cli: string;
  /** Where the adoption's folder is made (not /tmp: the jail gives the command a private one). */
  tmp?: string;
  /** Also run the hostile twin (default true). */
  hostile?: boolean;
  /** How many recordings `suggest` merges (default 2). */
  recordings?: number;
  /** Progress lines. */
  say?: (line: string) => void;
}

export async function adopt(suite: Suite, options: AdoptOptions): Promise<Adoption> {
  const say = options.say ?? (() => undefined);
  const tmp = options.tmp ?? TEST_TMP;
  const base = realpathSync(mkdtempSync(join(tmp, `eg-suite-${suite.name}-`)));
  // The suite as obtained; every run gets a fresh copy of it (a fresh checkout, as CI has: no
  // build output of an earlier run), outside every root but its own workspace.
  const pristine = join(base, "pristine");
  const outside = join(base, "outside");
  const home = join(base, "home");
  for (const d of [pristine, outside, home]) mkdirSync(d);
  const caller = callerEnv(home, suite);
  suite.prepare(pristine, base);
  const fresh = (name: string): string => {
    const dir = join(base, `workspace-${name}`);
    cpSync(pristine, dir, { recursive: true });
    return dir;
  };

  // Bare: the command as the suite's own CI would run it.
  say(`${suite.name}: bare run`);
  const bare = await spawnIn(suite.command(), fresh("bare"), caller);

  const cliRun = async (envelope: string, name: string, workspace: string): Promise<Recorded> => {
    const scratch = join(base, `scratch-${name}`);
    mkdirSync(scratch);
    const log = join(base, `${name}.jsonl`);
    const args = [options.cli, "run", "--envelope", envelope, "--observer", log, "--workspace", workspace, "--scratch", scratch, "--"];
    const r = await spawnIn([process.execPath, ...args, ...suite.command()], workspace, caller);
    const lines = parseLog(log);
    const withheld = Array.isArray(lines[0]?.withheld) ? (lines[0].withheld as unknown[]).map(String) : null;
    return {
      code: r.code,
      ms: r.ms,
      stdout: r.stdout,
      stderr: r.stderr,
      log,
      workspace,
      scratch,
      lines,
      withheldCount: withheld?.length ?? null,
      withheld,
    };
  };
  const cliCheck = async (envelope: string, log: string): Promise<CheckReport> => {
    const r = await spawnIn(
      [process.execPath, options.cli, "check", "--envelope", envelope, "--observer", log, "--format", "json"],
      base,
      process.env,
    );
    return JSON.parse(r.stdout) as CheckReport;
  };

  const narrow = narrowEnvelope(suite);
  const narrowFile = join(base, "narrow.json");
  writeEnvelope(narrowFile, narrow);
  // Rounds: record under the envelope so far (the narrow one first; a recording may fail), suggest
  // from those logs with --from it, enforce the suggestion; a round whose enforced run does not
  // pass (the command fails, or the check) makes the suggestion the next round's envelope.
  const rounds: Round[] = [];
  let envelope = narrow;
  let envelopeFile = narrowFile;
  for (let n = 1; n <= MAX_ROUNDS; n++) {
    const tag = n === 1 ? "" : `round-${n}-`;
    const records: Recorded[] = [];
    const recordChecks: CheckReport[] = [];
    for (let i = 1; i <= (options.recordings ?? 2); i++) {
      say(`${suite.name}: round ${n}, recording ${i} under ${n === 1 ? "the narrow envelope" : `round ${n - 1}'s suggestion`}`);
      const r = await cliRun(envelopeFile, `${tag}record-${i}`, fresh(`${tag}record-${i}`));
      records.push(r);
      recordChecks.push(await cliCheck(envelopeFile, r.log));
    }

    say(`${suite.name}: round ${n}, suggest`);
    const suggestedFile = join(base, `${tag}suggested.json`);
    const suggestOutput = await spawnIn(
      [
        process.execPath,
        options.cli,
        "suggest",
        ...records.flatMap((r) => ["--observer", r.log]),
        "--from",
        envelopeFile,
        "--write",
        suggestedFile,
      ],
      base,
      process.env,
    );
    if (suggestOutput.code !== 0 || !existsSync(suggestedFile))
      throw new Error(`suggest failed (${suggestOutput.code}): ${suggestOutput.stderr}${suggestOutput.stdout}`);
    const suggested = JSON.parse(readFileSync(suggestedFile, "utf8")) as Envelope;

    say(`${suite.name}: round ${n}, enforced run under the suggested envelope`);
    const enforced = await cliRun(suggestedFile, `${tag}enforce`, fresh(`${tag}enforce`));
    const enforcedCheck = await cliCheck(suggestedFile, enforced.log);
    rounds.push({
      envelope,
      records,
      recordChecks,
      suggestOutput,
      suggested,
      entries: parseSuggestEntries(suggestOutput.stdout),
      enforced,
      enforcedCheck,
    });
    envelope = suggested;
    envelopeFile = suggestedFile;
    if (enforced.code === 0 && enforcedCheck.verdict === "pass") break;
  }
  const first = rounds[0] as Round;
  const last = rounds[rounds.length - 1] as Round;
  const adoption: Adoption = {
    suite: suite.name,
    base,
    outside,
    home,
    bare,
    narrow,
    rounds,
    records: first.records,
    recordChecks: first.recordChecks,
    suggestOutput: last.suggestOutput,
    suggested: last.suggested,
    enforced: last.enforced,
    enforcedCheck: last.enforcedCheck,
  };

  if (options.hostile !== false) {
    const workspace = fresh("hostile");
    const { what, violation } = suite.hostile(workspace, outside);
    say(`${suite.name}: hostile twin (${what})`);
    const run = await cliRun(envelopeFile, "hostile", workspace);
    adoption.hostile = { what, violation, run, check: await cliCheck(envelopeFile, run.log) };
  }
  return adoption;
}

// ---------------------------------------------------------------------------------------------
// What is measured.

/** Lines of the command's own: the wrapper's self-test (`canary: true`) lines are left out. */
export function ownLines(r: Recorded): Record<string, unknown>[] {
  return r.lines.filter((l) => l.canary !== true && l.kind !== "meta" && l.kind !== "end");
}

/** Distinct keys the program read (not the Node runtime's own reads, not the canary's). */
export function keysRead(r: Recorded): string[] {
  return [...new Set(ownLines(r).flatMap((l) => (l.kind === "env" && l.source !== "runtime" ? [String(l.key)] : [])))].sort();
}

export function countsByKind(r: Recorded): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of ownLines(r)) counts[String(l.kind)] = (counts[String(l.kind)] ?? 0) + 1;
  return counts;
}

/** Entries the suggestion added to the narrow envelope, per key. */
export function added(a: Adoption): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of ["allowed_roots", "allowed_env", "allowed_hosts", "allowed_tools", "allowed_commands"] as const) {
    const before = new Set(a.narrow[key] ?? []);
    const now = a.suggested[key] ?? [];
    out[key] = now.filter((e) => !before.has(e));
  }
  return out;
}

export interface Summary {
  suite: SuiteName;
  bare_exit: number | null;
  bare_ms: number;
  /** How many rounds the adoption took (the last one's enforced run passed, or MAX_ROUNDS). */
  rounds: number;
  /** Per round: its recordings' exits, times, verdicts and events, and what its suggestion added. */
  per_round: {
    record_exits: (number | null)[];
    record_ms: number[];
    record_verdicts: string[];
    events: number[];
    added: { entry: string; unobserved: boolean; program: string | null }[];
    enforced_exit: number | null;
    enforced_verdict: string;
  }[];
  by_kind: Record<string, number>;
  keys_read: string[];
  suggested_entries: Record<string, number>;
  added: Record<string, string[]>;
  network: string;
  withheld_count: number | null;
  withheld: string[] | null;
  enforced_exit: number | null;
  enforced_ms: number;
  /** The last enforced run's own lines, by kind, and the keys it was seen reading. */
  enforced_by_kind: Record<string, number>;
  enforced_keys_read: string[];
  enforced_verdict: string;
  enforced_violations: string[];
  hostile?: { what: string; exit: number | null; verdict: string; violations: string[]; expected: string };
}

export function summarize(a: Adoption): Summary {
  const first = a.records[0];
  const entries: Record<string, number> = {};
  for (const key of ["allowed_roots", "allowed_env", "allowed_hosts", "allowed_tools"] as const) entries[key] = a.suggested[key].length;
  return {
    suite: a.suite,
    bare_exit: a.bare.code,
    bare_ms: Math.round(a.bare.ms),
    rounds: a.rounds.length,
    per_round: a.rounds.map((r) => ({
      record_exits: r.records.map((x) => x.code),
      record_ms: r.records.map((x) => Math.round(x.ms)),
      record_verdicts: r.recordChecks.map((c) => c.verdict),
      events: r.records.map((x) => ownLines(x).length),
      added: r.entries.map((e) => ({ entry: `${e.key} ${e.entry}`, unobserved: e.unobserved, program: e.program })),
      enforced_exit: r.enforced.code,
      enforced_verdict: r.enforcedCheck.verdict,
    })),
    by_kind: first ? countsByKind(first) : {},
    keys_read: [...new Set(a.rounds.flatMap((r) => r.records.flatMap(keysRead)))].sort(),
    suggested_entries: entries,
    added: added(a),
    network: a.suggested.network,
    withheld_count: first?.withheldCount ?? null,
    withheld: first?.withheld ?? null,
    enforced_exit: a.enforced.code,
    enforced_ms: Math.round(a.enforced.ms),
    enforced_by_kind: countsByKind(a.enforced),
    enforced_keys_read: keysRead(a.enforced),
    enforced_verdict: a.enforcedCheck.verdict,
    enforced_violations: a.enforcedCheck.violations.map((v) => v.id),
    hostile: a.hostile && {
      what: a.hostile.what,
      exit: a.hostile.run.code,
      verdict: a.hostile.check.verdict,
      violations: a.hostile.check.violations.map((v) => v.id),
      expected: a.hostile.violation,
    },
  };
}
