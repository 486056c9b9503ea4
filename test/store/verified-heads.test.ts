import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store, type StoredPullVerdict } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");
const LEASE = 300_000;
const HEAD = "a".repeat(40);

describe.each(storeBackends("eg-heads-"))("the verified check per commit on $name", (backend) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    await backend.setup?.();
    a = await openStore(backend.settings(), NOW);
    b = await openStore(backend.settings(), NOW);
    for (const s of [a, b]) s.heartbeatStaleMs = 10 * 60_000;
    for (const owner of ["r1", "r2"]) await a.registerProcess(owner, owner, NOW);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await backend.teardown?.();
  });

  const verdict = (over: Partial<StoredPullVerdict>): StoredPullVerdict => ({
    repository: "o/r",
    head_sha: HEAD,
    pull_number: 7,
    base_ref: "main",
    base_sha: "b".repeat(40),
    run_id: 100,
    run_attempt: 1,
    conclusion: "success",
    code: null,
    title: "Verified",
    summary: "pass",
    recorded_at: NOW,
    ...over,
  });

  it("a pull request's latest run speaks for it: a later run or attempt replaces its verdict, an older one does not", async () => {
    expect(await a.heads.recordVerdict(verdict({ run_id: 100 }))).toBe(true);
    expect(await b.heads.recordVerdict(verdict({ run_id: 101, conclusion: "failure", code: "VERIFIED_CHECK_BASE_MOVED" }))).toBe(true);
    // The stalled older run finishes last: it changes nothing.
    expect(await a.heads.recordVerdict(verdict({ run_id: 100, run_attempt: 3, base_ref: "lax" }))).toBe(false);
    expect(await a.heads.recordVerdict(verdict({ run_id: 101, run_attempt: 2 }))).toBe(true);
    expect(await b.heads.recordVerdict(verdict({ pull_number: 8, base_ref: "lax", run_id: 90 }))).toBe(true);
    expect((await a.heads.verdicts("o/r", HEAD)).map((v) => [v.pull_number, v.run_id, v.run_attempt, v.base_ref, v.conclusion])).toEqual([
      [7, 101, 2, "main", "success"],
      [8, 90, 1, "lax", "success"],
    ]);
    expect(await a.heads.verdicts("o/r", "c".repeat(40))).toEqual([]);
  });

  it("one poster per commit: a change counts a generation up; the claim is not taken while held; a finish records the generation posted", async () => {
    const head = "d".repeat(40);
    expect(await a.heads.bumpKnown("o/r", head, NOW)).toBe(false);
    await a.heads.bump("o/r", head, NOW);
    expect(await b.heads.get("o/r", head)).toMatchObject({ generation: 1, posted_generation: 0 });
    expect(await a.heads.claim("o/r", head, "r1", NOW, LEASE)).toBe(true);
    expect(await b.heads.claim("o/r", head, "r2", NOW + 1, LEASE)).toBe(false);
    expect(await a.heads.claim("o/r", head, "r1", NOW + 1, LEASE)).toBe(false);
    // A change while r1 posts: r1 finishes generation 1; generation 2 is still to post.
    expect(await b.heads.bumpKnown("o/r", head, NOW + 2)).toBe(true);
    const done = { check_run_id: 55, conclusion: "success", code: null, pulls: "[]", foreign_checks: "[]", at: NOW + 3 };
    expect(await b.heads.finish("o/r", head, "r2", 1, done)).toBe(false);
    expect(await a.heads.finish("o/r", head, "r1", 1, done)).toBe(true);
    expect(await a.heads.get("o/r", head)).toMatchObject({ generation: 2, posted_generation: 1, check_run_id: 55, claim_owner: null });
    // Nothing posted at generation 2 (no open pull request left): the last check stays recorded.
    expect(await b.heads.claim("o/r", head, "r2", NOW + 4, LEASE)).toBe(true);
    expect(await b.heads.finish("o/r", head, "r2", 2, { ...done, check_run_id: null, conclusion: null, at: NOW + 5 })).toBe(true);
    expect(await a.heads.get("o/r", head)).toMatchObject({ generation: 2, posted_generation: 2, check_run_id: 55, conclusion: "success" });
    // A finish of an older generation never lowers what was posted.
    expect(await a.heads.claim("o/r", head, "r1", NOW + 6, LEASE)).toBe(true);
    expect(await a.heads.finish("o/r", head, "r1", 1, done)).toBe(true);
    expect((await a.heads.get("o/r", head))?.posted_generation).toBe(2);
    expect((await b.heads.recent(5)).map((h) => h.head_sha)).toContain(head);
  });

  it("a claim released, lapsed, or whose owner is gone is taken over", async () => {
    const head = "e".repeat(40);
    await a.heads.bump("o/r", head, NOW);
    expect(await a.heads.claim("o/r", head, "r1", NOW, LEASE)).toBe(true);
    await a.heads.release("o/r", head, "r1");
    expect(await b.heads.claim("o/r", head, "r2", NOW + 1, LEASE)).toBe(true);
    expect(await a.heads.claim("o/r", head, "r1", NOW + 2 + LEASE, LEASE)).toBe(true);
    const gone = "f".repeat(40);
    await a.heads.bump("o/r", gone, NOW);
    expect(await a.heads.claim("o/r", gone, "ghost", NOW, LEASE)).toBe(true);
    expect(await b.heads.claim("o/r", gone, "r2", NOW + 1, LEASE)).toBe(true);
  });
});
