/**
 * Real suites of other projects adopted end to end (issue 20), the two cheapest of
 * test/support/suites.ts: spf13/pflag's Go tests (Debian packages) and @fastify/error's
 * `node --test` suite (its npm tarball). Each is recorded twice under a narrow envelope, the
 * suggestion over both logs is enforced under `deny` (the suite passes and exits 0, no entry added
 * by hand beyond what the suite is told), and a hostile twin, the same suite plus one line, fails it.
 * `npm run adoption` walks all five suites and prints the measurements docs/authoring.md quotes.
 *
 * In CI (CI=true) a missing package is installed (apt-get, as .ci/run does) and a suite that
 * cannot be had fails instead of skipping.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, JAIL_AVAILABLE, TEST_TMP } from "./harness.js";
import { SUITES, adopt, ensure, keysRead, ownLines, type Adoption, type Suite } from "../support/suites.js";

const IN_CI = process.env.CI === "true";
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Why the suite cannot run here, or null; in CI the test runs regardless and fails on it. */
function unavailable(suite: Suite): string | null {
  if (!JAIL_AVAILABLE) return "no run jail (bubblewrap with user, PID and network namespaces)";
  return ensure(suite);
}

async function adopted(suite: Suite): Promise<Adoption> {
  const reason = unavailable(suite);
  expect(reason, `${suite.name} suite unavailable`).toBeNull();
  const a = await adopt(suite, { cli: CLI, tmp: TEST_TMP });
  made.push(a.base);
  return a;
}

function commonAssertions(a: Adoption): void {
  expect(a.bare.code, `bare run: ${a.bare.stdout}${a.bare.stderr}`).toBe(0);
  for (const r of a.records) {
    expect(r.code, `recorded run: ${r.stdout}${r.stderr}`).toBe(0);
    expect(r.lines[0]?.kind).toBe("meta");
    expect(r.lines[r.lines.length - 1]?.kind).toBe("end");
    expect(r.lines[0]?.observers).toEqual(["node", "process"]);
  }
  // The suggestion widened nothing it had no evidence for.
  expect(a.suggested.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
  expect(a.suggested.allowed_hosts).toEqual([]);
  expect(a.suggested.network).toBe("deny");
  // Enforced: the suite passes the check and itself.
  expect(a.enforced.code, `enforced run: ${a.enforced.stdout}${a.enforced.stderr}`).toBe(0);
  expect(a.enforcedCheck.violations.map((v) => v.id)).toEqual([]);
  expect(a.enforcedCheck.verdict).toBe("pass");
  // The hostile twin fails it with exactly the one thing it added.
  expect(a.hostile).toBeDefined();
  expect(a.hostile?.check.verdict).toBe("envelope_fail");
  expect(a.hostile?.check.violations.map((v) => v.id)).toEqual([a.hostile?.violation]);
}

const skip = (suite: Suite): boolean => !IN_CI && unavailable(suite) !== null;
/** Outside CI a suite that cannot be had is skipped, and its title says why. */
const titled = (suite: Suite, title: string): string => (skip(suite) ? `${title} (skipped: ${unavailable(suite)})` : title);

describe("real suites adopted with envelope-gate", () => {
  it.skipIf(skip(SUITES.go))(
    titled(
      SUITES.go,
      "Go: spf13/pflag's tests (go test, cold GOCACHE in the scratch) pass under the suggested envelope; a write outside the roots fails it",
    ),
    { timeout: 240_000 },
    async () => {
      const a = await adopted(SUITES.go);
      commonAssertions(a);
      const first = a.records[0];
      if (first === undefined) throw new Error("no recording");
      // The process observer saw the toolchain at work: the compiler, and the test binary it built.
      const execs = ownLines(first)
        .filter((l) => l.kind === "exec")
        .map((l) => String(l.path));
      expect(execs.some((p) => p.endsWith("/pkg/tool/linux_amd64/compile"))).toBe(true);
      expect(execs.some((p) => p.endsWith("/pflag.test"))).toBe(true);
      // The go command's reads (GOCACHE, HOME, GOFLAGS, ...) are native: no line records them,
      // so the suite's one key is told in the narrow envelope, and the suggestion keeps it.
      expect(keysRead(first)).toEqual([]);
      expect(a.narrow.allowed_env).toEqual(["PATH", "@ci", "GOCACHE"]);
      expect(a.suggested.allowed_env).toEqual(["PATH", "@ci", "GOCACHE"]);
      for (const c of a.recordChecks) expect(c.verdict).toBe("pass");
      // The gap, as evidence: without GOCACHE told, the suite cannot build, the check has nothing to
      // judge and the log nothing to learn the key from; only run's withheld line names it.
      const untold = a.untold;
      if (untold === undefined) throw new Error("no recording without the told key");
      expect(untold.run.code).not.toBe(0);
      expect(untold.run.stderr).toContain("GOCACHE is not defined");
      expect(untold.check.verdict).toBe("pass");
      expect(keysRead(untold.run)).toEqual([]);
      expect(untold.run.withheld).toContain("GOCACHE");
      // The cold cache was the run's own: written under the scratch.
      expect(ownLines(first).some((l) => l.kind === "write" && String(l.path).startsWith(`${first.scratch}/go-build/`))).toBe(true);
    },
  );

  it.skipIf(skip(SUITES.node))(
    titled(SUITES.node, "Node: @fastify/error's node --test suite is learnt from two recordings; reading AWS_SECRET_ACCESS_KEY fails it"),
    { timeout: 240_000 },
    async () => {
      const a = await adopted(SUITES.node);
      commonAssertions(a);
      // What the narrow envelope lacked, learnt from the log: os.tmpdir()'s keys and the test runner's own.
      for (const c of a.recordChecks) {
        expect(c.verdict).toBe("envelope_fail");
        expect(c.violations.map((v) => v.id).sort()).toEqual([
          "undeclared_env:NODE_TEST_CONTEXT",
          "undeclared_env:TEMP",
          "undeclared_env:TMP",
          "undeclared_env:TMPDIR",
        ]);
      }
      expect([...a.suggested.allowed_env].sort()).toEqual(["@ci", "NODE_TEST_CONTEXT", "PATH", "TEMP", "TMP", "TMPDIR"]);
      // Its child processes (node --test runs each file in one) are in the log.
      const first = a.records[0];
      if (first === undefined) throw new Error("no recording");
      expect(ownLines(first).filter((l) => l.kind === "exec").length).toBeGreaterThan(1);
    },
  );
});
