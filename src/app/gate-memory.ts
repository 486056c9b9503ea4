import { hasUngateCommand, labelGateReason, ungateOf, ungateRefusal, type GateFacts } from "../core/gate-memory.js";
import { pullRequestHead, type PullRequestPayload } from "../core/payloads.js";
import type { InstallationClient } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import type { AppContext } from "./context.js";
import type { VerifiedRunA } from "./run-verify.js";
import type { EvidenceFacts } from "./verified-check.js";

/**
 * The App's memory of gated pull requests (core/gate-memory.ts decides; docs/app.md, "Gated pull
 * requests"). A pull request is recorded gated when a `pull_request` event shows the agent label
 * on it (added, removed, or carried), and when a verified run of it left evidence (the Action
 * gated it). Ungating is read from GitHub's reviews list when a run's verdict is decided, and again
 * when an event of the pull request may change a verdict the memory decides (verified-check.ts
 * onGateChange); the review event records it early with the reviewer's name.
 */

/** `pull_request` (any action): records the pull request gated when the event shows the agent label. */
export async function rememberLabel(ctx: AppContext, p: PullRequestPayload): Promise<string | null> {
  const head = pullRequestHead(p);
  if (head === null) return null;
  const reason = labelGateReason(
    { action: p.action, label: p.label ?? null, labels: p.pull_request?.labels ?? [], sender: p.sender?.login ?? null },
    ctx.settings.agentLabel,
  );
  if (reason === null) return null;
  if (!(await ctx.store.gated.markGated(head.repository, head.number, reason, ctx.clock.now()))) return null;
  ctx.log("info", "pull.gated", { repository: head.repository, pull: head.number, reason });
  return `pull request #${head.number} gated: ${reason}`;
}

/**
 * `pull_request_review`: a review whose body has the ungate command, read again from GitHub, by
 * an envelope reviewer on the pull request's current head, records the ungate; a dismissed one
 * withdraws it. Null when the review is no ungate command.
 */
export async function onUngateReview(ctx: AppContext, p: PullRequestPayload): Promise<string | null> {
  const head = pullRequestHead(p);
  const reviewId = p.review?.id;
  if (head === null || typeof reviewId !== "number") return null;
  if (p.action === "dismissed") {
    const cleared = await ctx.store.gated.clearUngate(head.repository, head.number, reviewId);
    if (cleared) ctx.log("warn", "pull.ungate_withdrawn", { repository: head.repository, pull: head.number, review: reviewId });
    return cleared ? `review ${reviewId} dismissed: pull request #${head.number} is gated again` : null;
  }
  if (p.action !== "submitted" || !hasUngateCommand(p.review?.body)) return null;
  if ((await ctx.store.gated.get(head.repository, head.number)) === null) return `ungate: pull request #${head.number} is not gated`;
  const installationId = p.installation?.id;
  if (installationId === undefined) return null;
  const gh = await ctx.installation(installationId);
  const r = repoRef(head.repository);
  const [pull, reviews] = await Promise.all([gh.readPull(r, head.number), gh.listReviews(r, head.number)]);
  const review = reviews.find((x) => x.id === reviewId);
  const reason =
    pull === null || review === undefined
      ? `GitHub does not list review ${reviewId} of pull request #${head.number}`
      : ungateRefusal(review, { reviewers: ctx.settings.reviewers, author: pull.user?.login ?? null, headSha: pull.head.sha });
  if (reason !== null || review === undefined || pull === null) {
    ctx.log("warn", "pull.ungate_refused", {
      repository: head.repository,
      pull: head.number,
      review: reviewId,
      code: "UNGATE_REFUSED",
      reason,
    });
    return `refused: UNGATE_REFUSED: ${reason}`;
  }
  await ctx.store.gated.recordUngate(head.repository, head.number, {
    by: review.login,
    review_id: review.id,
    head_sha: pull.head.sha,
    at: ctx.clock.now(),
  });
  ctx.log("info", "pull.ungated", {
    repository: head.repository,
    pull: head.number,
    by: review.login,
    review: review.id,
    head: pull.head.sha,
  });
  return `pull request #${head.number} ungated by @${review.login} at ${pull.head.sha.slice(0, 12)}`;
}

/**
 * For a verified run's check: a run that left evidence records its pull request gated (null);
 * a successful run without evidence gets gateOf its pull request and head.
 */
export async function gateFacts(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  a: VerifiedRunA,
  evidence: EvidenceFacts,
): Promise<GateFacts | null> {
  if (evidence.kind !== "missing") {
    if (evidence.kind === "bundle" && evidence.bundle.runner.mode === "audit") return null;
    if (await ctx.store.gated.markGated(repository, a.pullNumber, `run ${a.run.id} was gated`, ctx.clock.now())) {
      ctx.log("info", "pull.gated", { repository, pull: a.pullNumber, run: a.run.id });
    }
    return null;
  }
  if (a.run.conclusion !== "success") return null;
  return gateOf(ctx, gh, repository, { number: a.pullNumber, author: a.pull.user?.login ?? null, headSha: a.headSha });
}

/**
 * A pull request the App holds gated, with the ungate GitHub's reviews show for `headSha` now
 * (recorded when found) and the refused commands; null when it was never gated.
 */
export async function gateOf(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  pull: { number: number; author: string | null; headSha: string },
): Promise<GateFacts | null> {
  const memory = await ctx.store.gated.get(repository, pull.number);
  if (memory === null) return null;
  const reviews = await gh.listReviews(repoRef(repository), pull.number);
  const { review, refused } = ungateOf(reviews, { reviewers: ctx.settings.reviewers, author: pull.author, headSha: pull.headSha });
  if (review !== null) {
    await ctx.store.gated.recordUngate(repository, pull.number, {
      by: review.login,
      review_id: review.id,
      head_sha: pull.headSha,
      at: ctx.clock.now(),
    });
  }
  return {
    reason: memory.reason,
    ungate: review === null ? null : { by: review.login, reviewId: review.id },
    refused: refused.map((x) => `review ${x.review.id} by @${x.review.login}: ${x.reason}`),
  };
}
