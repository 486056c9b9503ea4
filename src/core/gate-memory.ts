import type { ErrorCode } from "./errors.js";
import { mdCode, mdText } from "./markdown.js";
import type { VerifiedCheckContent } from "./verified-head.js";

/**
 * A pull request stays gated (docs/app.md, "Gated pull requests"). The Action decides whether
 * it gates a pull request from its author and labels at each run, and a run it does not gate
 * leaves no evidence: removing the agent label would turn a failing verified check into a
 * passing neutral one. The App remembers every pull request that carried the label or whose
 * verified run was gated, and a run of it without evidence fails until an envelope reviewer
 * ungates its head commit with a review whose body has the line `/envelope-gate ungate`.
 */

export const UNGATE_COMMAND = "/envelope-gate ungate";

/** A review as GitHub's reviews list answers it. */
export interface ReviewFacts {
  id: number;
  login: string;
  state: string;
  commitId: string | null;
  body: string | null;
}

/** Whether a review body carries the command on a line of its own (case and surrounding blanks aside). */
export function hasUngateCommand(body: string | null | undefined): boolean {
  return (body ?? "").split(/\r?\n/).some((line) => line.trim().toLowerCase() === UNGATE_COMMAND);
}

/** Why a review with the command does not ungate, or null when it does. */
export function ungateRefusal(
  review: ReviewFacts,
  who: { reviewers: readonly string[]; author: string | null; headSha: string },
): string | null {
  const login = review.login.toLowerCase();
  if (!who.reviewers.some((r) => r.toLowerCase() === login)) {
    return `@${review.login} is not an envelope reviewer (ENVELOPE_GATE_REVIEWERS: ${who.reviewers.join(", ") || "none"})`;
  }
  if (who.author !== null && who.author.toLowerCase() === login) return `@${review.login} wrote the pull request`;
  if (review.state !== "APPROVED" && review.state !== "COMMENTED") return `the review is ${review.state.toLowerCase()}`;
  if (review.commitId !== who.headSha) {
    return `the review is of ${String(review.commitId ?? "no commit").slice(0, 12)}, the head is ${who.headSha.slice(0, 12)}`;
  }
  return null;
}

/** The latest review that ungates the head, or null; each refused command with why. */
export function ungateOf(
  reviews: readonly ReviewFacts[],
  who: { reviewers: readonly string[]; author: string | null; headSha: string },
): { review: ReviewFacts | null; refused: { review: ReviewFacts; reason: string }[] } {
  const refused: { review: ReviewFacts; reason: string }[] = [];
  let found: ReviewFacts | null = null;
  for (const review of reviews) {
    if (!hasUngateCommand(review.body)) continue;
    const reason = ungateRefusal(review, who);
    if (reason !== null) refused.push({ review, reason });
    else if (found === null || review.id > found.id) found = review;
  }
  return { review: found, refused };
}

/** Why a `pull_request` event shows the pull request gated by the label, or null. */
export function labelGateReason(
  event: { action?: string; label?: { name?: string } | null; labels?: readonly { name?: string }[]; sender?: string | null },
  agentLabel: string,
): string | null {
  if (agentLabel === "") return null;
  const is = (name: string | undefined) => typeof name === "string" && name.toLowerCase() === agentLabel.toLowerCase();
  const by = event.sender ? ` by @${event.sender}` : "";
  if (event.action === "unlabeled" && is(event.label?.name)) return `the label "${agentLabel}" was removed${by}`;
  if (event.action === "labeled" && is(event.label?.name)) return `the label "${agentLabel}" was added${by}`;
  if ((event.labels ?? []).some((l) => is(l.name))) return `the pull request carried the label "${agentLabel}"`;
  return null;
}

export interface GateFacts {
  /** Why the App holds the pull request gated. */
  reason: string;
  /** The envelope reviewer who ungated the head commit, and their review. */
  ungate: { by: string; reviewId: number } | null;
  /** Commands that did not ungate, with why (shown in the check). */
  refused: string[];
}

/**
 * The verdict of a successful verified run that left no evidence: `neutral` (not gated) for a pull
 * request the App never held gated, else as gatedRunCheck says. The one verdict the gate memory and
 * the reviews decide, so it is made again when either changes (dependsOnGate).
 */
export function noEvidenceCheck(gate: GateFacts | null, runLine: string): VerifiedCheckContent {
  if (gate !== null) return gatedRunCheck(gate, runLine);
  return {
    conclusion: "neutral",
    code: null,
    title: "Not gated: the run left no evidence",
    summary: `The base's gate workflow ran and concluded success without an evidence bundle: the pinned Action judged nothing (a pull request it does not gate).\n\n${mdText(runLine)}`,
  };
}

/**
 * Whether a recorded verdict is noEvidenceCheck's: nothing else makes a `neutral` verdict or
 * VERIFIED_CHECK_STILL_GATED (a run with evidence, or refused, is judged on that alone).
 */
export function dependsOnGate(v: { conclusion: string; code: string | null }): boolean {
  return v.conclusion === "neutral" || v.code === "VERIFIED_CHECK_STILL_GATED";
}

/** The verified check of a successful run without evidence on a pull request the App holds gated. */
export function gatedRunCheck(
  gate: GateFacts,
  runLine: string,
): { conclusion: "neutral" | "failure"; code: ErrorCode | null; title: string; summary: string } {
  const refused = gate.refused.length > 0 ? `\n\nNot an ungate: ${gate.refused.map((r) => mdText(r)).join("; ")}.` : "";
  if (gate.ungate !== null) {
    return {
      conclusion: "neutral",
      code: null,
      title: `Not gated: ungated by ${gate.ungate.by}`,
      summary: `${mdText(`This pull request was gated (${gate.reason}). The envelope reviewer @${gate.ungate.by} ungated this commit (review ${gate.ungate.reviewId}); the run left no evidence.`)}\n\n${mdText(runLine)}`,
    };
  }
  return {
    conclusion: "failure",
    code: "VERIFIED_CHECK_STILL_GATED",
    title: "Not verified: the pull request is still gated",
    summary: `${mdCode("VERIFIED_CHECK_STILL_GATED")}: ${mdText(`this pull request was gated (${gate.reason}), and this run left no evidence. A pull request stays gated when its label is removed: an envelope reviewer ungates its head commit with a review whose body has the line ${UNGATE_COMMAND}.`)}${refused}\n\n${mdText(runLine)}`,
  };
}
