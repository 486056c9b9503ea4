import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const T = Date.parse("2026-11-30T08:00:00Z");
const RESET = T + 30 * 60_000;
const reading = (remaining: number, resetAt = RESET) => ({ resource: "core", remaining, limit: 5000, resetAt, retryAfterUntil: null });

describe.each(storeBackends("eg-rate-limits-"))("GitHub's rate limit per installation on $name (migration 13)", (backend) => {
  let store: Store;
  beforeAll(async () => {
    await backend.setup?.();
    store = await openStore(backend.settings(), T);
  });
  afterAll(async () => {
    await store.close();
    await backend.teardown?.();
  });

  it("keeps the lowest remainder of a window whatever order replicas write in, and a later window's reading", async () => {
    expect(await store.rateLimits.get(1)).toBeNull();
    await store.rateLimits.record(1, reading(4000), "a", T);
    await store.rateLimits.record(1, reading(3990), "b", T + 1);
    // A replica's older answer, written late, does not raise it back.
    await store.rateLimits.record(1, reading(3995), "a", T + 2);
    expect(await store.rateLimits.get(1)).toMatchObject({
      remaining: 3990,
      limit: 5000,
      resetAt: RESET,
      observedBy: "b",
      observedAt: T + 1,
    });
    // The next window: full again.
    await store.rateLimits.record(1, reading(4999, RESET + 3_600_000), "a", T + 3);
    expect(await store.rateLimits.get(1)).toMatchObject({ remaining: 4999, resetAt: RESET + 3_600_000 });
    // Another installation is its own row.
    await store.rateLimits.record(2, reading(10), "a", T);
    expect((await store.rateLimits.list()).map((r) => [r.installationId, r.remaining])).toEqual([
      [1, 4999],
      [2, 10],
    ]);
  });

  it("records a secondary limit's retry-after, only ever later, beside the reading", async () => {
    await store.rateLimits.record(
      3,
      { resource: "core", remaining: null, limit: null, resetAt: null, retryAfterUntil: T + 60_000 },
      "a",
      T,
    );
    expect(await store.rateLimits.get(3)).toMatchObject({ remaining: null, retryAfterUntil: T + 60_000 });
    await store.rateLimits.record(
      3,
      { resource: "core", remaining: null, limit: null, resetAt: null, retryAfterUntil: T + 30_000 },
      "b",
      T,
    );
    await store.rateLimits.record(3, reading(100), "b", T + 1);
    expect(await store.rateLimits.get(3)).toMatchObject({ remaining: 100, retryAfterUntil: T + 60_000 });
  });

  it("a deferred delivery is left by the sweeper until its not_before", async () => {
    await store.claimDelivery("d-1", "workflow_run", "owner-a", T, 60_000, "{}");
    await store.failDelivery("d-1", "owner-a", "GITHUB_BUDGET_LOW", "deferred", T, {
      queue: true,
      countsAsFailure: false,
      notBefore: RESET,
    });
    expect(await store.getDelivery("d-1")).toMatchObject({ state: "queued", failures: 0, error_code: "GITHUB_BUDGET_LOW" });
    expect((await store.sweepableDeliveries("owner-b", RESET - 1, 10)).map((d) => d.delivery_id)).toEqual([]);
    expect((await store.sweepableDeliveries("owner-b", RESET, 10)).map((d) => d.delivery_id)).toEqual(["d-1"]);
  });
});
