/** store/gated-pulls.ts: a gated pull request is remembered once, its ungate recorded with the reviewer's name, on both backends. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const NOW = Date.parse("2026-11-30T08:00:00Z");

describe.each(storeBackends("eg-gated-"))("gated pull requests on $name", (backend) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    await backend.setup?.();
    a = await openStore(backend.settings(), NOW);
    b = await openStore(backend.settings(), NOW);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await backend.teardown?.();
  });

  it("marked once (the first reason stays), by any replica; read back in any case of the repository's name", async () => {
    expect(await a.gated.get("Acme/Widgets", 7)).toBeNull();
    expect(await a.gated.markGated("Acme/Widgets", 7, 'the label "agent-authored" was added by @mallory', NOW)).toBe(true);
    expect(await b.gated.markGated("acme/widgets", 7, "run 5 was gated", NOW + 1)).toBe(false);
    expect(await b.gated.get("ACME/widgets", 7)).toMatchObject({
      pull_number: 7,
      reason: 'the label "agent-authored" was added by @mallory',
      gated_at: NOW,
      ungated_by: null,
    });
    expect(await a.gated.get("acme/widgets", 8)).toBeNull();
  });

  it("an ungate is recorded with the reviewer, review and commit; a dismissal of that review withdraws it, of another does not", async () => {
    expect(await a.gated.recordUngate("acme/widgets", 9, { by: "alice", review_id: 1, head_sha: "a".repeat(40), at: NOW })).toBe(false);
    await a.gated.markGated("acme/widgets", 9, "run 6 was gated", NOW);
    expect(await a.gated.recordUngate("acme/widgets", 9, { by: "alice", review_id: 11, head_sha: "a".repeat(40), at: NOW + 5 })).toBe(true);
    // The same review again (a redelivery) changes nothing.
    expect(await b.gated.recordUngate("acme/widgets", 9, { by: "alice", review_id: 11, head_sha: "a".repeat(40), at: NOW + 6 })).toBe(
      false,
    );
    expect(await b.gated.get("acme/widgets", 9)).toMatchObject({
      ungated_by: "alice",
      ungated_review_id: 11,
      ungated_head_sha: "a".repeat(40),
      ungated_at: NOW + 5,
    });
    expect(await b.gated.clearUngate("acme/widgets", 9, 12)).toBe(false);
    expect(await b.gated.clearUngate("acme/widgets", 9, 11)).toBe(true);
    expect(await a.gated.get("acme/widgets", 9)).toMatchObject({ ungated_by: null, ungated_review_id: null, reason: "run 6 was gated" });
    expect((await a.gated.recent(10)).map((g) => g.pull_number).sort()).toEqual([7, 9]);
  });
});
