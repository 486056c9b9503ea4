import type { ErrorCode } from "../core/errors.js";
import { type InstallationClient, type PullInfo } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import type { DualRun, LedgerPr } from "../store/index.js";
import type { PropertyComparison } from "../core/compare.js";
import { fail, type AppContext } from "./context.js";
import { expiresOn, freezeProposalInput, freezeTitle, ledgerLockKey, ledgerWithRow } from "../core/freeze.js";
import { buildFreezeProposal } from "./freeze.js";

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
    await store.transitionLedgerPr(key, ["claimed"], "shadowed", { claim_owner: null, claim_until: null }, { claim_owner: owner });
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
    await store.transitionLedgerPr(key, ["claimed"], "claimed", { claim_until: 0 }, { claim_owner: owner });
    throw err;
  }
  return (await store.getLedgerPr(key)) as LedgerPr;
}

/**
 * Opens the claimed ledger PR, trusting nothing on GitHub it cannot prove it made. The commit is
 * recorded in the store before the branch is created or moved, so a branch at the recorded commit
 * is the App's own earlier attempt (a crash, a lost answer) and is adopted; a branch at any other
 * commit is LEDGER_BRANCH_FOREIGN and is never moved. An open PR on the branch is adopted only when
 * the App's bot opened it, from this repository, at the App's commit, onto the expected base;
 * otherwise LEDGER_PR_FOREIGN. A refusal closes the claim for good (the property keeps failing).
 */
async function openLedgerPr(ctx: AppContext, gh: InstallationClient, pr: LedgerPr): Promise<void> {
  const { settings } = ctx;
  const r = repoRef(pr.repository);
  const baseSha = await gh.branchSha(r, pr.base_ref);
  if (!baseSha) fail("GITHUB_UNAVAILABLE", `the base branch ${pr.base_ref} of ${pr.repository} does not exist`);
  const tip = await gh.branchSha(r, pr.branch);
  let commit: string;
  if (tip === null) {
    const made = await recordCommit(ctx, gh, pr, baseSha);
    if (made === null) return;
    commit = made;
    if ((await gh.createBranch(r, pr.branch, commit)) === "exists") {
      const now = await gh.branchSha(r, pr.branch);
      if (now !== commit) {
        return refuse(
          ctx,
          pr,
          "LEDGER_BRANCH_FOREIGN",
          `branch ${pr.branch} appeared at ${now ?? "?"} before the App could create it; it was not moved`,
        );
      }
    }
  } else if (pr.ledger_commit !== null && tip === pr.ledger_commit) {
    // The App's own earlier attempt. On a base that moved since, its own branch is rebuilt.
    commit = tip;
    if (pr.base_sha !== baseSha) {
      const made = await recordCommit(ctx, gh, pr, baseSha);
      if (made === null) return;
      commit = made;
      await gh.moveBranch(r, pr.branch, commit);
    }
  } else {
    return refuse(
      ctx,
      pr,
      "LEDGER_BRANCH_FOREIGN",
      `branch ${pr.branch} exists at ${tip}, not at a commit the App made${pr.ledger_commit ? ` (${pr.ledger_commit})` : ""}; it was not moved`,
    );
  }
  let pull = await gh.openPull(r, { title: pr.title, head: pr.branch, base: pr.base_ref, body: pr.body });
  if (pull === "exists") {
    const bot = await gh.botLogin();
    const open = await gh.listOpenPulls(r, pr.branch);
    const own = open.find((p) => ownPull(p, pr, bot, commit));
    if (!own) {
      // The branch is provably the App's: deleting it closes the foreign PR, so no reviewer merges through it.
      if ((await gh.branchSha(r, pr.branch)) === commit) await gh.deleteBranch(r, pr.branch);
      const seen = open.map(
        (p) => `#${p.number} by ${p.author} from ${p.head_repository ?? "?"} at ${p.head_sha.slice(0, 12)} onto ${p.base_ref}`,
      );
      return refuse(
        ctx,
        pr,
        "LEDGER_PR_FOREIGN",
        `a pull request the App did not open is open on ${pr.branch} (${seen.join("; ") || "none listed"}); not adopted, no review requested, the App's branch deleted`,
      );
    }
    pull = own;
  }
  await gh.requestReviewers(r, pull.number, settings.reviewers, settings.teamReviewers);
  await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["claimed"],
    "opened",
    {
      claim_owner: null,
      claim_until: null,
      pr_number: pull.number,
      pr_url: pull.html_url,
      base_sha: baseSha,
      opened_at: ctx.clock.now(),
      ledger_commit: commit,
      head_repository: pull.head_repository ?? pr.repository,
    },
    { claim_owner: settings.replicaId },
  );
  ctx.log("info", "ledger_pr.opened", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pull.number, branch: pr.branch });
}

/** Whether an open PR is the one the App opened for `pr`: its bot's, from this repository, at its commit, onto its base. */
function ownPull(p: PullInfo, pr: LedgerPr, bot: string, commit: string): boolean {
  return (
    p.author === bot &&
    p.head_repository !== null &&
    p.head_repository.toLowerCase() === pr.repository.toLowerCase() &&
    p.head_ref === pr.branch &&
    p.head_sha === commit &&
    p.base_ref === pr.base_ref
  );
}

/** Makes the ledger commit on `baseSha` and records it (with the base) before any ref points at it; null when the claim was lost. */
async function recordCommit(ctx: AppContext, gh: InstallationClient, pr: LedgerPr, baseSha: string): Promise<string | null> {
  const commit = await ledgerCommit(gh, pr, baseSha);
  const kept = await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["claimed"],
    "claimed",
    { ledger_commit: commit, base_sha: baseSha },
    { claim_owner: ctx.settings.replicaId },
  );
  if (!kept) {
    ctx.log("warn", "ledger_pr.claim_lost", { freeze_id: pr.freeze_id, repository: pr.repository });
    return null;
  }
  return commit;
}

/** Closes the claim with a refusal: nothing moved, nothing adopted, the status page and the log say why. */
async function refuse(ctx: AppContext, pr: LedgerPr, code: ErrorCode, detail: string): Promise<void> {
  await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["claimed"],
    "closed",
    { claim_owner: null, claim_until: null, outcome_code: code, outcome_detail: detail, closed_at: ctx.clock.now() },
    { claim_owner: ctx.settings.replicaId },
  );
  ctx.log("error", "ledger_pr.refused", { code, freeze_id: pr.freeze_id, repository: pr.repository, branch: pr.branch, detail });
}

/** A commit on `baseSha` whose ledger is the base ledger plus this PR's one row. */
async function ledgerCommit(gh: InstallationClient, pr: LedgerPr, baseSha: string): Promise<string> {
  const r = repoRef(pr.repository);
  const base = (await gh.fileAt(r, pr.ledger_path, baseSha)) ?? "";
  return gh.commitFile(r, baseSha, pr.ledger_path, ledgerWithRow(base, pr), freezeTitle(pr.property, pr.expires_on, pr.freeze_id));
}

/**
 * Rebuilds an open ledger PR on a new base head: a new commit of the base ledger plus its one
 * row, recorded before the PR's branch is force-moved to it (so its own `synchronize` is
 * recognized). A branch that is no longer at the App's commit is not moved: the PR is closed as
 * tampered instead.
 */
export async function rebaseLedgerPr(
  ctx: AppContext,
  gh: InstallationClient,
  pr: LedgerPr,
  baseSha: string,
): Promise<"rebased" | "tampered"> {
  const r = repoRef(pr.repository);
  const tip = await gh.branchSha(r, pr.branch);
  if (pr.ledger_commit === null || tip !== pr.ledger_commit) {
    await closeTampered(ctx, gh, pr, tip);
    return "tampered";
  }
  const commit = await ledgerCommit(gh, pr, baseSha);
  const kept = await ctx.store.transitionLedgerPr(
    pr.lock_key,
    ["opened"],
    "opened",
    { base_sha: baseSha, ledger_commit: commit },
    { ledger_commit: pr.ledger_commit },
  );
  if (!kept) return "rebased"; // another delivery rebuilt it first
  await gh.moveBranch(r, pr.branch, commit);
  ctx.log("info", "ledger_pr.rebased", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: baseSha });
  return "rebased";
}

/**
 * A ledger PR whose head is not the commit the App made (someone pushed to its branch, or the
 * branch is gone): recorded closed with LEDGER_PR_TAMPERED first, then closed on GitHub with a
 * comment, so no reviewer merges a row the App did not write. Closing again is harmless.
 */
export async function closeTampered(ctx: AppContext, gh: InstallationClient, pr: LedgerPr, head: string | null): Promise<void> {
  const detail = `the head of ${pr.branch} is ${head ?? "gone"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`;
  const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "closed", {
    outcome_code: "LEDGER_PR_TAMPERED",
    outcome_detail: detail,
    closed_at: ctx.clock.now(),
  });
  ctx.log("error", "ledger_pr.tampered", { freeze_id: pr.freeze_id, repository: pr.repository, pull: pr.pr_number, detail });
  await closeWithComment(
    gh,
    pr,
    marked || pr.outcome_code === "LEDGER_PR_TAMPERED",
    `Closed by envelope-gate (\`LEDGER_PR_TAMPERED\`): this branch no longer holds the one-row commit the App made (\`${pr.ledger_commit ?? "?"}\`); its head is \`${head ?? "gone"}\`. A row the App did not write is never proposed for review. The property keeps failing; a new dual run proposes a new ledger PR.`,
  );
}

/** Closes the PR on GitHub, commenting why, when this ledger PR is recorded as closed by the App. */
export async function closeWithComment(gh: InstallationClient, pr: LedgerPr, closedByApp: boolean, comment: string): Promise<void> {
  if (!closedByApp || pr.pr_number === null) return;
  const r = repoRef(pr.repository);
  await gh.closePull(r, pr.pr_number);
  await gh.comment(r, pr.pr_number, comment);
}
