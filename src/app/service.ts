import { GateError, isGateError, type ErrorCode } from "../core/errors.js";
import { sha256Hex } from "../core/envelope.js";
import { EVIDENCE_ARTIFACT_NAME, type RunnerIdentity } from "../core/evidence.js";
import { appendLedgerRow, LEDGER_COLUMNS, parseLedger, type LedgerRow } from "../core/ledger.js";
import type { AppClient, InstallationClient, WorkflowRunInfo } from "../github/app-client.js";
import { repoRef } from "../github/app-client.js";
import type { DualRun, LedgerPr, NewLedgerPr, Store } from "../store/index.js";
import { readEvidenceZip, type VerifiedBundle } from "./bundle.js";
import { compareRuns, type Decision, type PropertyComparison } from "./compare.js";
import { buildFreezeProposal, expiresOn, ledgerLockKey } from "./freeze.js";

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface ServiceSettings {
  workflow: string;
  checkName: string;
  runnerBLabels: string[];
  deadlineMs: number;
  freezeTtlDays: number;
  freezeTtlCapDays: number;
  ledgerPath: string;
  reviewers: string[];
  teamReviewers: string[];
  reviewAlertMs: number;
  leaseMs: number;
  replicaId: string;
}

export type Logger = (level: "info" | "warn" | "error", event: string, fields?: Record<string, unknown>) => void;

export const jsonLogger: Logger = (level, event, fields = {}) => {
  const line = JSON.stringify({ level, event, at: new Date().toISOString(), ...fields });
  if (level === "info") process.stdout.write(line + "\n");
  else process.stderr.write(line + "\n");
};

export interface DeliveryResult {
  status: "done" | "duplicate";
  outcome: string;
}

/** What the sweeper did on one pass; errors are per item, and the item keeps its state. */
export interface SweepReport {
  expired: string[];
  dispatched: string[];
  correlated: string[];
  compared: string[];
  reported: string[];
  reviewAlerts: string[];
  errors: { item: string; code: string; message: string }[];
}

interface WorkflowRunPayload {
  action?: string;
  installation?: { id?: number; account?: { login?: string } };
  repository?: { full_name?: string; default_branch?: string };
  workflow_run?: {
    id: number;
    run_attempt?: number;
    path?: string;
    event?: string;
    head_branch?: string;
    status?: string;
    conclusion?: string | null;
    head_sha?: string;
    html_url?: string;
    display_title?: string;
    pull_requests?: { number: number; base?: { ref?: string } }[];
  };
}

function fail(code: ErrorCode, message: string): never {
  throw new GateError(code, message);
}

function codeOf(err: unknown): string {
  return isGateError(err) ? err.code : "INTERNAL_ERROR";
}

/** The dual run id: one per A run attempt, the same on every replica and redelivery. */
export function dualRunIdFor(repository: string, runAId: number, attempt: number): string {
  return `dr-${sha256Hex(`${repository.toLowerCase()}\0${runAId}\0${attempt}`).slice(0, 20)}`;
}

/**
 * The App's behaviour: thin handlers over the store (state), core (decisions) and the GitHub
 * client (effects). Every effect goes through the client, whose guard reads the kill switch.
 */
export class GateAppService {
  lastSweep: { at: number; report: SweepReport } | null = null;

  constructor(
    readonly store: Store,
    readonly github: AppClient,
    readonly settings: ServiceSettings,
    readonly clock: Clock = systemClock,
    readonly log: Logger = jsonLogger,
  ) {}

  private now(): number {
    return this.clock.now();
  }

  // ---- deliveries --------------------------------------------------------------------------

  /**
   * Processes one verified delivery. The delivery is recorded done only after its work
   * completed; on any failure it is recorded failed (with the code) and the error is rethrown,
   * so a redelivery is processed again.
   */
  async handleDelivery(deliveryId: string, event: string, payload: unknown): Promise<DeliveryResult> {
    const owner = this.settings.replicaId;
    const claimed = await this.store.claimDelivery(deliveryId, event, owner, this.now(), this.settings.leaseMs);
    if (!claimed) return { status: "duplicate", outcome: "already processed or in progress" };
    let outcome: string;
    try {
      outcome = await this.route(event, payload);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.store.failDelivery(deliveryId, owner, codeOf(err), message, this.now());
      throw err;
    }
    await this.store.finishDelivery(deliveryId, owner, outcome, this.now());
    return { status: "done", outcome };
  }

  private async route(event: string, payload: unknown): Promise<string> {
    const p = payload as Record<string, unknown>;
    const installation = p.installation as { id?: number; account?: { login?: string } } | undefined;
    if (installation?.id !== undefined) {
      await this.store.ensureInstallation(installation.id, installation.account?.login ?? null, this.now());
    }
    switch (event) {
      case "ping":
        return "pong";
      case "installation":
        return `installation ${String(p.action)}`;
      case "workflow_run":
        return this.onWorkflowRun(payload as WorkflowRunPayload);
      case "push":
        return this.onPush(payload as PushPayload);
      case "pull_request":
        return this.onPullRequest(payload as PullRequestPayload);
      case "pull_request_review":
        return this.onPullRequestReview(payload as PullRequestPayload);
      default:
        return `ignored event ${event}`;
    }
  }

  // ---- runner A / runner B completion ------------------------------------------------------

  private async onWorkflowRun(p: WorkflowRunPayload): Promise<string> {
    const run = p.workflow_run;
    const repository = p.repository?.full_name;
    const installationId = p.installation?.id;
    if (p.action !== "completed" || !run || !repository || installationId === undefined) return "ignored: not a completed run";
    const path = (run.path ?? "").replace(/@.*$/, "");
    if (!path.endsWith(`/${this.settings.workflow}`) && path !== this.settings.workflow) {
      return `ignored: workflow ${run.path ?? "?"} is not ${this.settings.workflow}`;
    }
    const known = await this.store.findDualRunByRunB(repository, run.id);
    if (known) return this.onRunBCompleted(known, run.id, run.html_url ?? null);
    if (run.event !== "workflow_dispatch" && run.conclusion !== "failure") return `ignored: run ${run.id} concluded ${run.conclusion}`;
    const gh = await this.github.installation(installationId);
    const zip = await gh.downloadArtifact(repoRef(repository), run.id, EVIDENCE_ARTIFACT_NAME);
    if (zip === null) {
      if (run.event === "workflow_dispatch") return `ignored: dispatched run ${run.id} has no evidence artifact`;
      return `ignored: run ${run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (no freeze without evidence)`;
    }
    const bundle = readEvidenceZip(zip);
    const dualRunId = (bundle.runner.dual_run_id ?? "").trim();
    if (dualRunId !== "") {
      // Only a run the App dispatched counts as runner B: a workflow_dispatch run on the base
      // branch, whose workflow file a pull request cannot change. A pull_request run claiming a
      // dual run id is the PR's own workflow speaking, and is ignored.
      if (run.event !== "workflow_dispatch") {
        this.log("warn", "runner_b.refused", { run: run.id, event: run.event, dual_run: dualRunId, reason: "not a workflow_dispatch run" });
        return `ignored: run ${run.id} (${run.event ?? "?"}) names dual run ${dualRunId} but was not dispatched`;
      }
      const dual = await this.store.getDualRun(dualRunId);
      if (!dual) return `ignored: run ${run.id} names unknown dual run ${dualRunId}`;
      if (dual.repository.toLowerCase() !== repository.toLowerCase()) return `ignored: dual run ${dualRunId} belongs to ${dual.repository}`;
      if (run.head_branch !== undefined && run.head_branch !== dual.base_ref) {
        this.log("warn", "runner_b.refused", { run: run.id, dual_run: dualRunId, reason: `ran on ${run.head_branch}, dispatched on ${dual.base_ref}` });
        return `ignored: run ${run.id} ran the workflow from ${run.head_branch}, runner B is dispatched on ${dual.base_ref}`;
      }
      return this.onRunBCompleted(dual, run.id, run.html_url ?? null);
    }
    return this.onRunACompleted(p, run, repository, installationId, bundle);
  }

  private async onRunACompleted(
    p: WorkflowRunPayload,
    run: NonNullable<WorkflowRunPayload["workflow_run"]>,
    repository: string,
    installationId: number,
    bundle: VerifiedBundle,
  ): Promise<string> {
    if (bundle.verdict.verdict !== "pass") {
      return `no dual run: runner A's envelope verdict is ${bundle.verdict.verdict}; envelope failures are never frozen`;
    }
    // A property already tolerated by an active freeze does not need another one.
    const failing = bundle.properties.filter((x) => x.result === "fail" && !x.frozen_by).map((x) => x.name);
    if (failing.length === 0) return "no dual run: no property failed";
    const envelopeHash = bundle.runner.envelope_hash ?? bundle.verdict.envelope_hash;
    const headSha = run.head_sha ?? bundle.runner.head_sha;
    if (!envelopeHash || !headSha) fail("EVIDENCE_UNAVAILABLE", `run ${run.id}'s evidence names no envelope hash or head sha`);
    if (bundle.runner.head_sha && bundle.runner.head_sha !== headSha) {
      fail("DUAL_RUN_MISMATCH", `run ${run.id} is for ${headSha} but its evidence says ${bundle.runner.head_sha}`);
    }
    const pull = run.pull_requests?.[0];
    const baseRef = pull?.base?.ref ?? p.repository?.default_branch;
    if (!baseRef) fail("EVIDENCE_UNAVAILABLE", `run ${run.id} has no pull request base or default branch to dispatch on`);
    const attempt = run.run_attempt ?? 1;
    const id = dualRunIdFor(repository, run.id, attempt);
    const now = this.now();
    const inserted = await this.store.insertDualRun({
      id,
      installation_id: installationId,
      repository,
      head_sha: headSha,
      pull_number: pull?.number ?? bundle.runner.pull_number ?? null,
      base_ref: baseRef,
      envelope_hash: envelopeHash,
      properties: JSON.stringify(failing),
      run_a_id: run.id,
      run_a_attempt: attempt,
      run_a_url: run.html_url ?? null,
      evidence_a: bundle.digest,
      runner_a: JSON.stringify(bundle.runner),
      created_at: now,
      deadline_at: now + this.settings.deadlineMs,
    });
    this.log("info", inserted ? "dual_run.recorded" : "dual_run.redelivered", { dual_run: id, repository, properties: failing });
    const dispatched = await this.dispatchRunnerB(id);
    return `dual run ${id}: ${dispatched}`;
  }

  /** Sends runner B's dispatch for a pending dual run; the dispatch goes out at most once per claim. */
  async dispatchRunnerB(id: string): Promise<string> {
    const owner = this.settings.replicaId;
    const now = this.now();
    const claimed = await this.store.transitionDualRun(
      id,
      ["pending", "dispatching"],
      "dispatching",
      { claim_owner: owner, claim_until: now + this.settings.leaseMs },
      { sql: "(state = 'pending' OR claim_until < ?) AND deadline_at > ?", params: [now, now] },
    );
    if (!claimed) {
      const current = await this.store.getDualRun(id);
      return `runner B not dispatched here (state ${current?.state ?? "missing"})`;
    }
    const dual = (await this.store.getDualRun(id)) as DualRun;
    try {
      const gh = await this.github.installation(dual.installation_id);
      const result = await gh.dispatchWorkflow(repoRef(dual.repository), this.settings.workflow, dual.base_ref, {
        pull_request: dual.pull_number === null ? "" : String(dual.pull_number),
        head_sha: dual.head_sha,
        dual_run_id: dual.id,
        runner_labels: JSON.stringify(this.settings.runnerBLabels),
      });
      const moved = await this.store.transitionDualRun(
        id,
        ["dispatching"],
        "waiting",
        { claim_owner: null, claim_until: null, dispatch_mode: result.mode, run_b_id: result.runId, run_b_url: result.runUrl, dispatched_at: this.now() },
        { sql: "claim_owner = ?", params: [owner] },
      );
      this.log("info", "runner_b.dispatched", { dual_run: id, mode: result.mode, run_b: result.runId, recorded: moved });
      return `runner B dispatched (${result.mode}${result.runId === null ? "" : `, run ${result.runId}`})`;
    } catch (err) {
      await this.store.releaseDualRun(id, "dispatching", "pending", owner);
      this.log("warn", "runner_b.dispatch_failed", { dual_run: id, code: codeOf(err), message: (err as Error).message });
      throw err;
    }
  }

  private async onRunBCompleted(dual: DualRun, runBId: number, runBUrl: string | null): Promise<string> {
    const owner = this.settings.replicaId;
    const now = this.now();
    const claimed = await this.store.transitionDualRun(
      dual.id,
      ["waiting", "comparing"],
      "comparing",
      { claim_owner: owner, claim_until: now + this.settings.leaseMs, run_b_id: runBId, run_b_url: runBUrl ?? dual.run_b_url },
      {
        sql: "(state = 'waiting' OR claim_until < ?) AND deadline_at > ? AND (run_b_id IS NULL OR run_b_id = ?)",
        params: [now, now, runBId],
      },
    );
    if (!claimed) {
      const current = await this.store.getDualRun(dual.id);
      return `dual run ${dual.id}: runner B's completion not compared here (state ${current?.state ?? "missing"}${current && current.deadline_at <= now ? ", deadline passed" : ""})`;
    }
    let decision: Decision;
    let bundleB: VerifiedBundle | null = null;
    try {
      const gh = await this.github.installation(dual.installation_id);
      const r = repoRef(dual.repository);
      const zipA = await gh.downloadArtifact(r, dual.run_a_id, EVIDENCE_ARTIFACT_NAME);
      const zipB = await gh.downloadArtifact(r, runBId, EVIDENCE_ARTIFACT_NAME);
      decision = await this.decide(dual, zipA, zipB, (b) => (bundleB = b));
    } catch (err) {
      await this.store.releaseDualRun(dual.id, "comparing", "waiting", owner);
      throw err;
    }
    const b = bundleB as VerifiedBundle | null;
    const moved = await this.store.transitionDualRun(
      dual.id,
      ["comparing"],
      "decided",
      {
        claim_owner: null,
        claim_until: null,
        outcome: decision.outcome,
        outcome_code: decision.code,
        outcome_detail: decision.detail,
        results: JSON.stringify({ results: decision.results, eligible: decision.eligible }),
        evidence_b: b?.digest ?? null,
        runner_b: b ? JSON.stringify(b.runner) : null,
        decided_at: this.now(),
      },
      { sql: "claim_owner = ?", params: [owner] },
    );
    this.log(decision.code ? "warn" : "info", "dual_run.decided", { dual_run: dual.id, outcome: decision.outcome, code: decision.code, detail: decision.detail });
    if (!moved) return `dual run ${dual.id}: decided elsewhere`;
    const reported = await this.report(dual.id);
    return `dual run ${dual.id}: ${decision.outcome}; ${reported}`;
  }

  /** Verifies both bundles and applies the comparison table. Evidence problems decide "no freeze". */
  private async decide(dual: DualRun, zipA: Uint8Array | null, zipB: Uint8Array | null, keepB: (b: VerifiedBundle) => void): Promise<Decision> {
    const none = (outcome: Decision["outcome"], code: ErrorCode, detail: string): Decision => ({ outcome, code, detail, results: [], eligible: [] });
    if (zipB === null) return none("runner_b_unavailable", "RUNNER_B_UNAVAILABLE", "runner B's run finished without an evidence bundle");
    if (zipA === null) return none("evidence_invalid", "EVIDENCE_UNAVAILABLE", "runner A's evidence bundle is no longer available");
    let a: VerifiedBundle;
    let b: VerifiedBundle;
    try {
      a = readEvidenceZip(zipA);
      b = readEvidenceZip(zipB);
    } catch (err) {
      if (isGateError(err) && (err.code === "EVIDENCE_DIGEST_MISMATCH" || err.code === "EVIDENCE_UNAVAILABLE")) {
        return none("evidence_invalid", err.code, err.message);
      }
      throw err;
    }
    keepB(b);
    if (a.digest !== dual.evidence_a) {
      return none("evidence_invalid", "EVIDENCE_DIGEST_MISMATCH", `runner A's bundle digest is now ${a.digest}, it was ${dual.evidence_a} when runner B was scheduled`);
    }
    return compareRuns(a, b, {
      dualRunId: dual.id,
      envelopeHash: dual.envelope_hash,
      headSha: dual.head_sha,
      properties: JSON.parse(dual.properties) as string[],
    });
  }

  // ---- reporting: check run and ledger PRs -------------------------------------------------

  /** Finishes a decided dual run: ledger PRs (or shadow proposals) and the dual-run check run. */
  async report(id: string): Promise<string> {
    const owner = this.settings.replicaId;
    const now = this.now();
    const claimed = await this.store.transitionDualRun(
      id,
      ["decided", "reporting"],
      "reporting",
      { claim_owner: owner, claim_until: now + this.settings.leaseMs },
      { sql: "state = 'decided' OR claim_until < ?", params: [now] },
    );
    if (!claimed) return "reported elsewhere";
    const dual = (await this.store.getDualRun(id)) as DualRun;
    try {
      const gh = await this.github.installation(dual.installation_id);
      const lines: string[] = [];
      const proposals: LedgerPr[] = [];
      let allSettled = true;
      if (dual.outcome === "freeze_eligible") {
        const { results, eligible } = JSON.parse(dual.results ?? "{}") as { results: PropertyComparison[]; eligible: string[] };
        for (const property of eligible) {
          const comparison = results.find((r) => r.property === property) as PropertyComparison;
          const pr = await this.proposeFreeze(gh, dual, property, comparison);
          if (pr.state === "claimed") allSettled = false;
          lines.push(describeProposal(pr));
          proposals.push(pr);
        }
      }
      if (!allSettled) {
        await this.store.releaseDualRun(id, "reporting", "decided", owner);
        return "a ledger PR is being opened by another replica; the sweeper finishes the report";
      }
      const mode = await this.store.installationMode(dual.installation_id);
      await gh.createCheckRun(repoRef(dual.repository), dualRunCheck(this.settings.checkName, dual, lines, mode ?? "shadow", proposals));
      await this.store.transitionDualRun(id, ["reporting"], "done", { claim_owner: null, claim_until: null, done_at: this.now() }, { sql: "claim_owner = ?", params: [owner] });
      return lines.length > 0 ? lines.join("; ") : "check run posted";
    } catch (err) {
      await this.store.releaseDualRun(id, "reporting", "decided", owner);
      throw err;
    }
  }

  /**
   * One ledger PR per (property, envelope hash, head sha): the store's unique key decides
   * which caller sends; the branch ref is the lock on GitHub's side. In shadow mode the
   * proposal is recorded (and shown in the dual-run check) instead of opened.
   */
  private async proposeFreeze(gh: InstallationClient, dual: DualRun, property: string, comparison: PropertyComparison): Promise<LedgerPr> {
    const owner = this.settings.replicaId;
    const now = this.now();
    const runnerA = JSON.parse(dual.runner_a) as RunnerIdentity;
    const runnerB = JSON.parse(dual.runner_b ?? "{}") as RunnerIdentity;
    const proposal = buildFreezeProposal({
      repository: dual.repository,
      property,
      envelopeHash: dual.envelope_hash,
      headSha: dual.head_sha,
      pullNumber: dual.pull_number,
      evidenceA: dual.evidence_a,
      evidenceB: dual.evidence_b ?? "",
      runnerA,
      runnerB,
      runAId: dual.run_a_id,
      runBId: dual.run_b_id ?? 0,
      runAUrl: dual.run_a_url,
      runBUrl: dual.run_b_url,
      comparison,
      expiresOn: expiresOn(now, this.settings.freezeTtlDays, this.settings.freezeTtlCapDays),
      reviewers: this.settings.reviewers,
      teamReviewers: this.settings.teamReviewers,
    });
    const mode = (await this.store.installationMode(dual.installation_id)) ?? "shadow";
    const key = ledgerLockKey(dual.repository, property, dual.envelope_hash, dual.head_sha);
    const row: NewLedgerPr = {
      lock_key: key,
      repository: dual.repository,
      property,
      envelope_hash: dual.envelope_hash,
      head_sha: dual.head_sha,
      dual_run_id: dual.id,
      installation_id: dual.installation_id,
      freeze_id: proposal.freezeId,
      branch: proposal.branch,
      base_ref: dual.base_ref,
      ledger_path: this.settings.ledgerPath,
      row_text: proposal.rowText,
      title: proposal.title,
      body: proposal.body,
      expires_on: proposal.row.expires_on,
      mode,
      created_at: now,
    };
    const mine = await this.store.claimLedgerPr(row, owner, now, this.settings.leaseMs);
    const current = (await this.store.getLedgerPr(key)) as LedgerPr;
    if (!mine) return current;
    if (current.mode === "shadow") {
      await this.store.transitionLedgerPr(key, ["claimed"], "shadowed", { claim_owner: null, claim_until: null }, { sql: "claim_owner = ?", params: [owner] });
      this.log("info", "ledger_pr.shadowed", { freeze_id: current.freeze_id, repository: current.repository, property, branch: current.branch });
      return (await this.store.getLedgerPr(key)) as LedgerPr;
    }
    try {
      await this.openLedgerPr(gh, current);
    } catch (err) {
      // Let the next attempt (any replica) take the claim at once rather than after the lease.
      await this.store.transitionLedgerPr(key, ["claimed"], "claimed", { claim_until: 0 }, { sql: "claim_owner = ?", params: [owner] });
      throw err;
    }
    return (await this.store.getLedgerPr(key)) as LedgerPr;
  }

  private async openLedgerPr(gh: InstallationClient, pr: LedgerPr): Promise<void> {
    const owner = this.settings.replicaId;
    const r = repoRef(pr.repository);
    const baseSha = await gh.branchSha(r, pr.base_ref);
    if (!baseSha) fail("GITHUB_UNAVAILABLE", `the base branch ${pr.base_ref} of ${pr.repository} does not exist`);
    const commit = await this.ledgerCommit(gh, pr, baseSha);
    const created = await gh.createBranch(r, pr.branch, commit);
    if (created === "exists") {
      // Our own earlier attempt (the store lock admits one sender): bring it to this commit.
      await gh.moveBranch(r, pr.branch, commit);
    }
    const pull = await gh.openPull(r, { title: pr.title, head: pr.branch, base: pr.base_ref, body: pr.body });
    await gh.requestReviewers(r, pull.number, this.settings.reviewers, this.settings.teamReviewers);
    await this.store.transitionLedgerPr(
      pr.lock_key,
      ["claimed"],
      "opened",
      { claim_owner: null, claim_until: null, pr_number: pull.number, pr_url: pull.html_url, base_sha: baseSha, opened_at: this.now() },
      { sql: "claim_owner = ?", params: [owner] },
    );
    this.log("info", "ledger_pr.opened", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pull.number, branch: pr.branch });
  }

  /** A commit on `baseSha` whose ledger is the base ledger plus this PR's one row. */
  private async ledgerCommit(gh: InstallationClient, pr: LedgerPr, baseSha: string): Promise<string> {
    const r = repoRef(pr.repository);
    const current = (await gh.fileAt(r, pr.ledger_path, baseSha)) ?? "";
    if (current.trim() !== "") {
      const ledger = parseLedger(current, pr.ledger_path);
      if (ledger.rows.some((row) => row.freeze_id === pr.freeze_id)) {
        fail("LEDGER_INVALID", `${pr.ledger_path} on ${pr.base_ref} already has ${pr.freeze_id}`);
      }
    }
    const cells = pr.row_text.split("\t");
    const row = Object.fromEntries(LEDGER_COLUMNS.map((c, i) => [c, cells[i] ?? ""])) as unknown as LedgerRow;
    const next = appendLedgerRow(current, row);
    return gh.commitFile(r, baseSha, pr.ledger_path, next, `envelope-gate: freeze ${pr.property} until ${pr.expires_on} (${pr.freeze_id})`);
  }

  // ---- keeping ledger PRs mergeable, merges and reviews ------------------------------------

  private async onPush(p: PushPayload): Promise<string> {
    const repository = p.repository?.full_name;
    const installationId = p.installation?.id;
    if (!repository || installationId === undefined || !p.ref?.startsWith("refs/heads/") || !p.after || /^0+$/.test(p.after)) return "ignored push";
    const branch = p.ref.slice("refs/heads/".length);
    const open = (await this.store.listLedgerPrs(["opened"], repository)).filter((pr) => pr.base_ref === branch && pr.base_sha !== p.after);
    if (open.length === 0) return "no open ledger PR on this branch";
    const commits = p.commits ?? [];
    const touched = (path: string) =>
      commits.length >= 20 || commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(path));
    const gh = await this.github.installation(installationId);
    const rebased: string[] = [];
    for (const pr of open) {
      if (!touched(pr.ledger_path)) continue;
      const ledger = (await gh.fileAt(repoRef(repository), pr.ledger_path, p.after)) ?? "";
      if (ledger.trim() !== "" && parseLedger(ledger, pr.ledger_path).rows.some((row) => row.freeze_id === pr.freeze_id)) continue;
      const commit = await this.ledgerCommit(gh, pr, p.after);
      await gh.moveBranch(repoRef(repository), pr.branch, commit);
      await this.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { base_sha: p.after });
      rebased.push(pr.freeze_id);
      this.log("info", "ledger_pr.rebased", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: p.after });
    }
    return rebased.length > 0 ? `rebased ${rebased.join(", ")}` : "ledger unchanged on base";
  }

  private async onPullRequest(p: PullRequestPayload): Promise<string> {
    const repository = p.repository?.full_name;
    const branch = p.pull_request?.head?.ref;
    if (!repository || !branch || p.action !== "closed") return "ignored pull_request";
    const pr = await this.store.findLedgerPrByBranch(repository, branch);
    if (!pr) return "not a ledger PR";
    const merged = p.pull_request?.merged === true;
    await this.store.transitionLedgerPr(pr.lock_key, ["opened"], merged ? "merged" : "closed", { closed_at: this.now() });
    return `ledger PR ${pr.freeze_id} ${merged ? "merged" : "closed"}`;
  }

  private async onPullRequestReview(p: PullRequestPayload): Promise<string> {
    const repository = p.repository?.full_name;
    const branch = p.pull_request?.head?.ref;
    if (!repository || !branch || p.action !== "submitted") return "ignored review";
    const pr = await this.store.findLedgerPrByBranch(repository, branch);
    if (!pr) return "not a ledger PR";
    await this.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { first_review_at: this.now() }, { sql: "first_review_at IS NULL", params: [] });
    return `ledger PR ${pr.freeze_id} reviewed`;
  }

  // ---- the sweeper -------------------------------------------------------------------------

  /**
   * One pass: expire dual runs past their deadline (RUNNER_B_UNAVAILABLE, no freeze), send
   * dispatches that could not go out, find runner B's run where GitHub gave no id, pick up
   * completions whose webhook never came, finish reports, and flag PRs waiting for review.
   */
  async sweep(): Promise<SweepReport> {
    const report: SweepReport = { expired: [], dispatched: [], correlated: [], compared: [], reported: [], reviewAlerts: [], errors: [] };
    const attempt = async (item: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        report.errors.push({ item, code: codeOf(err), message: (err as Error).message });
        this.log("error", "sweep.item_failed", { item, code: codeOf(err), message: (err as Error).message });
      }
    };
    const now = this.now();
    for (const dual of await this.store.listDualRuns(["pending", "dispatching", "waiting", "comparing"])) {
      if (dual.deadline_at > now) continue;
      const held = dual.state === "dispatching" || dual.state === "comparing";
      const expired = await this.store.transitionDualRun(
        dual.id,
        held ? [dual.state] : ["pending", "waiting"],
        "decided",
        {
          claim_owner: null,
          claim_until: null,
          outcome: "runner_b_unavailable",
          outcome_code: "RUNNER_B_UNAVAILABLE",
          outcome_detail: dual.dispatched_at === null
            ? `runner B was never dispatched before the deadline (${new Date(dual.deadline_at).toISOString()}); the property fails, nothing is frozen`
            : `runner B did not finish by the deadline (${new Date(dual.deadline_at).toISOString()}); the property fails, nothing is frozen`,
          decided_at: now,
        },
        held ? { sql: "deadline_at <= ? AND claim_until < ?", params: [now, now] } : { sql: "deadline_at <= ?", params: [now] },
      );
      if (expired) {
        report.expired.push(dual.id);
        this.log("warn", "dual_run.expired", { dual_run: dual.id, code: "RUNNER_B_UNAVAILABLE" });
      }
    }
    for (const dual of await this.store.listDualRuns(["pending"])) {
      await attempt(dual.id, async () => {
        const result = await this.dispatchRunnerB(dual.id);
        if (result.startsWith("runner B dispatched")) report.dispatched.push(dual.id);
      });
    }
    for (const dual of await this.store.listDualRuns(["waiting"])) {
      await attempt(dual.id, async () => {
        const gh = await this.github.installation(dual.installation_id);
        const r = repoRef(dual.repository);
        let run: WorkflowRunInfo | null = null;
        if (dual.run_b_id === null) {
          const since = new Date((dual.dispatched_at ?? dual.created_at) - 5 * 60_000).toISOString();
          const candidates = await gh.listDispatchedRuns(r, this.settings.workflow, since);
          run = candidates.find((c) => (c.display_title ?? "").includes(dual.id)) ?? null;
          if (run === null) return;
          const set = await this.store.transitionDualRun(dual.id, ["waiting"], "waiting", { run_b_id: run.id, run_b_url: run.html_url }, { sql: "run_b_id IS NULL", params: [] });
          if (set) report.correlated.push(dual.id);
        } else {
          run = await gh.getRun(r, dual.run_b_id);
        }
        if (run.status === "completed") {
          const fresh = (await this.store.getDualRun(dual.id)) as DualRun;
          await this.onRunBCompleted(fresh, run.id, run.html_url);
          report.compared.push(dual.id);
        }
      });
    }
    for (const dual of await this.store.listDualRuns(["decided", "reporting"])) {
      if (dual.state === "reporting" && (dual.claim_until ?? 0) >= now) continue;
      await attempt(dual.id, async () => {
        const result = await this.report(dual.id);
        if (result !== "reported elsewhere") report.reported.push(dual.id);
      });
    }
    for (const pr of await this.store.listLedgerPrs(["opened"])) {
      if (pr.first_review_at !== null || pr.review_alerted_at !== null || pr.opened_at === null) continue;
      if (now - pr.opened_at < this.settings.reviewAlertMs) continue;
      await attempt(pr.freeze_id, async () => {
        const claimed = await this.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { review_alerted_at: now }, { sql: "review_alerted_at IS NULL", params: [] });
        if (!claimed) return;
        const hours = Math.floor((now - (pr.opened_at as number)) / 3_600_000);
        this.log("error", "ledger_pr.review_overdue", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pr.pr_number, waited_hours: hours });
        report.reviewAlerts.push(pr.freeze_id);
        const gh = await this.github.installation(pr.installation_id);
        const who = [...this.settings.reviewers.map((x) => `@${x}`), ...this.settings.teamReviewers.map((t) => `@${t}`)].join(" ");
        await gh.comment(repoRef(pr.repository), pr.pr_number as number, `⚠️ This freeze has waited ${hours} hours for review. ${who}`.trim());
      });
    }
    this.lastSweep = { at: now, report };
    return report;
  }
}

interface PushPayload {
  ref?: string;
  after?: string;
  installation?: { id?: number };
  repository?: { full_name?: string };
  commits?: { added?: string[]; modified?: string[]; removed?: string[] }[];
}

interface PullRequestPayload {
  action?: string;
  installation?: { id?: number };
  repository?: { full_name?: string };
  pull_request?: { number?: number; merged?: boolean; head?: { ref?: string } };
}

function describeProposal(pr: LedgerPr): string {
  if (pr.state === "shadowed") return `shadow: would open a ledger PR for ${pr.property} (${pr.freeze_id}, expires ${pr.expires_on}) on branch ${pr.branch}`;
  if (pr.state === "opened" || pr.state === "merged" || pr.state === "closed") return `ledger PR for ${pr.property}: ${pr.pr_url ?? pr.branch} (${pr.state})`;
  return `ledger PR for ${pr.property} is being opened`;
}

/** The dual-run check run on the head commit: what was compared and what follows. */
export function dualRunCheck(checkName: string, dual: DualRun, proposals: string[], mode: "shadow" | "active", prs: LedgerPr[] = []) {
  const name = `${checkName} (dual run)`;
  const results = dual.results ? (JSON.parse(dual.results) as { results: PropertyComparison[] }).results : [];
  const table = results.length
    ? ["| property | runner A | runner B | verdict |", "| --- | --- | --- | --- |", ...results.map((r) => `| ${r.property} | ${r.a} | ${r.b} | ${r.verdict} |`)].join("\n")
    : "";
  const runs = `Runner A: run ${dual.run_a_id}${dual.run_a_url ? ` (${dual.run_a_url})` : ""}. Runner B: ${dual.run_b_id === null ? "none" : `run ${dual.run_b_id}${dual.run_b_url ? ` (${dual.run_b_url})` : ""}`}.`;
  const common = { name, head_sha: dual.head_sha, external_id: dual.id };
  if (dual.outcome === "freeze_eligible") {
    const title = mode === "shadow" ? "Shadow mode: a freeze would be proposed" : "Freeze proposed: waiting for review";
    const summary = [
      `Runner A and runner B disagree on a non-envelope property. ${mode === "shadow" ? "This installation is in shadow mode: nothing was opened." : "A ledger PR with an expiry was opened for review; the property keeps failing until it is merged."}`,
      "",
      ...proposals.map((x) => `- ${x}`),
      "",
      runs,
    ].join("\n");
    const shadowText =
      mode === "shadow"
        ? prs
            .filter((p) => p.state === "shadowed")
            .map((p) => [`### Would open: ${p.title}`, "", `Branch \`${p.branch}\`, adding to \`${p.ledger_path}\`:`, "", "```tsv", p.row_text, "```", "", p.body].join("\n"))
            .join("\n\n---\n\n")
        : undefined;
    return { ...common, conclusion: "neutral" as const, title, summary, ...(table || shadowText ? { text: [table, shadowText].filter(Boolean).join("\n\n") } : {}) };
  }
  const titles: Record<string, string> = {
    both_fail: "Both runners fail: no freeze",
    no_freeze: "No freeze",
    observer_disagreement: "Observer disagreement: the envelope verdict differs between runners",
    runner_b_unavailable: "Runner B unavailable: no freeze",
    mismatch: "Runs do not match: no freeze",
    evidence_invalid: "Evidence could not be verified: no freeze",
  };
  const summary = [`${dual.outcome_code ? `\`${dual.outcome_code}\`: ` : ""}${dual.outcome_detail ?? ""}`, "", "The failing property keeps failing.", "", runs].join("\n");
  return { ...common, conclusion: "failure" as const, title: titles[dual.outcome ?? ""] ?? "No freeze", summary, ...(table ? { text: table } : {}) };
}
