import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { storeBackends } from "./backends.js";

const T = Date.parse("2026-12-05T08:00:00Z");
const reading = (digest: string | null, state: "ceiling" | "none" | "invalid" = "ceiling") => ({
  owner: "Acme",
  state,
  digest,
  ceiling_id: digest === null ? null : "acme-agents",
  source_sha: "a".repeat(40),
  detail: "acme/.github:envelope-gate/org-envelope.json at main",
  exceptions: "[]",
});

describe.each(storeBackends("eg-org-ceilings-"))("organisation envelopes on $name (migration 14)", (backend) => {
  let store: Store;
  beforeAll(async () => {
    await backend.setup?.();
    store = await openStore(backend.settings(), T);
  });
  afterAll(async () => {
    await store.close();
    await backend.teardown?.();
  });

  it("moves changed_at only when the digest or the state changes; read_at at every reading", async () => {
    expect(await store.ceilings.recordReading(reading("sha256:1"), T)).toMatchObject({ owner: "acme", changed_at: T, read_at: T });
    expect(await store.ceilings.recordReading(reading("sha256:1"), T + 1000)).toMatchObject({ changed_at: T, read_at: T + 1000 });
    expect(await store.ceilings.recordReading(reading("sha256:2"), T + 2000)).toMatchObject({ digest: "sha256:2", changed_at: T + 2000 });
    expect(await store.ceilings.recordReading(reading(null, "none"), T + 3000)).toMatchObject({ state: "none", changed_at: T + 3000 });
    expect(await store.ceilings.recordReading(reading(null, "invalid"), T + 4000)).toMatchObject({
      state: "invalid",
      changed_at: T + 4000,
    });
    expect((await store.ceilings.all()).map((o) => o.owner)).toEqual(["acme"]);
  });

  it("keeps each repository's latest result; an older one written late does not replace it; a footprint alone keeps the outcome", async () => {
    const row = { repository: "Acme/Widgets", owner: "acme", digest: "sha256:2", detail: "[]", exceptions: "[]", footprint: "null" };
    await store.ceilings.recordResult({ ...row, outcome: "widened", checked_at: T + 10 });
    await store.ceilings.recordResult({ ...row, outcome: "within", checked_at: T + 5 });
    await store.ceilings.recordFootprint("acme/widgets", "acme", JSON.stringify({ hosts: ["x:443"], env: [], commands: [] }), T + 20);
    await store.ceilings.recordFootprint("acme/gadgets", "acme", "{}", T + 20);
    const results = await store.ceilings.results();
    expect(results.map((r) => [r.repository, r.outcome])).toEqual([
      ["acme/gadgets", "not checked"],
      ["acme/widgets", "widened"],
    ]);
    expect(JSON.parse(results[1]!.footprint)).toEqual({ hosts: ["x:443"], env: [], commands: [] });
  });
});
