import { randomBytes } from "node:crypto";
import {
  AUDIT_MODE,
  buildEnvelopeProposal,
  digestPathFor,
  parseAuditLog,
  readAuditBundle,
  type EnvelopeProposal,
  type ProposalRun,
} from "../core/envelope-proposal.js";
import { Refusal, isRefusal, type ErrorCode } from "../core/errors.js";
import { EVIDENCE_ARTIFACT_NAME } from "../core/evidence.js";
import { mdText } from "../core/markdown.js";
import { type ApiWorkflowRun, type InstallationClient, type PullInfo } from "../github/app-client.js";
import { repoRef, type RepoRef } from "../github/repo.js";
import type { AuditRun, EnvelopePr, EnvelopePrState } from "../store/index.js";
import { fail, type AppContext } from "./context.js";
import { ceilingForRepository, touchedInLog } from "./org-ceiling.js";
import { beyondCeiling } from "../core/ceiling.js";
import { onFirstParentHistory } from "../core/first-parent.js";
import { auditRunRefusal, type RunRefusal } from "../core/run-checks.js";

/**
 * Envelope PRs from audit runs (docs/app.md, *Envelope PRs from audit runs*): a completed push run
 * of the gate workflow on the default branch whose bundle says `mode: audit` is verified against
 * GitHub's API and recorded; the last ENVELOPE_GATE_AUDIT_RUNS verified runs are merged through
 * suggest from the envelope at the branch's tip; a proposal that adds anything is one PR per
 * repository, opened, updated or (in shadow mode) recorded, on the ledger PRs' trust rules: a
 * random branch, the commit recorded before any ref moves, nothing adopted the App did not make.
 */

/** How far back from the default branch's tip an audit run's commit is looked for. */
const AUDIT_ANCESTRY_LIMIT = 200;
/** Pages of the commits list (100 each) that walk reads at most; past them a commit is read alone. */
const AUDIT_HISTORY_PAGES = 10;

/** The envelope PR's branch: under the App's prefix, 80 random bits from the CSPRNG, recorded with the claim. */
function envelopeBranch(random: string = randomBytes(10).toString("hex")): string {
  return `envelope-gate/envelope/${random}`;
}

/** `workflow_run` completed for a push run of the gate workflow: judge it as an audit run, then propose. */
export async function onAuditRun(
  ctx: AppContext,
  gh: InstallationClient,
  run: ApiWorkflowRun,
  repository: string,
  installationId: number,
): Promise<string> {
  if (run.conclusion === "cancelled") return `ignored: push run ${run.id} was cancelled`;
  const attempt = run.run_attempt ?? 1;
  const known = await ctx.store.envelopePrs.getAuditRun(repository, run.id, attempt);
  if (known !== null && known.state !== "verified") return describe(known);
  const r = repoRef(repository);
  const branch = await gh.defaultBranch(r);
  let fresh: ProposalRun | null = null;
  if (known === null) {
    const judged = await judgeAuditRun(ctx, gh, r, run, repository, branch);
    const row: AuditRun = {
      repository,
      run_id: run.id,
      run_attempt: attempt,
      branch: run.head_branch ?? null,
      head_sha: run.head_sha ?? null,
      run_url: run.html_url ?? null,
      state: "refusal" in judged ? judged.state : "verified",
      code: "refusal" in judged ? judged.refusal.code : null,
      reason: "refusal" in judged ? judged.refusal.reason : null,
      evidence: "refusal" in judged ? null : judged.run.evidence,
      recorded_at: ctx.clock.now(),
    };
    await ctx.store.envelopePrs.recordAuditRun(row);
    if ("refusal" in judged) {
      ctx.log(judged.state === "refused" ? "warn" : "info", `audit_run.${judged.state}`, {
        run: run.id,
        repository,
        code: judged.refusal.code,
        reason: judged.refusal.reason,
      });
      return describe(row);
    }
    fresh = judged.run;
    ctx.log("info", "audit_run.verified", { run: run.id, repository, evidence: fresh.evidence });
  }
  return `audit run ${run.id} verified; ${await proposeEnvelope(ctx, gh, repository, installationId, branch, fresh)}`;
}

function describe(row: AuditRun): string {
  return `${row.state === "ignored" ? "ignored" : "refused"} as an audit run: ${row.code ?? "?"}: ${row.reason ?? ""}`;
}

type Judged = { run: ProposalRun } | { state: "refused" | "ignored"; refusal: RunRefusal };

/** Verifies the run from GitHub's answers, then its evidence. A GitHub failure throws (the delivery is retried). */
async function judgeAuditRun(
  ctx: AppContext,
  gh: InstallationClient,
  r: RepoRef,
  run: ApiWorkflowRun,
  repository: string,
  branch: string,
): Promise<Judged> {
  const refused = (code: ErrorCode, reason: string): Judged => ({ state: "refused", refusal: { code, reason } });
  const first = auditRunRefusal(run, repository, ctx.settings.workflow, branch);
  if (first !== null) return { state: "refused", refusal: first };
  if (!(await onBranch(gh, r, branch, run.head_sha))) {
    return refused(
      "AUDIT_RUN_UNVERIFIED",
      `run ${run.id}'s commit ${run.head_sha.slice(0, 12)} is not among the last ${AUDIT_ANCESTRY_LIMIT} commits of ${branch}'s first-parent history (the commits that were its tip; one a merge brought in is not)`,
    );
  }
  const zip = await gh.downloadArtifact(r, run.id, EVIDENCE_ARTIFACT_NAME);
  if (zip === null)
    return refused("AUDIT_EVIDENCE_UNAVAILABLE", `run ${run.id} has no ${EVIDENCE_ARTIFACT_NAME} artifact (missing or expired)`);
  try {
    const bundle = readAuditBundle(zip);
    if (bundle.mode !== AUDIT_MODE) {
      return {
        state: "ignored",
        refusal: {
          code: "AUDIT_BUNDLE_NOT_AUDIT",
          reason: `run ${run.id}'s runner.json says mode ${bundle.mode === null ? "(none)" : JSON.stringify(bundle.mode)}, not "audit": a gated run is not learned from`,
        },
      };
    }
    if (typeof bundle.runner.head_sha === "string" && bundle.runner.head_sha !== run.head_sha) {
      return refused(
        "AUDIT_RUN_UNVERIFIED",
        `run ${run.id}'s bundle names commit ${bundle.runner.head_sha.slice(0, 40)}, the run is ${run.head_sha}`,
      );
    }
    const log = parseAuditLog(bundle.log, `run-${run.id}/observer.jsonl`);
    return { run: { runId: run.id, url: run.html_url ?? null, headSha: run.head_sha, evidence: bundle.digest, log } };
  } catch (err) {
    if (!isRefusal(err)) throw err;
    return refused(err.code, `run ${run.id}: ${err.message}`);
  }
}

/**
 * Whether `sha` is the branch's tip or on its first-parent history within AUDIT_ANCESTRY_LIMIT
 * commits: the commits that were the branch's tip (a merge's first parent is the branch it was
 * made on). A commit a merge brought in through another parent (a pull request's intermediate
 * commit, reviewed only as part of the merged result) is not the branch's, though it is an
 * ancestor: a tag named like the branch on it runs that commit's own workflow file.
 */
async function onBranch(gh: InstallationClient, r: RepoRef, branch: string, sha: string): Promise<boolean> {
  const tip = await gh.branchSha(r, branch);
  if (tip === null) return false;
  // The branch's history a page of 100 at a time (not a call per commit), then any commit the
  // listing did not hold read alone.
  const parents = new Map<string, readonly string[]>();
  let page = 0;
  let more = true;
  for (;;) {
    const answer = onFirstParentHistory(parents, tip, sha, AUDIT_ANCESTRY_LIMIT);
    if ("on" in answer) return answer.on;
    if (more && page < AUDIT_HISTORY_PAGES) {
      const listed = await gh.commitsPage(r, tip, ++page);
      for (const c of listed.commits) parents.set(c.sha, c.parents);
      more = listed.more;
      continue;
    }
    const own = await gh.commitParents(r, answer.missing);
    if (own === null) return false;
    parents.set(answer.missing, own);
  }
}

/** Reads the last K verified audit runs again (the fresh one as just read), newest first, and those that could not be. */
async function auditEvidence(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  branch: string,
  fresh: ProposalRun | null,
): Promise<{ runs: ProposalRun[]; leftOut: { runId: number; why: string }[] }> {
  const r = repoRef(repository);
  const rows = await ctx.store.envelopePrs.lastVerifiedAuditRuns(repository, branch, ctx.settings.auditRuns);
  const runs: ProposalRun[] = [];
  const leftOut: { runId: number; why: string }[] = [];
  for (const row of rows) {
    if (fresh !== null && row.run_id === fresh.runId) {
      runs.push(fresh);
      continue;
    }
    const zip = await gh.downloadArtifact(r, row.run_id, EVIDENCE_ARTIFACT_NAME);
    if (zip === null) {
      leftOut.push({ runId: row.run_id, why: `its ${EVIDENCE_ARTIFACT_NAME} artifact is gone (expired or deleted)` });
      continue;
    }
    try {
      const bundle = readAuditBundle(zip);
      if (bundle.digest !== row.evidence) {
        leftOut.push({ runId: row.run_id, why: `its evidence is now ${bundle.digest}, not the ${row.evidence ?? "?"} verified` });
        continue;
      }
      const log = parseAuditLog(bundle.log, `run-${row.run_id}/observer.jsonl`);
      runs.push({ runId: row.run_id, url: row.run_url, headSha: row.head_sha ?? "", evidence: bundle.digest, log });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      leftOut.push({ runId: row.run_id, why: `${err.code}: ${err.message}` });
    }
  }
  return { runs, leftOut };
}

/**
 * Builds the proposal and brings the repository's one envelope PR in line with it: opened,
 * updated, recorded (shadow), closed as no longer needed, or nothing.
 */
async function proposeEnvelope(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  installationId: number,
  branch: string,
  fresh: ProposalRun | null,
): Promise<string> {
  const { store, settings } = ctx;
  const r = repoRef(repository);
  const evidence = await auditEvidence(ctx, gh, repository, branch, fresh);
  if (evidence.runs.length === 0) return "no audit evidence can be read: no proposal";
  const tip = await gh.branchSha(r, branch);
  if (tip === null) fail("GITHUB_UNAVAILABLE", `the default branch ${branch} of ${repository} does not exist`);
  const current = await gh.textAt(
    r,
    settings.envelopePath,
    tip,
    `read ${settings.envelopePath} on ${branch}`,
    (path) => new Refusal("ENVELOPE_UNREADABLE", `${path} on ${branch} is not a file`),
  );
  // Nothing above the organisation's ceiling is proposed; a ceiling that cannot be read proposes nothing.
  const ceiling = await ceilingForRepository(ctx, gh, repository);
  if (ceiling.kind === "invalid") {
    ctx.log("warn", "envelope_pr.ceiling_invalid", { repository, code: ceiling.code, message: ceiling.message });
    return `no proposal: the organisation envelope does not verify (${ceiling.code}: ${ceiling.message})`;
  }
  const latest = evidence.runs[0];
  if (ceiling.kind === "ceiling" && latest !== undefined) {
    const touched = beyondCeiling(touchedInLog(latest.log), ceiling.baseline);
    await store.ceilings.recordFootprint(
      repository,
      r.owner,
      JSON.stringify({ ...touched, run: latest.runId, audit: true }),
      ctx.clock.now(),
    );
  }
  const proposal = buildEnvelopeProposal({
    repository,
    branch,
    envelopePath: settings.envelopePath,
    current,
    runs: evidence.runs,
    leftOut: evidence.leftOut,
    ceiling: ceiling.kind === "ceiling" ? { ceiling: ceiling.ceiling, id: ceiling.id, digest: ceiling.digest } : null,
  });
  const mode = (await store.installationMode(installationId)) ?? "shadow";
  const owner = settings.replicaId;
  let active = await store.envelopePrs.activeEnvelopePr(repository);
  if (active !== null && !(await store.envelopePrs.claimEnvelopePr(active.id, owner, ctx.clock.now(), settings.leaseMs))) busy(repository);
  try {
    if (active !== null) active = await reconcile(ctx, gh, active, mode, branch);
    if (!proposal.changed) {
      if (active === null) return `the envelope on ${branch} already allows what the audit runs did: no envelope PR`;
      await retireUnneeded(ctx, gh, active);
      return `the envelope on ${branch} already allows what the audit runs did: envelope PR ${active.pr_number === null ? active.id : `#${active.pr_number}`} closed as no longer needed`;
    }
    if (active === null) {
      const id = `EP-${randomBytes(8).toString("hex")}`;
      const inserted = await store.envelopePrs.insertEnvelopePr(
        {
          id,
          repository,
          installation_id: installationId,
          branch: envelopeBranch(),
          base_ref: branch,
          envelope_path: settings.envelopePath,
          mode,
          ...content(proposal, evidence.runs),
          created_at: ctx.clock.now(),
        },
        owner,
        ctx.clock.now(),
        settings.leaseMs,
      );
      if (!inserted) busy(repository);
      active = (await store.envelopePrs.getEnvelopePr(id)) as EnvelopePr;
    }
    return await bringInLine(ctx, gh, active, proposal, evidence.runs);
  } catch (err) {
    // Let the next attempt (any replica) take the claim at once rather than after the lease.
    if (active !== null) await release(ctx, active).catch(() => undefined);
    throw err;
  }
}

/** Gives the claim back, whatever state the envelope PR is in now (only while this process holds it). */
async function release(ctx: AppContext, pr: EnvelopePr): Promise<void> {
  const now = (await ctx.store.envelopePrs.getEnvelopePr(pr.id)) ?? pr;
  await ctx.store.envelopePrs.updateEnvelopePr(
    pr.id,
    ctx.settings.replicaId,
    ["claimed", "opened", "shadowed"],
    now.state,
    { claim_owner: null, claim_until: null },
    ctx.clock.now(),
  );
}

function busy(repository: string): never {
  throw new Refusal("ENVELOPE_PR_BUSY", `another delivery is writing ${repository}'s envelope PR`, {
    hint: "Nothing to do: the delivery is queued and retried once the other one is done, so its run is included.",
  });
}

function content(proposal: EnvelopeProposal, runs: ProposalRun[]) {
  return {
    envelope_text: proposal.text,
    envelope_digest: proposal.digest,
    title: proposal.title,
    body: proposal.body,
    runs: JSON.stringify(runs.map((x) => x.runId)),
  };
}

/**
 * The envelope PR in flight, held to what GitHub says now: an opened one that was merged or closed
 * there, retargeted, or whose branch is no longer at the App's commit is recorded closed (and
 * closed on GitHub when the App closes it); a shadowed one of an installation promoted since is
 * superseded. Returns the one still in flight (claimed by this caller), or null.
 */
async function reconcile(
  ctx: AppContext,
  gh: InstallationClient,
  pr: EnvelopePr,
  mode: "shadow" | "active",
  branch: string,
): Promise<EnvelopePr | null> {
  const r = repoRef(pr.repository);
  const end = async (state: EnvelopePrState, code: ErrorCode | null, detail: string) => {
    await ctx.store.envelopePrs.updateEnvelopePr(
      pr.id,
      ctx.settings.replicaId,
      [pr.state],
      state,
      { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: ctx.clock.now() },
      ctx.clock.now(),
    );
    ctx.log(code === null ? "info" : "error", `envelope_pr.${code === null ? state : "refused"}`, {
      repository: pr.repository,
      pull: pr.pr_number,
      branch: pr.branch,
      code,
      detail,
    });
  };
  if (pr.state === "shadowed") {
    if (mode === "shadow" && pr.base_ref === branch) return pr;
    await end(
      "closed",
      null,
      mode === "active" ? "superseded: the installation was promoted" : `superseded: the default branch is now ${branch}`,
    );
    return null;
  }
  if (pr.state === "claimed") {
    if (pr.base_ref === branch) return pr;
    await end("closed", null, `superseded: the default branch is now ${branch}`);
    return null;
  }
  // opened
  const pull = await gh.getPull(r, pr.pr_number as number);
  if (pull.state !== "open") {
    await end(pull.merged ? "merged" : "closed", null, pull.merged ? "merged on GitHub" : "closed on GitHub");
    return null;
  }
  if (pull.base_ref !== pr.base_ref || pr.base_ref !== branch) {
    const detail = `retargeted onto ${pull.base_ref} (the App opened it onto ${pr.base_ref}; the default branch is ${branch})`;
    await end("closed", "ENVELOPE_PR_RETARGETED", detail);
    await closeWithComment(
      gh,
      r,
      pr,
      `Closed by envelope-gate (\`ENVELOPE_PR_RETARGETED\`): this envelope PR was made for \`${pr.base_ref}\`; it is not proposed onto another branch. The next audit run proposes a new one.`,
    );
    return null;
  }
  const tip = await gh.branchSha(r, pr.branch);
  // The branch as GitHub has it now (a pull request's head is its branch's tip).
  if (tip === null || tip !== pr.commit_sha) {
    const detail = `the head of ${pr.branch} is ${tip ?? "gone"}, not the commit the App made (${pr.commit_sha ?? "none recorded"})`;
    await end("closed", "ENVELOPE_PR_TAMPERED", detail);
    await closeWithComment(
      gh,
      r,
      pr,
      `Closed by envelope-gate (\`ENVELOPE_PR_TAMPERED\`): this branch no longer holds the commit the App made (\`${pr.commit_sha ?? "?"}\`); its head is \`${tip ?? "gone"}\`. An envelope the App did not write is never proposed for review. A new envelope PR is proposed from the audit runs.`,
    );
    return null;
  }
  return pr;
}

async function closeWithComment(gh: InstallationClient, r: RepoRef, pr: EnvelopePr, comment: string): Promise<void> {
  if (pr.pr_number === null) return;
  await gh.closePull(r, pr.pr_number);
  await gh.comment(r, pr.pr_number, comment);
}

/** The current envelope allows everything now (merged by hand, say): the PR in flight is closed with a note. */
async function retireUnneeded(ctx: AppContext, gh: InstallationClient, pr: EnvelopePr): Promise<void> {
  const detail = "no longer needed: the envelope on the default branch allows everything the audit runs did";
  await ctx.store.envelopePrs.updateEnvelopePr(
    pr.id,
    ctx.settings.replicaId,
    [pr.state],
    "closed",
    { claim_owner: null, claim_until: null, outcome_detail: detail, closed_at: ctx.clock.now() },
    ctx.clock.now(),
  );
  ctx.log("info", "envelope_pr.unneeded", { repository: pr.repository, pull: pr.pr_number });
  if (pr.state === "opened") {
    await closeWithComment(
      gh,
      repoRef(pr.repository),
      pr,
      "Closed by envelope-gate: the envelope on the default branch now allows everything the last audit runs did, so this proposal is no longer needed. A later audit run that needs more proposes a new one.",
    );
  }
}

/** Makes the claimed (or opened, or shadowed) envelope PR say `proposal`, trusting nothing on GitHub it did not make. */
async function bringInLine(
  ctx: AppContext,
  gh: InstallationClient,
  pr: EnvelopePr,
  proposal: EnvelopeProposal,
  runs: ProposalRun[],
): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const now = () => ctx.clock.now();
  const r = repoRef(pr.repository);
  const fields = content(proposal, runs);
  const entries = `${proposal.added.length} entr${proposal.added.length === 1 ? "y" : "ies"}`;
  if (pr.state === "shadowed" || (pr.state === "claimed" && pr.mode === "shadow" && pr.commit_sha === null)) {
    await store.envelopePrs.updateEnvelopePr(
      pr.id,
      owner,
      [pr.state],
      "shadowed",
      { ...fields, claim_owner: null, claim_until: null },
      now(),
    );
    ctx.log("info", "envelope_pr.shadowed", { repository: pr.repository, branch: pr.branch, entries: proposal.added.length });
    return `envelope PR recorded (shadow mode): ${entries}`;
  }
  if (pr.state === "opened") {
    const pull = pr.pr_number as number;
    if (pr.envelope_text === proposal.text) {
      if (pr.body !== proposal.body || pr.title !== proposal.title)
        await gh.updatePull(r, pull, { title: proposal.title, body: proposal.body });
      await store.envelopePrs.updateEnvelopePr(
        pr.id,
        owner,
        ["opened"],
        "opened",
        { ...fields, claim_owner: null, claim_until: null },
        now(),
      );
      return `envelope PR #${pull} already proposes this envelope`;
    }
    const base = await gh.branchSha(r, pr.base_ref);
    if (base === null) fail("GITHUB_UNAVAILABLE", `the default branch ${pr.base_ref} of ${pr.repository} does not exist`);
    const commit = await gh.commitFiles(r, base, files(pr, proposal), proposal.title);
    // Recorded before the branch moves, and only over the commit the App read the branch at.
    const kept = await store.envelopePrs.updateEnvelopePr(
      pr.id,
      owner,
      ["opened"],
      "opened",
      { ...fields, commit_sha: commit, base_sha: base },
      now(),
      { commit_sha: pr.commit_sha },
    );
    if (!kept) busy(pr.repository);
    await gh.moveBranch(r, pr.branch, commit);
    await gh.updatePull(r, pull, { title: proposal.title, body: proposal.body });
    await store.envelopePrs.updateEnvelopePr(pr.id, owner, ["opened"], "opened", { claim_owner: null, claim_until: null }, now());
    ctx.log("info", "envelope_pr.updated", { repository: pr.repository, pull, commit, entries: proposal.added.length });
    return `envelope PR #${pull} updated: ${entries}`;
  }
  return openEnvelopePr(ctx, gh, pr, proposal, fields);
}

function files(pr: EnvelopePr, proposal: EnvelopeProposal): Record<string, string> {
  return { [pr.envelope_path]: proposal.text, [digestPathFor(pr.envelope_path)]: proposal.digestLine };
}

/**
 * Opens the claimed envelope PR as ledger PRs are opened (ledger-pr.ts): the commit recorded
 * before the branch is created; a branch at another commit is ENVELOPE_BRANCH_FOREIGN and never
 * moved; an open PR on the branch is adopted only when it is the App's bot's, from this
 * repository, at the App's commit, onto the default branch (else ENVELOPE_PR_FOREIGN, and the
 * App's own branch is deleted, which closes it).
 */
async function openEnvelopePr(
  ctx: AppContext,
  gh: InstallationClient,
  pr: EnvelopePr,
  proposal: EnvelopeProposal,
  fields: ReturnType<typeof content>,
): Promise<string> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const now = () => ctx.clock.now();
  const r = repoRef(pr.repository);
  const refuse = async (code: ErrorCode, detail: string): Promise<string> => {
    await store.envelopePrs.updateEnvelopePr(
      pr.id,
      owner,
      ["claimed"],
      "closed",
      { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: now() },
      now(),
    );
    ctx.log("error", "envelope_pr.refused", { code, repository: pr.repository, branch: pr.branch, detail });
    return `envelope PR refused: ${code}: ${detail}`;
  };
  const base = await gh.branchSha(r, pr.base_ref);
  if (base === null) fail("GITHUB_UNAVAILABLE", `the default branch ${pr.base_ref} of ${pr.repository} does not exist`);
  const tip = await gh.branchSha(r, pr.branch);
  let commit: string;
  const record = async (): Promise<string> => {
    const made = await gh.commitFiles(r, base, files(pr, proposal), proposal.title);
    const kept = await store.envelopePrs.updateEnvelopePr(
      pr.id,
      owner,
      ["claimed"],
      "claimed",
      { ...fields, commit_sha: made, base_sha: base },
      now(),
      { commit_sha: pr.commit_sha },
    );
    if (!kept) busy(pr.repository);
    return made;
  };
  if (tip === null) {
    commit = await record();
    if ((await gh.createBranch(r, pr.branch, commit)) === "exists") {
      const seen = await gh.branchSha(r, pr.branch);
      if (seen !== commit) {
        return refuse(
          "ENVELOPE_BRANCH_FOREIGN",
          `branch ${pr.branch} appeared at ${seen ?? "?"} before the App could create it; it was not moved`,
        );
      }
    }
  } else if (pr.commit_sha !== null && tip === pr.commit_sha) {
    // The App's own earlier attempt (a crash, a lost answer): its commit, rebuilt if the proposal changed.
    commit = tip;
    if (pr.envelope_text !== proposal.text || pr.base_sha !== base) {
      commit = await record();
      await gh.moveBranch(r, pr.branch, commit);
    }
  } else {
    return refuse(
      "ENVELOPE_BRANCH_FOREIGN",
      `branch ${pr.branch} exists at ${tip}, not at a commit the App made${pr.commit_sha ? ` (${pr.commit_sha})` : ""}; it was not moved`,
    );
  }
  let pull: PullInfo | "exists" = await gh.openPull(r, { title: proposal.title, head: pr.branch, base: pr.base_ref, body: proposal.body });
  if (pull === "exists") {
    const bot = await gh.botLogin();
    const open = await gh.listOpenPulls(r, pr.branch);
    const own = open.find(
      (p) =>
        p.author === bot &&
        p.head_repository !== null &&
        p.head_repository.toLowerCase() === pr.repository.toLowerCase() &&
        p.head_ref === pr.branch &&
        p.head_sha === commit &&
        p.base_ref === pr.base_ref,
    );
    if (!own) {
      if ((await gh.branchSha(r, pr.branch)) === commit) await gh.deleteBranch(r, pr.branch);
      const seen = open.map(
        (p) => `#${p.number} by ${p.author} from ${p.head_repository ?? "?"} at ${p.head_sha.slice(0, 12)} onto ${p.base_ref}`,
      );
      return refuse(
        "ENVELOPE_PR_FOREIGN",
        `a pull request the App did not open is open on ${pr.branch} (${seen.join("; ") || "none listed"}); not adopted, the App's branch deleted`,
      );
    }
    await gh.updatePull(r, own.number, { title: proposal.title, body: proposal.body });
    pull = own;
  }
  await gh.requestReviewers(r, pull.number, settings.reviewers, settings.teamReviewers);
  await store.envelopePrs.updateEnvelopePr(
    pr.id,
    owner,
    ["claimed"],
    "opened",
    { claim_owner: null, claim_until: null, pr_number: pull.number, pr_url: pull.html_url, commit_sha: commit },
    now(),
  );
  ctx.log("info", "envelope_pr.opened", {
    repository: pr.repository,
    pull: pull.number,
    branch: pr.branch,
    entries: proposal.added.length,
  });
  return `envelope PR #${pull.number} opened: ${proposal.added.length} entr${proposal.added.length === 1 ? "y" : "ies"}`;
}

/**
 * `pull_request` on an envelope PR the App opened (matched by repository, PR number, and the
 * branch and head repository it recorded): a push to its branch, a retarget, a merge or a close is
 * held to GitHub's answers at once (`reconcile`), not only at the next audit run, so a commit
 * someone else pushed closes the PR (ENVELOPE_PR_TAMPERED) before a reviewer merges it.
 */
export async function onEnvelopePullRequest(
  ctx: AppContext,
  action: string,
  head: { repository: string; number: number; branch: string; headRepository: string | null },
  installationId: number | undefined,
): Promise<string | null> {
  const pr = await ctx.store.envelopePrs.findEnvelopePrByPull(head.repository, head.number);
  if (pr === null) return null;
  if (head.branch !== pr.branch || head.headRepository === null || head.headRepository.toLowerCase() !== pr.repository.toLowerCase()) {
    return `not the App's envelope PR on ${pr.branch}: head ${head.headRepository ?? "?"}:${head.branch}`;
  }
  if (pr.state === "closed" && pr.outcome_code !== null && action === "reopened") {
    // A PR the App closed (tampered, retargeted) stays closed.
    const gh = await ctx.installation(installationId ?? pr.installation_id);
    await closeWithComment(
      gh,
      repoRef(pr.repository),
      pr,
      `Closed again by envelope-gate (\`${pr.outcome_code}\`): ${mdText(pr.outcome_detail ?? "the App closed this envelope PR")}.`,
    );
    return `envelope PR #${head.number} closed again: ${pr.outcome_code}`;
  }
  if (pr.state !== "opened") return `envelope PR #${head.number} is ${pr.state}`;
  if (!["synchronize", "edited", "closed", "reopened"].includes(action)) return `envelope PR #${head.number}: ${action}`;
  if (!(await ctx.store.envelopePrs.claimEnvelopePr(pr.id, ctx.settings.replicaId, ctx.clock.now(), ctx.settings.leaseMs)))
    busy(pr.repository);
  const gh = await ctx.installation(installationId ?? pr.installation_id);
  const claimed = (await ctx.store.envelopePrs.getEnvelopePr(pr.id)) as EnvelopePr;
  let still: EnvelopePr | null;
  try {
    still = await reconcile(ctx, gh, claimed, claimed.mode, claimed.base_ref);
  } catch (err) {
    await release(ctx, claimed).catch(() => undefined);
    throw err;
  }
  if (still === null) {
    const after = (await ctx.store.envelopePrs.getEnvelopePr(pr.id)) as EnvelopePr;
    return `envelope PR #${head.number} ${after.state}${after.outcome_code ? `: ${after.outcome_code}` : ""}`;
  }
  await ctx.store.envelopePrs.updateEnvelopePr(
    pr.id,
    ctx.settings.replicaId,
    ["opened"],
    "opened",
    { claim_owner: null, claim_until: null },
    ctx.clock.now(),
  );
  return `envelope PR #${head.number}: the App's own commit`;
}
