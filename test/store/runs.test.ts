import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");
const LEASE = 300_000;

describe.each(storeBackends("eg-runs-"))("refused runs and the verified check's claim on $name", (backend) => {
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

  it("a refusal is recorded once per run attempt and role", async () => {
    const r = {
      repository: "o/r",
      run_id: 5,
      run_attempt: 1,
      role: "runner_a" as const,
      code: "RUNNER_A_EVENT_REFUSED",
      reason: "x",
      event: "workflow_dispatch",
      head_sha: "a".repeat(40),
      dual_run_id: null,
      refused_at: NOW,
    };
    expect(await a.runs.recordRefusal(r)).toBe(true);
    expect(await b.runs.recordRefusal({ ...r, reason: "again" })).toBe(false);
    expect(await b.runs.recordRefusal({ ...r, role: "runner_b" })).toBe(true);
    expect((await a.runs.recentRefusals(10)).map((x) => [x.run_id, x.role, x.reason]).sort()).toEqual([
      [5, "runner_a", "x"],
      [5, "runner_b", "x"],
    ]);
  });

  it("one claim per run attempt: not twice by one owner, not by another while live; released or lapsed it is taken; done it is not", async () => {
    const key = { repository: "o/r", run_id: 9, run_attempt: 1 };
    const c = { ...key, head_sha: "a".repeat(40) };
    expect(await a.runs.claimVerifiedCheck(c, "r1", NOW, LEASE)).toBe(true);
    // Two deliveries of one run in one process: the second does not take the first's claim.
    expect(await a.runs.claimVerifiedCheck(c, "r1", NOW + 1, LEASE)).toBe(false);
    expect(await b.runs.claimVerifiedCheck(c, "r2", NOW + 1, LEASE)).toBe(false);
    await a.runs.releaseVerifiedCheck(key, "r1");
    expect(await b.runs.claimVerifiedCheck(c, "r2", NOW + 2, LEASE)).toBe(true);
    // r2's lease runs out: r1 takes it over; r2 can no longer finish it.
    expect(await a.runs.claimVerifiedCheck(c, "r1", NOW + 2 + LEASE + 1, LEASE)).toBe(true);
    expect(
      await b.runs.finishVerifiedCheck(key, "r2", { state: "posted", conclusion: "success", code: null, check_run_id: 1, at: NOW }),
    ).toBe(false);
    expect(
      await a.runs.finishVerifiedCheck(key, "r1", { state: "posted", conclusion: "success", code: null, check_run_id: 2, at: NOW }),
    ).toBe(true);
    expect(await b.runs.claimVerifiedCheck(c, "r2", NOW + 10 * LEASE, LEASE)).toBe(false);
    expect(await b.runs.getVerifiedCheck("o/r", 9, 1)).toMatchObject({ state: "posted", check_run_id: 2, conclusion: "success" });
    // Another attempt is another claim.
    expect(await b.runs.claimVerifiedCheck({ ...c, run_attempt: 2 }, "r2", NOW, LEASE)).toBe(true);
  });

  it("a claim whose owner is gone (no live heartbeat) is taken over before its lease ends", async () => {
    const c = { repository: "o/r", run_id: 11, run_attempt: 1, head_sha: "a".repeat(40) };
    expect(await a.runs.claimVerifiedCheck(c, "ghost", NOW, LEASE)).toBe(true);
    expect(await b.runs.claimVerifiedCheck(c, "r2", NOW + 1, LEASE)).toBe(true);
  });
});
