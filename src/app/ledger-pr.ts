import { repoRef, type InstallationClient } from "../github/app-client.js";
import type { DualRun, LedgerPr } from "../store/index.js";
import type { PropertyComparison } from "./compare.js";
import { fail, type AppContext } from "./context.js";
import { buildFreezeProposal, expiresOn, freezeProposalInput, freezeTitle, ledgerLockKey, ledgerWithRow } from "./freeze.js";

/** Writing ledger PRs on GitHub: claim, open (or record in shadow mode), and rebuild on a new base. */

/**
 * One ledger PR per (property, envelope hash, head sha): the store's unique key decides
 * which caller sends; the branch ref is the lock on GitHub's side. In shadow mode the
 * proposal is recorded (and shown in the dual-run check) instead of opened.
 */
export async function proposeFreeze(
  ctx: AppContext,
  gh: InstallationClient,
  dual: DualRun,
  property: string,
  comparison: PropertyComparison,
): Promise<LedgerPr> {
  const { store, settings } = ctx;
  const owner = settings.replicaId;
  const now = ctx.clock.now();
  const proposal = buildFreezeProposal(
    freezeProposalInput(dual, property, comparison, {
      expiresOn: expiresOn(now, settings.freezeTtlDays, settings.freezeTtlCapDays),
      reviewers: settings.reviewers,
      teamReviewers: settings.teamReviewers,
    }),
  );
  const mode = (await store.installationMode(dual.installation_id)) ?? "shadow";
  const key = ledgerLockKey(dual.repository, property, dual.envelope_hash, dual.head_sha);
  const mine = await store.claimLedgerPr(
    {
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
      ledger_path: settings.ledgerPath,
      row_text: proposal.rowText,
      title: proposal.title,
      body: proposal.body,
      expires_on: proposal.row.expires_on,
      mode,
      created_at: now,
    },
    owner,
    now,
    settings.leaseMs,
  );
  const current = (await store.getLedgerPr(key)) as LedgerPr;
  if (!mine) return current;
  if (current.mode === "shadow") {
    await store.transitionLedgerPr(
      key,
      ["claimed"],
      "shadowed",
      { claim_owner: null, claim_until: null },
      { sql: "claim_owner = ?", params: [owner] },
    );
    ctx.log("info", "ledger_pr.shadowed", {
      freeze_id: current.freeze_id,
      repository: current.repository,
      property,
      branch: current.branch,
    });
    return (await store.getLedgerPr(key)) as LedgerPr;
  }
  try {
    await openLedgerPr(ctx, gh, current);
  } catch (err) {
    // Let the next attempt (any replica) take the claim at once rather than after the lease.
    await store.transitionLedgerPr(key, ["claimed"], "claimed", { claim_until: 0 }, { sql: "claim_owner = ?", params: [owner] });
    throw err;
  }
  return (await store.getLedgerPr(key)) as LedgerPr;
}

async function openLedgerPr(ctx: AppContext, gh: InstallationClient, pr: LedgerPr): Promise<void> {
  const { settings } = ctx;
  const r = repoRef(pr.repository);
  const baseSha = await gh.branchSha(r, pr.base_ref);
  if (!baseSha) fail("GITHUB_UNAVAILABLE", `the base branch ${pr.base_ref} of ${pr.repository} does not exist`);
  const commit = await ledgerCommit(gh, pr, baseSha);
  const created = await gh.createBranch(r, pr.branch, commit);
  if (created === "exists") {
    // Our own earlier attempt (the store lock admits one sender): bring it to this commit.
    await gh.moveBranch(r, pr.branch, commit);
  }
  const pull = await gh.openPull(r, { title: pr.title, head: pr.branch, base: pr.base_ref, body: pr.body });
  await gh.requestReviewers(r, pull.number, settings.reviewers, settings.teamReviewers);
  await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["claimed"],
    "opened",
    { claim_owner: null, claim_until: null, pr_number: pull.number, pr_url: pull.html_url, base_sha: baseSha, opened_at: ctx.clock.now() },
    { sql: "claim_owner = ?", params: [settings.replicaId] },
  );
  ctx.log("info", "ledger_pr.opened", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pull.number, branch: pr.branch });
}

/** A commit on `baseSha` whose ledger is the base ledger plus this PR's one row. */
async function ledgerCommit(gh: InstallationClient, pr: LedgerPr, baseSha: string): Promise<string> {
  const r = repoRef(pr.repository);
  const base = (await gh.fileAt(r, pr.ledger_path, baseSha)) ?? "";
  return gh.commitFile(r, baseSha, pr.ledger_path, ledgerWithRow(base, pr), freezeTitle(pr.property, pr.expires_on, pr.freeze_id));
}

/**
 * Rebuilds an open ledger PR on a new base head: a new commit of the base ledger plus its one
 * row, the PR's branch force-moved to it.
 */
export async function rebaseLedgerPr(ctx: AppContext, gh: InstallationClient, pr: LedgerPr, baseSha: string): Promise<void> {
  const commit = await ledgerCommit(gh, pr, baseSha);
  await gh.moveBranch(repoRef(pr.repository), pr.branch, commit);
  await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "opened", { base_sha: baseSha });
  ctx.log("info", "ledger_pr.rebased", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: baseSha });
}
