/**
 * Issue 36: an organisation's envelope that repositories can only narrow, enforced by the App's
 * verified check. The App (real HTTP, SQLite) against the fake GitHub with the organisation's
 * `.github` repository: within the ceiling the check passes; each widening fails it, named with
 * the envelope's file and line; an exception lets exactly its widening through until its date.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningApp } from "../../src/app/start.js";
import type { StatusSnapshot } from "../../src/app/status.js";
import type { Ceiling } from "../../src/core/ceiling.js";
import type { Envelope } from "../../src/core/envelope.js";
import { shownText } from "../support/gfm.js";
import { logText } from "../support/logs.js";
import { bundleFiles } from "../support/fake-github-app.js";
import { addRunA, deliverAndWait, HEAD_SHA, REPO, startTestApp, startWorld, TestClock, workflowRunPayload, type World } from "./helpers.js";

const NAME = "envelope-gate / verified";
const PASSING = [{ name: "schema_key_order", result: "pass" as const }];
const ENVELOPE_PATH = ".github/envelope-gate/envelope.json";
const ORG = "acme/.github";
const ORG_PATH = "envelope-gate/org-envelope.json";

const CEILING: Ceiling = {
  ceiling_id: "acme-agents",
  repositories: ["*", "!sandbox-*"],
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: ["*"],
  allowed_env: ["@ci", "PATH", "HOME", "LC_*"],
  allowed_hosts: ["@npm", "*.acme.dev:443"],
  network: "allowlist",
  never_env: ["AWS_*"],
  never_hosts: ["169.254.169.254"],
};

const WITHIN: Envelope = {
  envelope_id: "widgets",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: [],
  allowed_env: ["PATH", "CI", "LC_ALL"],
  allowed_hosts: ["registry.npmjs.org:443", "api.acme.dev:443"],
  network: "allowlist",
};

const text = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
/** Where a GitHub-hosted runner's gate puts the root variables (the Action's defaults), as the run's log records them. */
const ROOT_VALUES = { workspace: "/home/runner/work/widgets/widgets", scratch: "/home/runner/work/_temp/envelope-gate-scratch" };
const runLog = (hash: string, events: Parameters<typeof logText>[1] = [], meta: Record<string, unknown> = ROOT_VALUES) =>
  logText(hash, events, { meta });
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

let world: World;
let app: RunningApp;
afterEach(async () => {
  await app?.close();
  await world?.close();
});

/** The organisation's `.github` with `ceiling` on its default branch (with its digest, unless `digest` says otherwise). */
function commitCeiling(ceiling: unknown, options: { branch?: string; digest?: string | null } = {}) {
  const body = typeof ceiling === "string" ? ceiling : text(ceiling);
  const digest = options.digest === undefined ? `${sha(body)}  org-envelope.json\n` : options.digest;
  world.fake.commit(
    ORG,
    { [ORG_PATH]: body, ...(digest === null ? {} : { [`${ORG_PATH}.sha256`]: digest }) },
    { branch: options.branch ?? "main" },
  );
}

/** The repository's base with `envelope` pinned, the App started, and a passing run A judged under it delivered. */
async function gate(envelope: Envelope, options: { ceiling?: unknown; day?: string; orgRepo?: boolean; log?: string } = {}) {
  world = await startWorld();
  if (options.orgRepo !== false) {
    world.fake.addRepo(ORG);
    commitCeiling(options.ceiling ?? CEILING);
  }
  const envText = text(envelope);
  world.fake.commit(
    REPO,
    { [ENVELOPE_PATH]: envText, [`${ENVELOPE_PATH}.sha256`]: `${sha(envText)}  envelope.json\n` },
    { branch: "main", message: "the envelope" },
  );
  const clock = new TestClock(Date.parse(`${options.day ?? "2026-12-05"}T12:00:00Z`));
  app = await startTestApp(world.fake, clock);
  const run = addRunA(
    world.fake,
    { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: options.log ?? runLog(`sha256:${sha(envText)}`) },
    { conclusion: "success" },
  );
  const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
  return { res, run, envText };
}

const verified = () => world.fake.repo(REPO).checkRuns.filter((c) => c.name === NAME);
const lineOf = (t: string, needle: string) => t.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("the verified check holds the base's envelope to the organisation's", () => {
  it("within the ceiling: the verified check passes and names the organisation envelope", async () => {
    const { res } = await gate(WITHIN);
    expect(res.state, JSON.stringify(res)).toBe("done");
    const [check] = verified();
    expect(check?.conclusion).toBe("success");
    expect(shownText(check!.output.summary)).toContain("Within the organisation envelope acme-agents");
    const owner = await app.store.ceilings.get("acme");
    expect(owner).toMatchObject({ state: "ceiling", ceiling_id: "acme-agents" });
    expect(owner?.digest).toMatch(/^sha256:/);
    expect((await app.store.ceilings.results()).map((r) => [r.repository, r.outcome])).toEqual([["acme/widgets", "within"]]);
  });

  it("attack: an envelope that widens a host, a key family, a root and the network mode fails, naming each with file and line", async () => {
    const wide: Envelope = {
      ...WITHIN,
      allowed_roots: ["${WORKSPACE}", "/home/runner/.cache"],
      allowed_env: ["PATH", "NODE_*"],
      allowed_hosts: ["registry.npmjs.org:443", "evil.example:443"],
    };
    const { envText } = await gate(wide, { ceiling: { ...CEILING, network: "deny" } });
    const [check] = verified();
    expect(check?.conclusion).toBe("failure");
    expect(check?.output.title).toContain("4 widenings");
    const summary = shownText(check!.output.summary);
    expect(summary).toContain("ORG_ENVELOPE_WIDENED");
    expect(summary).toContain(`${ENVELOPE_PATH}:${lineOf(envText, "/home/runner/.cache")}: allowed_roots "/home/runner/.cache"`);
    expect(summary).toContain(`${ENVELOPE_PATH}:${lineOf(envText, "NODE_*")}: allowed_env "NODE_*"`);
    expect(summary).toContain(`${ENVELOPE_PATH}:${lineOf(envText, '"network"')}: network "allowlist"`);
    expect(summary).toContain(`${ENVELOPE_PATH}:${lineOf(envText, "evil.example")}: allowed_hosts "evil.example:443"`);
    expect((await app.store.ceilings.results())[0]).toMatchObject({ outcome: "widened" });
  });

  it("attack: a key the organisation never allows fails even when the ceiling's family would cover it", async () => {
    await gate({ ...WITHIN, allowed_env: ["PATH", "AWS_REGION"] }, { ceiling: { ...CEILING, allowed_env: ["PATH", "AWS_REGION"] } });
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain('never_env "AWS_*"');
  });

  const exception = {
    repository: "widgets",
    allow: { allowed_hosts: ["api.stripe.com:443"] },
    reason: "payments sandbox tests",
    approver: "octo-sec",
    approved_on: "2026-12-01",
    expires_on: "2027-01-15",
  };
  const withStripe: Envelope = { ...WITHIN, allowed_hosts: [...WITHIN.allowed_hosts, "api.stripe.com:443"] };

  it("an exception lets exactly its widening through while open; the footprint shows what the run touched beyond the baseline", async () => {
    const hash = `sha256:${sha(text(withStripe))}`;
    const log = runLog(hash, [
      { kind: "host", host: "api.stripe.com", port: 443 },
      { kind: "host", host: "registry.npmjs.org", port: 443 },
      { kind: "env", key: "LC_ALL" },
    ]);
    await gate(withStripe, { ceiling: { ...CEILING, exceptions: [exception] }, day: "2027-01-15", log });
    const [check] = verified();
    expect(check?.conclusion).toBe("success");
    expect(shownText(check!.output.summary)).toContain("exceptions[0] (octo-sec, until 2027-01-15: payments sandbox tests)");
    const [row] = await app.store.ceilings.results();
    expect(JSON.parse(row!.footprint)).toEqual({ hosts: ["api.stripe.com:443"], env: [], commands: [] });
    expect(JSON.parse(row!.exceptions)).toEqual(["exceptions[0] (octo-sec, until 2027-01-15: payments sandbox tests)"]);
    // The status page lists every row of the organisation envelope, whichever repository it names.
    const status = (await (await fetch(`${app.url}/status.json`)).json()) as StatusSnapshot;
    expect(status.org_envelopes[0]!.exceptions).toEqual(["widgets: exceptions[0] (octo-sec, until 2027-01-15: payments sandbox tests)"]);
  });

  it("attack: the same exception the day after its end, and one more widening beside an open one, fail", async () => {
    await gate(withStripe, { ceiling: { ...CEILING, exceptions: [exception] }, day: "2027-01-16" });
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("not honoured: expired after 2027-01-15");
  });

  it("attack: an open exception does not let another widening through", async () => {
    const more: Envelope = { ...withStripe, allowed_hosts: [...withStripe.allowed_hosts, "api.other.com:443"] };
    await gate(more, { ceiling: { ...CEILING, exceptions: [exception] }, day: "2026-12-20" });
    const summary = shownText(verified()[0]!.output.summary);
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(summary).toContain('allowed_hosts "api.other.com:443"');
    expect(summary).not.toContain('allowed_hosts "api.stripe.com:443"');
  });

  it("attack: an exception for a credential is never honoured", async () => {
    const secret = { ...exception, allow: { allowed_env: ["STRIPE_SECRET_KEY"] } };
    await gate(
      { ...WITHIN, allowed_env: ["PATH", "STRIPE_SECRET_KEY"] },
      { ceiling: { ...CEILING, exceptions: [secret] }, day: "2026-12-20" },
    );
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("never allows a credential");
  });

  it("a repository the organisation envelope does not cover is not held to it, and says so", async () => {
    await gate(WITHIN, { ceiling: { ...CEILING, repositories: ["api-*"] } });
    expect(verified()[0]?.conclusion).toBe("success");
    expect(shownText(verified()[0]!.output.summary)).toContain("does not cover this repository");
  });

  it("no .github repository: no ceiling, said in the check (the clean twin of every case above)", async () => {
    await gate({ ...WITHIN, allowed_hosts: ["evil.example:443"] }, { orgRepo: false });
    expect(verified()[0]?.conclusion).toBe("success");
    expect(shownText(verified()[0]!.output.summary)).toContain("No organisation envelope");
    expect(await app.store.ceilings.get("acme")).toMatchObject({ state: "none" });
  });

  it("attack: an organisation envelope that does not validate, or whose digest does not pin it, fails every covered check", async () => {
    await gate(WITHIN, { ceiling: text({ ...CEILING, network: "open" }) });
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("ORG_ENVELOPE_INVALID");
    await app.close();
    await world.close();

    world = await startWorld();
    world.fake.addRepo(ORG);
    commitCeiling(CEILING, { digest: `${"0".repeat(64)}  org-envelope.json\n` });
    const envText = text(WITHIN);
    world.fake.commit(
      REPO,
      { [ENVELOPE_PATH]: envText, [`${ENVELOPE_PATH}.sha256`]: `${sha(envText)}  envelope.json\n` },
      { branch: "main" },
    );
    app = await startTestApp(world.fake, new TestClock(Date.now()));
    const run = addRunA(
      world.fake,
      { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: runLog(`sha256:${sha(envText)}`) },
      { conclusion: "success" },
    );
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("ORG_ENVELOPE_DIGEST_MISMATCH");
  });

  it("attack: a wider ceiling on another branch of .github (an unmerged change) does not apply", async () => {
    world = await startWorld();
    world.fake.addRepo(ORG);
    commitCeiling(CEILING);
    commitCeiling({ ...CEILING, allowed_hosts: ["evil.example:443", ...CEILING.allowed_hosts] }, { branch: "widen" });
    const envText = text({ ...WITHIN, allowed_hosts: ["evil.example:443"] });
    world.fake.commit(
      REPO,
      { [ENVELOPE_PATH]: envText, [`${ENVELOPE_PATH}.sha256`]: `${sha(envText)}  envelope.json\n` },
      { branch: "main" },
    );
    app = await startTestApp(world.fake, new TestClock(Date.now()));
    const run = addRunA(
      world.fake,
      { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: runLog(`sha256:${sha(envText)}`) },
      { conclusion: "success" },
    );
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain('allowed_hosts "evil.example:443"');
  });

  it("GitHub failing to answer for .github is GITHUB_UNAVAILABLE: queued and retried, never a pass", async () => {
    world = await startWorld();
    world.fake.addRepo(ORG);
    commitCeiling(CEILING);
    const envText = text(WITHIN);
    world.fake.commit(
      REPO,
      { [ENVELOPE_PATH]: envText, [`${ENVELOPE_PATH}.sha256`]: `${sha(envText)}  envelope.json\n` },
      { branch: "main" },
    );
    app = await startTestApp(world.fake, new TestClock(Date.now()));
    world.fake.fail("GET", "/repos/acme/.github", 500);
    const run = addRunA(
      world.fake,
      { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: runLog(`sha256:${sha(envText)}`) },
      { conclusion: "success" },
    );
    const res = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(res.state).toBe("queued");
    expect(res.code).toBe("GITHUB_UNAVAILABLE");
    expect(verified()).toEqual([]);
  });

  it("the status page and status.json show the ceiling's digest, when it changed, the repositories now outside it, and their footprint", async () => {
    const { run } = await gate(WITHIN);
    const status = async () => (await (await fetch(`${app.url}/status.json`)).json()) as StatusSnapshot;
    const first = await status();
    expect(first.org_envelopes).toMatchObject([{ owner: "acme", state: "ceiling", ceiling_id: "acme-agents" }]);
    expect(first.ceiling_results).toMatchObject([{ repository: "acme/widgets", outcome: "within", outside: false, current: true }]);
    const firstDigest = first.org_envelopes[0]!.digest;
    // The platform team narrows the ceiling on .github's default branch: the next check judges under it.
    commitCeiling({ ...CEILING, allowed_hosts: ["@npm"] });
    run.run_attempt = 2;
    run.run_started_at = new Date(Date.now() - 60_000).toISOString();
    const envText = text(WITHIN);
    world.fake.addArtifact(REPO, {
      run_id: run.id,
      name: "envelope-gate-evidence",
      created_at: new Date().toISOString(),
      files: bundleFiles({
        machineId: "machine-aaaa1111",
        headSha: HEAD_SHA,
        envelopeHash: `sha256:${sha(envText)}`,
        repository: REPO,
        workflowRunId: run.id,
        runAttempt: 2,
        baseRef: "main",
        baseSha: world.fake.repo(REPO).refs.get("heads/main")!,
        properties: PASSING,
        log: runLog(`sha256:${sha(envText)}`),
      }),
    });
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    const second = await status();
    expect(second.org_envelopes[0]!.digest).not.toBe(firstDigest);
    expect(second.ceiling_results).toMatchObject([{ repository: "acme/widgets", outcome: "widened", outside: true, current: true }]);
    expect(second.ceiling_results[0]!.detail.join("\n")).toContain('allowed_hosts "api.acme.dev:443"');
    const page = await (await fetch(`${app.url}/status`)).text();
    expect(page).toContain("Organisation envelopes");
    expect(page).toContain("OUTSIDE");
    expect(page).toContain(second.org_envelopes[0]!.digest!);
  });

  it("attack: the workflow points ${SCRATCH} at / (its scratch input): ORG_ENVELOPE_UNCHECKED, never a pass", async () => {
    const hash = `sha256:${sha(text(WITHIN))}`;
    await gate(WITHIN, { log: runLog(hash, [], { ...ROOT_VALUES, scratch: "/" }) });
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("ORG_ENVELOPE_UNCHECKED");
    expect(shownText(verified()[0]!.output.summary)).toContain("the value /");
  });

  it("attack: root_values pins where the variables may point; a workspace elsewhere fails, the runner's own passes", async () => {
    const pinned = { ...CEILING, root_values: { WORKSPACE: ["/home/runner/work/*/*"], SCRATCH: ["/home/runner/work/_temp/*"] } };
    const hash = `sha256:${sha(text(WITHIN))}`;
    await gate(WITHIN, { ceiling: pinned, log: runLog(hash, [], { ...ROOT_VALUES, workspace: "/home/runner/.config/x" }) });
    expect(verified()[0]?.conclusion).toBe("failure");
    expect(shownText(verified()[0]!.output.summary)).toContain("root_values.WORKSPACE");
    await app.close();
    await world.close();
    await gate(WITHIN, { ceiling: pinned });
    expect(verified()[0]?.conclusion).toBe("success");
  });

  it("at an organisation's scale: the organisation envelope's files are read once per .github commit, not at every verified check", async () => {
    // A ceiling of its own: the App keeps readings by commit, and another test's identical commit would be one.
    await gate(WITHIN, { ceiling: { ...CEILING, ceiling_id: "acme-scale" } });
    const files = () => world.fake.requestsTo("GET", "/repos/acme/.github/contents/*path").length;
    expect(files()).toBe(2); // the envelope and its digest
    const envText = text(WITHIN);
    for (const head of ["d00d".padEnd(40, "1"), "d00d".padEnd(40, "2")]) {
      const run = addRunA(
        world.fake,
        { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: runLog(`sha256:${sha(envText)}`) },
        { conclusion: "success", headSha: head },
      );
      await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    }
    expect(verified().map((c) => c.conclusion)).toEqual(["success", "success", "success"]);
    expect(files()).toBe(2);
    // A new commit on .github's default branch is read again, and applies at once.
    commitCeiling({ ...CEILING, ceiling_id: "acme-scale", allowed_hosts: ["@npm"] });
    const run = addRunA(
      world.fake,
      { properties: PASSING, envelopeHash: `sha256:${sha(envText)}`, log: runLog(`sha256:${sha(envText)}`) },
      { conclusion: "success", headSha: "d00d".padEnd(40, "3") },
    );
    await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run));
    expect(files()).toBe(4);
    expect(verified().at(-1)?.conclusion).toBe("failure");
  });
});
