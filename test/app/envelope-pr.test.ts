/**
 * Issue 20, item 2: the App proposes the envelope as a PR from the audit runs of the default
 * branch. Each test runs the App (its HTTP server and store, in this process; SQLite, and
 * PostgreSQL for the main flow) against the GitHub fake, with audit bundles made in the Action's
 * format (runner.json `mode: audit`), one of them from a log the real `envelope-gate run` recorded.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AppConfig } from "../../src/app/config.js";
import type { RunningApp } from "../../src/app/start.js";
import type { AuditRun, EnvelopePr } from "../../src/store/index.js";
import { APP_BOT_LOGIN } from "../support/fake-github-app.js";
import { CONTENTS_INLINE_BYTES, HttpError, pullJson, type FakePull, type FakeWorkflowRun } from "../support/fake-github.js";
import { harmlessProblems, render, shownText } from "../support/gfm.js";
import { logText, type Event } from "../support/logs.js";
import { pullRequestWebhook } from "../support/webhooks.js";
import { program, run as observe, sandbox } from "../observer/harness.js";
import {
  auditBundleFiles,
  deliverAndWait,
  INSTALLATION,
  pgSchema,
  PG_URL,
  pullAt,
  REPO,
  startTestApp,
  startWorld,
  TestClock,
  workflowRunPayload,
  type World,
} from "./helpers.js";

const ENVELOPE_PATH = ".github/envelope-gate/envelope.json";
const DIGEST_PATH = `${ENVELOPE_PATH}.sha256`;
const CURRENT = {
  envelope_id: "widgets-envelope",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: [],
  allowed_env: ["PATH", "CI"],
  allowed_hosts: [],
  network: "deny",
};
const CURRENT_TEXT = JSON.stringify(CURRENT, null, 2) + "\n";
const HASH = `sha256:${createHash("sha256").update(CURRENT_TEXT).digest("hex")}`;
const META = { workspace: "/home/runner/work/widgets/widgets", scratch: "/tmp/eg-scratch-1" };

/** An audit run's evidence bundle as the Action's `mode: audit` uploads it, under CURRENT. */
function auditBundle(runId: number, headSha: string, log: string, mode: string | null = "audit"): Record<string, Uint8Array> {
  return auditBundleFiles({ runId, headSha, log, envelope: CURRENT, envelopeHash: HASH, mode });
}

function backendConfig(backend: "sqlite" | "postgres", schema: string): Partial<AppConfig> {
  return backend === "postgres" ? { store: { sqlitePath: "unused", databaseUrl: PG_URL, pgSchema: schema } } : {};
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`envelope PRs from audit runs (${backend})`, () => {
    let world: World;
    let app: RunningApp;
    let clock: TestClock;
    let drop: () => Promise<void> = async () => {};

    async function start(options: { promote?: boolean; envelope?: boolean; config?: Partial<AppConfig> } = {}) {
      world = await startWorld();
      if (options.envelope !== false) {
        world.fake.commit(
          REPO,
          { [ENVELOPE_PATH]: CURRENT_TEXT, [DIGEST_PATH]: `${HASH.slice(7)}  envelope.json\n` },
          { branch: "main", message: "the envelope" },
        );
      }
      clock = new TestClock();
      const schema = await pgSchema();
      drop = schema.drop;
      app = await startTestApp(world.fake, clock, { ...backendConfig(backend, schema.schema), ...options.config });
      await app.store.ensureInstallation(INSTALLATION, "acme", clock.now());
      if (options.promote !== false) await app.store.promoteInstallation(INSTALLATION, "ops", clock.now());
    }

    afterEach(async () => {
      await app?.close();
      await world?.close();
      await drop();
    });

    const repo = () => world.fake.repo(REPO);
    const mainSha = () => repo().refs.get("heads/main")!;
    const envelopePulls = (): FakePull[] => [...repo().pulls.values()].filter((p) => p.head.ref.startsWith("envelope-gate/envelope/"));
    const fileAt = (ref: string, path: string) => {
      const bytes = world.fake.filesAt(repo(), ref).get(path);
      return bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
    };
    const allPrs = async (): Promise<EnvelopePr[]> => app.store.envelopePrs.listEnvelopePrs(50);
    const auditRow = async (run: FakeWorkflowRun): Promise<AuditRun | null> => app.store.envelopePrs.getAuditRun(REPO, run.id, 1);

    /** A completed push run of the gate workflow on main's tip, with an audit bundle holding `log`. */
    function auditRun(
      log: (runId: number) => string,
      options: { mode?: string | null; headSha?: string; branch?: string; event?: string } = {},
    ) {
      const headSha = options.headSha ?? mainSha();
      const run = world.fake.addWorkflowRun(REPO, {
        head_sha: headSha,
        head_branch: options.branch ?? "main",
        event: options.event ?? "push",
        status: "completed",
        conclusion: "success",
      });
      world.fake.addArtifact(REPO, {
        run_id: run.id,
        name: "envelope-gate-evidence",
        files: auditBundle(run.id, headSha, log(run.id), options.mode),
      });
      return run;
    }
    const events = (list: Event[]) => (runId: number) => logText(HASH, list, { meta: { run_id: String(runId), ...META } });
    /** `pull_request` `synchronize` as GitHub sends it (the simple pull request form), as ledger-trust.test.ts builds it. */
    function synchronize(pull: FakePull, before: string) {
      const json = pullJson(repo(), pull, world.fake.url, true);
      for (const side of ["base", "head"] as const) {
        const end = json[side] as { repo: Record<string, unknown> };
        end.repo = { ...end.repo, has_discussions: false, topics: [] };
      }
      const { pull_request: _full, ...rest } = pullRequestWebhook(world.fake, repo(), pull, INSTALLATION, "synchronize");
      return { ...rest, pull_request: json, before, after: pull.head.sha };
    }
    const deliverRun = (run: FakeWorkflowRun) => deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run, null));

    it("issue 36: an envelope PR never proposes beyond the organisation's ceiling; what the runs needed above it is listed apart", async () => {
      await start();
      const ceiling = {
        ceiling_id: "acme-agents",
        repositories: ["*"],
        allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
        allowed_tools: ["*"],
        allowed_env: ["PATH", "CI", "SUITE_*"],
        allowed_hosts: ["@npm"],
        network: "allowlist",
      };
      const ceilingText = JSON.stringify(ceiling, null, 2) + "\n";
      world.fake.addRepo("acme/.github");
      world.fake.commit(
        "acme/.github",
        {
          "envelope-gate/org-envelope.json": ceilingText,
          "envelope-gate/org-envelope.json.sha256": `${createHash("sha256").update(ceilingText).digest("hex")}  org-envelope.json\n`,
        },
        { branch: "main" },
      );
      const run = auditRun(
        events([
          { kind: "env", key: "SUITE_TIMEOUT" },
          { kind: "env", key: "DEPLOY_TARGET" },
          { kind: "host", host: "registry.npmjs.org", port: 443 },
          { kind: "host", host: "evil.example", port: 443 },
          { kind: "write", path: "/home/runner/.cache/widgets/x", op: "create" },
        ]),
      );
      const res = await deliverRun(run);
      expect(res.state, JSON.stringify(res)).toBe("done");
      const [pull] = envelopePulls();
      const proposed = JSON.parse(fileAt(pull!.head.sha, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed.allowed_env).toEqual(["PATH", "CI", "SUITE_TIMEOUT"]);
      expect(proposed.allowed_hosts).toEqual(["registry.npmjs.org:443"]);
      expect(proposed.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
      expect(proposed.network).toBe("allowlist");
      const body = shownText(pull!.body);
      const above = body.slice(body.indexOf("Above the organisation's ceiling (not proposed)"));
      expect(above).toContain("acme-agents");
      for (const entry of ["DEPLOY_TARGET", "evil.example:443", "/home/runner/.cache/widgets"]) expect(above).toContain(entry);
      expect(body.indexOf("Above the organisation's ceiling")).toBeGreaterThan(0);
    });

    it("issue 36: an organisation envelope that does not verify proposes nothing", async () => {
      await start();
      world.fake.addRepo("acme/.github");
      world.fake.commit("acme/.github", { "envelope-gate/org-envelope.json": "{ not json" }, { branch: "main" });
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(res.outcome).toContain("ORG_ENVELOPE_DIGEST_MISMATCH");
      expect(envelopePulls()).toEqual([]);
    });

    it("audit push runs open one envelope PR: envelope.json and its sha256sum digest, every added entry explained", async () => {
      await start();
      const first = auditRun(
        events([
          { kind: "env", key: "SUITE_TIMEOUT" },
          { kind: "env", key: "SUITE_TIMEOUT" },
          { kind: "env", key: "NODE_OPTIONS" },
          { kind: "write", path: "/home/runner/.cache/widgets/x", op: "create" },
        ]),
      );
      const res = await deliverRun(first);
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(res.outcome).toContain("envelope PR #");
      const [pull, ...more] = envelopePulls();
      expect(more).toEqual([]);
      expect(pull!.user.login).toBe(APP_BOT_LOGIN);
      expect(pull!.base.ref).toBe("main");
      expect(pull!.requested_reviewers).toEqual(["alice"]);
      const text = fileAt(pull!.head.sha, ENVELOPE_PATH)!;
      const digest = fileAt(pull!.head.sha, DIGEST_PATH)!;
      expect(digest).toBe(`${createHash("sha256").update(text).digest("hex")}  envelope.json\n`);
      const proposed = JSON.parse(text) as typeof CURRENT;
      expect(Object.keys(proposed)).toEqual(["envelope_id", "allowed_roots", "allowed_tools", "allowed_env", "allowed_hosts", "network"]);
      // NODE_OPTIONS controls what Node loads: never proposed, listed under "Not proposed" (issue 31, item 3).
      expect(proposed.allowed_env).toEqual(["PATH", "CI", "SUITE_TIMEOUT"]);
      expect(proposed.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}", "/home/runner/.cache/widgets"]);
      expect(proposed.network).toBe("deny");
      // Nothing else changed on the branch.
      const changed = [...world.fake.filesAt(repo(), pull!.head.sha)].filter(
        ([p, b]) => fileAt(mainSha(), p) !== Buffer.from(b).toString("utf8"),
      );
      expect(changed.map(([p]) => p).sort()).toEqual([ENVELOPE_PATH, DIGEST_PATH]);

      const body = shownText(pull!.body);
      expect(body).toContain("This proposal only adds");
      expect(body).toMatch(/allowed_env\s*SUITE_TIMEOUT\s*\(not named\)\s*2 times\s*run-\d+\/observer\.jsonl:2/);
      expect(body).toContain(`run ${first.id}`);
      expect(body).toContain(`+     "SUITE_TIMEOUT"`);
      expect(body).toMatch(/Not proposed\.[^]*NODE_OPTIONS\s+program control: makes a program load or run code/);
      expect(body).toContain(`sha256:${createHash("sha256").update(text).digest("hex")}`);
      expect(render(pull!.body ?? "").elements.some((e) => e.name === "code" && e.attrs.class === "language-diff")).toBe(true);
      const [row] = await allPrs();
      expect(row).toMatchObject({ state: "opened", pr_number: pull!.number, commit_sha: pull!.head.sha, branch: pull!.head.ref });
      expect(row!.branch).toMatch(/^envelope-gate\/envelope\/[0-9a-f]{20}$/);
      expect(await auditRow(first)).toMatchObject({ state: "verified", code: null });

      // A redelivery of the same run changes nothing.
      const again = await deliverRun(first);
      expect(again.state).toBe("done");
      expect(again.outcome).toContain("already proposes this envelope");
      expect(envelopePulls()).toHaveLength(1);

      // A second audit run needs one more entry: the same PR, its branch moved to a new commit of the App's.
      const second = auditRun(
        events([
          { kind: "env", key: "SUITE_TIMEOUT" },
          { kind: "tool", name: "run_tests" },
        ]),
      );
      const res2 = await deliverRun(second);
      expect(res2.state, JSON.stringify(res2)).toBe("done");
      expect(res2.outcome).toContain(`envelope PR #${pull!.number} updated`);
      expect(envelopePulls()).toHaveLength(1);
      const updated = repo().pulls.get(pull!.number)!;
      const head = repo().refs.get(`heads/${updated.head.ref}`)!;
      expect(head).not.toBe(row!.commit_sha);
      const text2 = fileAt(head, ENVELOPE_PATH)!;
      expect(fileAt(head, DIGEST_PATH)).toBe(`${createHash("sha256").update(text2).digest("hex")}  envelope.json\n`);
      expect((JSON.parse(text2) as typeof CURRENT).allowed_tools).toEqual(["run_tests"]);
      expect(shownText(updated.body)).toMatch(
        new RegExp(`NODE_OPTIONS\\s+program control[^|]*run-${first.id}/observer\\.jsonl:4\\s+run ${first.id}`),
      ); // the first run still counts (K = 3)
      const body2 = shownText(updated.body);
      expect(body2).toContain(`run ${second.id}`);
      expect(body2).toContain(`run ${first.id}`);
      expect(body2).toMatch(
        new RegExp(
          `SUITE_TIMEOUT\\s*\\(not named\\)\\s*3 times\\s*run-${first.id}/observer\\.jsonl:2\\s*run ${second.id}, run ${first.id}`,
        ),
      );
      const [row2] = await app.store.envelopePrs.listEnvelopePrs(5);
      expect(row2).toMatchObject({ state: "opened", pr_number: pull!.number, commit_sha: head });
      // The App's own update is not taken for tampering: a third run adds nothing and leaves the PR open.
      const third = await deliverRun(auditRun(events([{ kind: "env", key: "CI" }])));
      expect(third.outcome).toContain(`envelope PR #${pull!.number}`);
      expect(updated.state).toBe("open");
    });

    if (backend === "postgres") return;

    it('an audit run that read credential, machine and run-identity keys and was refused in /usr: none proposed, each under "Not proposed" with why (issue 31, item 3)', async () => {
      await start();
      const keys = ["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "GITHUB_ACTOR", "SONAR_LOGIN"];
      const run = auditRun(
        events([
          ...keys.map((key) => ({ kind: "env", key, source: "node" })),
          { kind: "env", key: "GIT_ASKPASS", source: "node" },
          { kind: "env", key: "P\u0410TH", source: "node" },
          { kind: "env", key: "SUITE_TIMEOUT", source: "node" },
          { kind: "write", path: "/usr/share/x", op: "mkdir", ok: false, source: "process" },
          { kind: "write", path: "/usr/lib/x/y.pyc", op: "create", ok: false, source: "process" },
        ]),
      );
      const res = await deliverRun(run);
      expect(res.state, JSON.stringify(res)).toBe("done");
      const [pull] = envelopePulls();
      const proposed = JSON.parse(fileAt(pull!.head.sha, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed.allowed_env).toEqual(["PATH", "CI", "SUITE_TIMEOUT"]);
      expect(proposed.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}"]);
      const body = shownText(pull!.body);
      const [change = "", apart = ""] = body.split("Not proposed.");
      for (const key of keys) expect(change).not.toContain(key);
      expect(apart).toMatch(/AWS_SECRET_ACCESS_KEY\s+credential: names a secret/);
      expect(apart).toMatch(/RUNNER_NAME\s+machine identity: names the machine/);
      expect(apart).toMatch(/HOSTNAME\s+machine identity/);
      expect(apart).toMatch(/GITHUB_RUN_ID\s+run identity: differs between runner A and runner B/);
      expect(apart).toMatch(/GITHUB_ACTOR\s+run identity/);
      expect(apart).toMatch(/SONAR_LOGIN\s+credential: names a login/);
      expect(apart).toMatch(/GIT_ASKPASS\s+credential carrier/);
      expect(apart).toMatch(/P\\u\{0410\}TH\s+a character outside printable ASCII/);
      expect(apart).toMatch(/\/usr\/share\s*covers \/usr\/share\/x\s+the system's directories/);
      expect(apart).toMatch(/\/usr\/lib\/x\s*covers \S+\s+the system's directories[^]*PYTHONDONTWRITEBYTECODE would have avoided them/);
      const r = render(pull!.body ?? "");
      expect(harmlessProblems(r, { hrefOk: (h) => h.startsWith(world.fake.url) }), r.html).toEqual([]);
    });

    it("an envelope on main over GitHub's 1 MB inline limit is read through the git blobs API, and the proposal adds to it", async () => {
      await start();
      // The same envelope, its closing brace pushed past 1 MB by white space (valid JSON, and a file
      // GitHub's contents API answers without its content).
      const large = CURRENT_TEXT.replace(/\n}\n$/, "\n" + " ".repeat(CONTENTS_INLINE_BYTES + 1024) + "}\n");
      const largeDigest = `${createHash("sha256").update(large).digest("hex")}  envelope.json\n`;
      world.fake.commit(REPO, { [ENVELOPE_PATH]: large, [DIGEST_PATH]: largeDigest }, { branch: "main", message: "a long envelope" });
      world.fake.requests.length = 0;
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(res.outcome).toContain("envelope PR #");
      const [pull] = envelopePulls();
      const proposed = JSON.parse(fileAt(pull!.head.sha, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed.envelope_id).toBe(CURRENT.envelope_id);
      expect(proposed.allowed_env).toEqual(["PATH", "CI", "SUITE_TIMEOUT"]);
      expect(world.fake.requestsTo("GET", "/repos/:owner/:repo/git/blobs/:sha").length).toBeGreaterThan(0);
    });

    it("a log the real envelope-gate run recorded becomes the proposal", async () => {
      await start();
      const s = sandbox({ allowed_env: ["PATH"] });
      const suite = program(
        s,
        "suite.js",
        `for (const k of ["WIDGETS_SEED", "CI"]) void process.env[k]; require("fs").writeFileSync(process.cwd() + "/out.txt", "ok");`,
      );
      const recorded = await observe(s, ["node", suite]);
      expect(recorded.code).toBe(0);
      const log = readFileSync(recorded.log, "utf8");
      const run = auditRun(() => log);
      const res = await deliverRun(run);
      expect(res.state, JSON.stringify(res)).toBe("done");
      const [pull] = envelopePulls();
      const proposed = JSON.parse(fileAt(pull!.head.sha, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed.allowed_env).toEqual(["PATH", "CI", "WIDGETS_SEED"]);
      expect(shownText(pull!.body)).toMatch(/allowed_env\s*WIDGETS_SEED/);
    });

    it("only the last ENVELOPE_GATE_AUDIT_RUNS verified runs count: an older run's entry leaves the proposal", async () => {
      await start({ config: { auditRuns: 2 } });
      const old = auditRun(events([{ kind: "env", key: "OLD_SETTING" }]));
      await deliverRun(old);
      await deliverRun(auditRun(events([{ kind: "env", key: "MID_SETTING" }])));
      const [pull] = envelopePulls();
      const tip = () => repo().refs.get(`heads/${pull!.head.ref}`)!;
      expect(JSON.parse(fileAt(tip(), ENVELOPE_PATH)!).allowed_env).toEqual(["PATH", "CI", "MID_SETTING", "OLD_SETTING"]);
      await deliverRun(auditRun(events([{ kind: "env", key: "NEW_SETTING" }])));
      expect(JSON.parse(fileAt(tip(), ENVELOPE_PATH)!).allowed_env).toEqual(["PATH", "CI", "MID_SETTING", "NEW_SETTING"]);
      expect(shownText(repo().pulls.get(pull!.number)!.body)).not.toContain(`run ${old.id}`);
      expect(envelopePulls()).toHaveLength(1);
    });

    it("two audit runs delivered at once: one envelope PR (the other waits, ENVELOPE_PR_BUSY, and is included when retried)", async () => {
      await start();
      const a = auditRun(events([{ kind: "env", key: "A_SETTING" }]));
      const b = auditRun(events([{ kind: "env", key: "B_SETTING" }]));
      const settled = await Promise.all([deliverRun(a), deliverRun(b)]);
      for (const res of settled) {
        if (res.state === "done") continue;
        expect(res).toMatchObject({ state: "queued", code: "ENVELOPE_PR_BUSY" });
        const again = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, res === settled[0] ? a : b, null), {
          delivery: res.delivery,
        });
        expect(again.state, JSON.stringify(again)).toBe("done");
      }
      const pulls = envelopePulls();
      expect(pulls).toHaveLength(1);
      expect((await allPrs()).filter((p) => p.state === "opened")).toHaveLength(1);
      const proposed = JSON.parse(fileAt(repo().refs.get(`heads/${pulls[0]!.head.ref}`)!, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed.allowed_env).toEqual(expect.arrayContaining(["A_SETTING", "B_SETTING"]));
    });

    it("no envelope on main: the starter envelope plus what the run did", async () => {
      await start({ envelope: false });
      const res = await deliverRun(auditRun(events([{ kind: "host", host: "registry.npmjs.org", port: 443 }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      const [pull] = envelopePulls();
      const proposed = JSON.parse(fileAt(pull!.head.sha, ENVELOPE_PATH)!) as typeof CURRENT;
      expect(proposed).toMatchObject({
        allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
        allowed_env: ["PATH", "@ci"],
        allowed_hosts: ["registry.npmjs.org:443"],
        network: "allowlist",
      });
      expect(shownText(pull!.body)).toContain("network changes from deny to allowlist");
    });

    it("nothing new: no PR; an open envelope PR made unnecessary by a change on main is closed with a note", async () => {
      await start();
      const quiet = await deliverRun(auditRun(events([{ kind: "env", key: "CI" }])));
      expect(quiet.outcome).toContain("already allows what the audit runs did: no envelope PR");
      expect(envelopePulls()).toEqual([]);
      // Runs that need SUITE_TIMEOUT open a PR; then main allows it by hand, and the next audit run closes the PR.
      await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      const [pull] = envelopePulls();
      expect(pull!.state).toBe("open");
      const wider = JSON.stringify({ ...CURRENT, allowed_env: ["PATH", "CI", "SUITE_TIMEOUT"] }, null, 2) + "\n";
      world.fake.commit(REPO, { [ENVELOPE_PATH]: wider }, { branch: "main", message: "allow SUITE_TIMEOUT" });
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "CI" }])));
      expect(res.outcome).toContain("closed as no longer needed");
      expect(pull!.state).toBe("closed");
      expect(repo().issueComments.find((c) => c.issue_number === pull!.number)?.body).toContain("no longer needed");
      expect((await allPrs())[0]).toMatchObject({ state: "closed", outcome_code: null });
    });

    it("a bundle that is not an audit bundle is ignored and recorded why; no PR", async () => {
      await start();
      const gated = auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }]), { mode: null });
      const res = await deliverRun(gated);
      expect(res.state).toBe("done");
      expect(res.outcome).toContain("AUDIT_BUNDLE_NOT_AUDIT");
      expect(await auditRow(gated)).toMatchObject({ state: "ignored", code: "AUDIT_BUNDLE_NOT_AUDIT" });
      const other = auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }]), { mode: "gate" });
      expect((await deliverRun(other)).outcome).toContain('mode "gate"');
      expect(envelopePulls()).toEqual([]);
      expect(await allPrs()).toEqual([]);
      // Its redelivery says the same, and the ignored run never counts among the last K.
      expect((await deliverRun(gated)).outcome).toContain("AUDIT_BUNDLE_NOT_AUDIT");
      const status = (await (await fetch(`${app.url}/status.json`)).json()) as {
        audit_runs: { run_id: number; state: string; code: string }[];
      };
      expect(status.audit_runs.find((a) => a.run_id === gated.id)).toMatchObject({ state: "ignored", code: "AUDIT_BUNDLE_NOT_AUDIT" });
      const html = await (await fetch(`${app.url}/status`)).text();
      expect(html).toContain("<h2>Audit runs</h2>");
      expect(html).toContain("mode &#34;gate&#34;");
    });

    it("a push run on another branch, a tag named like main, and a pull_request run are refused, never proposed from", async () => {
      await start();
      const log = events([{ kind: "env", key: "SUITE_TIMEOUT" }]);
      const feature = world.fake.commit(REPO, { "x.txt": "x" }, { parent: mainSha(), branch: "feature", message: "feature" });
      const onFeature = auditRun(log, { headSha: feature, branch: "feature" });
      const r1 = await deliverRun(onFeature);
      expect(r1.outcome).toContain("AUDIT_RUN_UNVERIFIED");
      expect(await auditRow(onFeature)).toMatchObject({ state: "refused", code: "AUDIT_RUN_UNVERIFIED" });
      expect((await auditRow(onFeature))!.reason).toContain("not the default branch");
      // A tag called "main" on a commit that is not on main: head_branch says main, the commit does not.
      const tagged = world.fake.commit(REPO, { "evil.txt": "x" }, { parent: mainSha(), message: "evil" });
      const tag = auditRun(log, { headSha: tagged, branch: "main" });
      const r2 = await deliverRun(tag);
      expect(r2.outcome).toContain("AUDIT_RUN_UNVERIFIED");
      expect((await auditRow(tag))!.reason).toContain("is not among the last");
      // A pull_request run with an audit bundle is runner A's business, not an audit run.
      const pull = pullAt(world.fake, "d".repeat(40));
      const prRun = auditRun(log, { headSha: pull.head.sha, branch: pull.head.ref, event: "pull_request" });
      const r3 = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, prRun, pull.number));
      expect(r3.state).toBe("done");
      expect(await auditRow(prRun)).toBeNull();
      expect(envelopePulls()).toEqual([]);
      expect(await allPrs()).toEqual([]);
    });

    it("issue 32 item 2: main's first-parent history is read a page of 100 commits at a time, never a call per commit", async () => {
      await start();
      const log = events([{ kind: "env", key: "SUITE_TIMEOUT" }]);
      const history: string[] = [];
      for (let i = 0; i < 250; i++) history.push(world.fake.commit(REPO, { "n.txt": String(i) }, { branch: "main", message: `c${i}` }));
      const walkCalls = () => ({
        pages: world.fake.requestsTo("GET", "/repos/:owner/:repo/commits").length,
        // One commit read alone per commit walked (the old walk); the envelope PR's own commit reads main's tip.
        commits: world.fake.requestsTo("GET", "/repos/:owner/:repo/git/commits/:sha").filter((r) => !r.path.endsWith(mainSha())).length,
      });
      // A run on a commit 150 back from main's tip: on its history, verified from two pages.
      world.fake.requests.length = 0;
      const old = auditRun(log, { headSha: history[99] });
      expect((await deliverRun(old)).outcome).toContain(`audit run ${old.id} verified`);
      expect(walkCalls()).toEqual({ pages: 2, commits: 0 });
      // A tag named main on a commit off main: the walk reads the 200 commits it looks at, in three pages.
      world.fake.requests.length = 0;
      const off = world.fake.commit(REPO, { "evil.txt": "x" }, { parent: history[10], message: "evil" });
      const tag = auditRun(log, { headSha: off, branch: "main" });
      expect((await deliverRun(tag)).outcome).toContain("AUDIT_RUN_UNVERIFIED");
      expect((await auditRow(tag))!.reason).toContain("is not among the last 200");
      expect(walkCalls()).toEqual({ pages: 2, commits: 0 });
    });

    it("a commit a merge brought into main (a pull request's own intermediate commit) is not main's: a tag named main on it is refused", async () => {
      await start();
      // The pull request's first commit reads a credential; its second takes that out; the
      // reviewer merges the result with a merge commit, so the first is now an ancestor of main.
      const evil = world.fake.commit(REPO, { "evil.txt": "x" }, { parent: mainSha(), message: "pr: step 1" });
      const clean = world.fake.commit(REPO, { "evil.txt": null }, { parent: evil, message: "pr: step 2" });
      const merge = world.fake.commit(REPO, {}, { branch: "main", message: "Merge pull request #5" });
      repo().commits.get(merge)!.parents.push(clean);
      // A tag called main on the first commit: that commit's own workflow file uploads the bundle.
      const tag = auditRun(events([{ kind: "env", key: "AWS_SECRET_ACCESS_KEY" }]), { headSha: evil, branch: "main" });
      const r = await deliverRun(tag);
      expect(r.outcome).toContain("AUDIT_RUN_UNVERIFIED");
      expect(await auditRow(tag)).toMatchObject({ state: "refused", code: "AUDIT_RUN_UNVERIFIED" });
      expect((await auditRow(tag))!.reason).toContain("first-parent history");
      expect(envelopePulls()).toEqual([]);
      // The merge commit itself is main's: learned from.
      const onMain = auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }]), { headSha: merge });
      expect((await deliverRun(onMain)).outcome).toContain("verified");
      expect(envelopePulls()).toHaveLength(1);
    });

    it("a foreign push to the envelope branch: the PR is closed as tampered, the branch never moved, a new PR of the App's proposed", async () => {
      await start();
      await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      const [pull] = envelopePulls();
      const branch = pull!.head.ref;
      const evil = world.fake.commit(
        REPO,
        {
          [ENVELOPE_PATH]:
            JSON.stringify({ ...CURRENT, allowed_env: ["*SECRET*"], network: "allowlist", allowed_hosts: ["*.evil.example"] }, null, 2) +
            "\n",
        },
        { branch, message: "widen" },
      );
      pull!.head.sha = evil;
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_REPORTER" }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(pull!.state).toBe("closed");
      expect(repo().refs.get(`heads/${branch}`)).toBe(evil); // never moved, never adopted
      expect(repo().issueComments.find((c) => c.issue_number === pull!.number)?.body).toContain("ENVELOPE_PR_TAMPERED");
      const rows = await allPrs();
      expect(rows.find((r) => r.pr_number === pull!.number)).toMatchObject({ state: "closed", outcome_code: "ENVELOPE_PR_TAMPERED" });
      const status = (await (await fetch(`${app.url}/status.json`)).json()) as {
        envelope_prs: { pull: number; state: string; code: string | null }[];
      };
      expect(status.envelope_prs.find((e) => e.pull === pull!.number)).toMatchObject({ state: "closed", code: "ENVELOPE_PR_TAMPERED" });
      const open = envelopePulls().filter((p) => p.state === "open");
      expect(open).toHaveLength(1);
      expect(open[0]!.head.ref).not.toBe(branch);
      expect(open[0]!.user.login).toBe(APP_BOT_LOGIN);
      const proposed = fileAt(open[0]!.head.sha, ENVELOPE_PATH)!;
      expect(proposed).not.toContain("SECRET");
      expect(JSON.parse(proposed).allowed_env).toEqual(["PATH", "CI", "SUITE_REPORTER", "SUITE_TIMEOUT"]);
    });

    it("a push to the envelope branch closes the PR at its synchronize event; reopening closes it again; the App's own update is recognized", async () => {
      await start();
      await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      const [pull] = envelopePulls();
      // The App's own update moves the branch: its synchronize is the App's commit.
      await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_REPORTER" }])));
      const first = pull!.head.sha;
      pull!.head.sha = repo().refs.get(`heads/${pull!.head.ref}`)!;
      const own = await deliverAndWait(app.url, "pull_request", synchronize(pull!, first));
      expect(own.outcome).toContain("the App's own commit");
      expect(pull!.state).toBe("open");
      // Someone else's push.
      const evil = world.fake.commit(REPO, { [ENVELOPE_PATH]: "{}\n" }, { branch: pull!.head.ref, message: "evil" });
      const before = pull!.head.sha;
      pull!.head.sha = evil;
      const res = await deliverAndWait(app.url, "pull_request", synchronize(pull!, before));
      expect(res.outcome).toContain("ENVELOPE_PR_TAMPERED");
      expect(pull!.state).toBe("closed");
      expect(repo().refs.get(`heads/${pull!.head.ref}`)).toBe(evil);
      pull!.state = "open";
      const again = await deliverAndWait(app.url, "pull_request", pullRequestWebhook(world.fake, repo(), pull!, INSTALLATION, "reopened"));
      expect(again.outcome).toContain("closed again: ENVELOPE_PR_TAMPERED");
      expect(pull!.state).toBe("closed");
    });

    it("a PR someone else opened on the App's new branch is not adopted (ENVELOPE_PR_FOREIGN): the App deletes its branch, which closes it", async () => {
      await start();
      world.fake.route("POST", "/repos/:owner/:repo/pulls", (req) => {
        const head = (req.body as { head: string }).head;
        world.fake.addPull(REPO, {
          number: 90,
          user: { login: "mallory" },
          base: { ref: "main", sha: mainSha() },
          head: { ref: head, sha: repo().refs.get(`heads/${head}`)! },
        });
        throw new HttpError(422, `A pull request already exists for acme:${head}.`);
      });
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(res.outcome).toContain("ENVELOPE_PR_FOREIGN");
      const theirs = repo().pulls.get(90)!;
      expect(theirs.state).toBe("closed");
      expect(theirs.requested_reviewers).toEqual([]);
      expect(repo().refs.get(`heads/${theirs.head.ref}`)).toBeUndefined();
      expect((await allPrs())[0]).toMatchObject({ state: "closed", outcome_code: "ENVELOPE_PR_FOREIGN", pr_number: null });
    });

    it("a branch that appears at the App's name at another commit is never moved (ENVELOPE_BRANCH_FOREIGN); no PR", async () => {
      await start();
      let planted = "";
      world.fake.route("POST", "/repos/:owner/:repo/git/refs", (req) => {
        const ref = (req.body as { ref: string }).ref.replace(/^refs\//, "");
        planted = world.fake.commit(REPO, { [ENVELOPE_PATH]: "{}\n" }, { parent: mainSha(), message: "first" });
        repo().refs.set(ref, planted);
        throw new HttpError(422, "Reference already exists");
      });
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.outcome).toContain("ENVELOPE_BRANCH_FOREIGN");
      const [row] = await allPrs();
      expect(row).toMatchObject({ state: "closed", outcome_code: "ENVELOPE_BRANCH_FOREIGN" });
      expect(repo().refs.get(`heads/${row!.branch}`)).toBe(planted);
      expect(world.fake.requestsTo("PATCH", "/repos/:owner/:repo/git/refs/*ref")).toEqual([]);
      expect(envelopePulls()).toEqual([]);
    });

    it("an envelope PR retargeted away from the default branch is closed (ENVELOPE_PR_RETARGETED) and proposed again onto it", async () => {
      await start();
      await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      const [pull] = envelopePulls();
      repo().refs.set("heads/develop", mainSha());
      pull!.base = { ref: "develop", sha: mainSha() };
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.state, JSON.stringify(res)).toBe("done");
      expect(pull!.state).toBe("closed");
      expect(repo().issueComments.find((c) => c.issue_number === pull!.number)?.body).toContain("ENVELOPE_PR_RETARGETED");
      const open = envelopePulls().filter((p) => p.state === "open");
      expect(open.map((p) => p.base.ref)).toEqual(["main"]);
    });

    it("hostile key, tool and host names from the log are escaped in the body and the title", async () => {
      await start();
      const res = await deliverRun(
        auditRun(
          events([
            { kind: "env", key: "X<img src=x onerror=alert(1)>" },
            { kind: "env", key: "@widgets/admins fixes #1" },
            { kind: "tool", name: "</td></tr></table><!-- `` ```" },
            { kind: "tool", name: "[click](https://evil.example)\u202e" },
            { kind: "write", path: "/opt/<details>/x", op: "create" },
            { kind: "host", host: "a<b>.example", port: 443 },
          ]),
        ),
      );
      expect(res.state, JSON.stringify(res)).toBe("done");
      const [pull] = envelopePulls();
      const r = render(pull!.body ?? "");
      expect(harmlessProblems(r, { hrefOk: (h) => h.startsWith(world.fake.url) }), r.html).toEqual([]);
      // Keys with blanks are outside printable ASCII: never proposed, listed apart, escaped (issue 31, item 3).
      expect(r.text).toContain("X<img\\u{0020}src=x\\u{0020}onerror=alert(1)>");
      expect(shownText(pull!.body)).toContain("@widgets/admins\\u{0020}fixes\\u{0020}#1");
      expect(shownText(pull!.body)).toContain("/opt/<details>");
      expect(shownText(pull!.body)).toContain("a<b>.example:443");
      expect(pull!.title).not.toMatch(/[<>]/);
      expect(render(pull!.title).elements.map((e) => e.name)).toEqual(["p"]);
    });

    it("evidence unavailable: a missing artifact is AUDIT_EVIDENCE_UNAVAILABLE, GitHub failing is GITHUB_UNAVAILABLE and retried; no PR", async () => {
      await start();
      const missing = world.fake.addWorkflowRun(REPO, {
        head_sha: mainSha(),
        head_branch: "main",
        event: "push",
        status: "completed",
        conclusion: "failure",
      });
      const r1 = await deliverRun(missing);
      expect(r1.state).toBe("done");
      expect(r1.outcome).toContain("AUDIT_EVIDENCE_UNAVAILABLE");
      expect(await auditRow(missing)).toMatchObject({ state: "refused", code: "AUDIT_EVIDENCE_UNAVAILABLE" });

      const run = auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }]));
      world.fake.fail("GET", "/repos/:owner/:repo/actions/artifacts/:artifact_id/zip", 500);
      const r2 = await deliverRun(run);
      expect(r2.state).toBe("queued");
      expect(r2.code).toBe("GITHUB_UNAVAILABLE");
      expect(await auditRow(run)).toBeNull(); // nothing decided from a read that failed
      expect(envelopePulls()).toEqual([]);
      // The clean twin: GitHub back, the same delivery's work opens the PR.
      world.fake.clearFailures();
      const r3 = await deliverAndWait(app.url, "workflow_run", workflowRunPayload(world.fake, run, null), { delivery: r2.delivery });
      expect(r3.state, JSON.stringify(r3)).toBe("done");
      expect(envelopePulls()).toHaveLength(1);

      // A tampered bundle: its digests do not verify.
      const bad = auditRun(events([{ kind: "env", key: "OTHER_KEY" }]));
      const art = repo().artifacts.find((a) => a.run_id === bad.id)!;
      art.files["observer.jsonl"] = new TextEncoder().encode(logText(HASH, [{ kind: "env", key: "EVIL" }]));
      expect((await deliverRun(bad)).outcome).toContain("EVIDENCE_DIGEST_MISMATCH");
      expect(fileAt(envelopePulls()[0]!.head.sha, ENVELOPE_PATH)).not.toContain("EVIL");
    });

    it("shadow mode records the proposal instead of opening it", async () => {
      await start({ promote: false });
      const res = await deliverRun(auditRun(events([{ kind: "env", key: "SUITE_TIMEOUT" }])));
      expect(res.state).toBe("done");
      expect(res.outcome).toContain("shadow mode");
      expect(envelopePulls()).toEqual([]);
      expect(world.fake.requestsTo("POST", "/repos/:owner/:repo/git/refs")).toEqual([]);
      const [row] = await allPrs();
      expect(row).toMatchObject({ state: "shadowed", mode: "shadow", pr_number: null, commit_sha: null });
      expect(row!.envelope_text).toContain("SUITE_TIMEOUT");
      expect(row!.body).toContain("This proposal only adds");
    });
  });
}
