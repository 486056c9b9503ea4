/**
 * Gather, then decide: the facts gathered through a PullSource (here the in-memory one) and the
 * policy made of them, without HTTP.
 */
import { describe, expect, it } from "vitest";
import { gatherPolicyFacts } from "../../src/action/facts.js";
import { Refusal } from "../../src/core/errors.js";
import { policyFrom } from "../../src/core/policy-files.js";
import { envelopeText, hashOf } from "../support/logs.js";
import { memoryPullSource, type MemoryRepo } from "../support/memory-pull-source.js";

const paths = { envelope: "e/envelope.json", digest: "e/envelope.json.sha256", properties: "e/properties.json", ledger: "e/ledger.tsv" };
const caps = { maxActive: 5, maxDays: 14 };
const envelope = envelopeText();
const digest = `${hashOf(envelope).replace(/^sha256:/, "")}  envelope.json\n`;
const widened = envelopeText({ allowed_env: ["CI", "PATH", "AWS_SECRET_ACCESS_KEY"] });
const widenedDigest = `${hashOf(widened).replace(/^sha256:/, "")}  envelope.json\n`;

function repo(head: Record<string, string>, files: MemoryRepo["files"], over: Partial<MemoryRepo> = {}): MemoryRepo {
  const base = { [paths.envelope]: envelope, [paths.digest]: digest, "src/a.ts": "a\n" };
  return {
    commits: new Map([
      ["base", base],
      ["head", { ...base, ...head }],
    ]),
    pull: {
      number: 7,
      state: "open",
      author: "agent[bot]",
      labels: [],
      baseSha: "base",
      baseRef: "main",
      headSha: "head",
      headRef: "b",
      headRepo: "o/r",
      htmlUrl: "u",
      changedFiles: files.length,
    },
    files,
    reviews: [],
    roles: new Map(),
    calls: [],
    ...over,
  };
}

const gather = (r: MemoryRepo, reviewers: string[] = [], botApprovers: string[] = []) =>
  gatherPolicyFacts(memoryPullSource(r), {
    pull: r.pull,
    baseSha: "base",
    headSha: "head",
    paths,
    envelopeReviewers: reviewers,
    botApprovers,
  });

describe("gathering a pull request's facts", () => {
  it("a pull request that leaves the policy alone: no change, no review read, the base commit's policy", async () => {
    const r = repo({ "src/a.ts": "b\n" }, [{ filename: "src/a.ts", status: "modified" }]);
    const facts = await gather(r);
    expect(facts.changes).toEqual([]);
    expect(facts.policy.ref).toBe("base");
    expect(r.calls.some((c) => c.startsWith("reviews"))).toBe(false);
    const policy = policyFrom(paths, facts.policy, "2026-11-30", caps);
    expect(policy.envelope.hash).toBe(hashOf(envelope));
    expect(policy.properties).toBeNull();
    expect(policy.ledgerPresent).toBe(false);
  });

  it("an envelope edit past the listing's end is seen by blob id; an approval by a write collaborator applies the head", async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ filename: `gen/f${i}.ts`, status: "added" }));
    const files = [...many, { filename: paths.envelope, status: "modified" }, { filename: paths.digest, status: "modified" }];
    const head = { [paths.envelope]: widened, [paths.digest]: widenedDigest };
    const unapproved = await gather(repo(head, files));
    expect(unapproved.filesComplete).toBe(false);
    expect(unapproved.changes.map((c) => c.role).sort()).toEqual(["digest", "envelope"]);
    expect(unapproved.policy.ref).toBe("base");

    const r = repo(head, files, {
      reviews: [{ id: 1, login: "mia", type: "User", state: "APPROVED", commitId: "head" }],
      roles: new Map([["mia", "maintain"]]),
    });
    const approved = await gather(r);
    expect(approved.approvedBy).toEqual(["mia"]);
    expect(approved.policy.ref).toBe("head");
    expect(policyFrom(paths, approved.policy, "2026-11-30", caps).envelope.hash).toBe(hashOf(widened));
  });

  it("envelope-reviewers, when set, is the only list that counts", async () => {
    const head = { [paths.envelope]: widened, [paths.digest]: widenedDigest };
    const r = repo(head, [{ filename: paths.envelope, status: "modified" }], {
      reviews: [{ id: 1, login: "mia", type: "User", state: "APPROVED", commitId: "head" }],
      roles: new Map([["mia", "admin"]]),
    });
    expect((await gather(r, ["security-sam"])).approvedBy).toEqual([]);
    expect(r.calls.some((c) => c.startsWith("role"))).toBe(false);
  });

  it("bot accounts (type Bot, or a [bot] login) never approve unless bot-approvers names them; their role is not even read", async () => {
    const head = { [paths.envelope]: widened, [paths.digest]: widenedDigest };
    const reviews = [
      { id: 1, login: "renovate[bot]", type: "Bot", state: "APPROVED", commitId: "head" },
      { id: 2, login: "ci-robot", type: "Bot", state: "APPROVED", commitId: "head" },
      // A [bot] login is a bot whatever type the answer gives it.
      { id: 3, login: "helper[bot]", type: null, state: "APPROVED", commitId: "head" },
    ];
    const roles = new Map([
      ["renovate[bot]", "write"],
      ["ci-robot", "admin"],
      ["helper[bot]", "write"],
    ]);
    const r = repo(head, [{ filename: paths.envelope, status: "modified" }], { reviews, roles });
    const bots = await gather(r);
    expect(bots.approvedBy).toEqual([]);
    expect(bots.ignoredBots).toEqual(["renovate[bot]", "ci-robot", "helper[bot]"]);
    expect(bots.policy.ref).toBe("base");
    expect(r.calls.some((c) => c.startsWith("role"))).toBe(false);
    // Named, a bot counts like a person: its role still has to be write or better.
    const named = await gather(repo(head, [{ filename: paths.envelope, status: "modified" }], { reviews, roles }), [], ["@Renovate[bot]"]);
    expect(named.approvedBy).toEqual(["renovate[bot]"]);
    expect(named.ignoredBots).toEqual(["ci-robot", "helper[bot]"]);
    expect(named.policy.ref).toBe("head");
    const readOnly = await gather(
      repo(head, [{ filename: paths.envelope, status: "modified" }], { reviews, roles: new Map() }),
      [],
      ["renovate[bot]"],
    );
    expect(readOnly.approvedBy).toEqual([]);
  });

  it("a policy the base commit cannot pin is refused with the file named", async () => {
    const r = repo({}, []);
    (r.commits.get("base") as Record<string, string>)[paths.digest] = "0".repeat(64) + "  envelope.json\n";
    const facts = await gather(r);
    const err = (() => {
      try {
        policyFrom(paths, facts.policy, "2026-11-30", caps);
      } catch (e) {
        return e as Refusal;
      }
      return null;
    })();
    expect(err?.code).toBe("ENVELOPE_HASH_MISMATCH");
    expect(() => policyFrom(paths, { ...facts.policy, envelope: null }, "2026-11-30", caps)).toThrow(/does not exist at the base commit/);
  });
});
