import { parseDigestFile } from "../core/envelope.js";
import { isRefusal, Refusal, type ErrorCode } from "../core/errors.js";
import { mdCode, mdText, plainText } from "../core/markdown.js";
import { type ApiWorkflowRun, type InstallationClient } from "../github/app-client.js";
import { repoRef } from "../github/repo.js";
import { readEvidenceZip, type VerifiedBundle } from "../core/evidence.js";
import type { AppContext } from "./context.js";
import type { RunRefusal } from "../core/run-checks.js";
import type { RunAVerdict, VerifiedRunA } from "./run-verify.js";

/**
 * The App's verified check (`<check name> / verified`, ENVELOPE_GATE_VERIFIED_CHECK_NAME) on
 * the head commit of every completed `pull_request` run of the gate workflow. On a
 * pull_request event the pull request's own workflow file runs, and its job token can post a
 * green `envelope-gate` check; this one only the App can post (a branch ruleset requires it
 * with the App as its source). It is `success` only when the run verified as runner A does
 * (run-checks.ts: the base's workflow file and local Action, the current head, this
 * repository) and its evidence bundle verifies, is for the run's commit and repository, is
 * under the envelope the base's digest file pins, and passes.
 */

interface VerifiedCheckContent {
  conclusion: "success" | "failure" | "neutral";
  code: ErrorCode | null;
  title: string;
  summary: string;
}

/** What the run's evidence turned out to be. */
export type EvidenceFacts =
  { kind: "bundle"; bundle: VerifiedBundle } | { kind: "missing" } | { kind: "unreadable"; code: ErrorCode; message: string };

/** What the base pins: the envelope hash (`sha256:<hex>`) of its digest file, or why there is none. */
type PinnedFacts = { kind: "hash"; hash: string } | { kind: "none"; code: ErrorCode; message: string };

const runLine = (a: VerifiedRunA, workflowPath: string) =>
  `Run ${a.run.id} (attempt ${a.run.run_attempt ?? 1}) of ${workflowPath}, on ${a.headSha} for pull request #${a.pullNumber} into ${a.baseRef} (${a.baseSha}).`;

/** A refused run: a failing check naming the refusal. */
function refusedCheck(refusal: RunRefusal): VerifiedCheckContent {
  return {
    conclusion: "failure",
    code: refusal.code,
    title: "Not verified: this run is not the base's gate",
    summary: `${mdCode(refusal.code)}: ${mdText(refusal.reason)}\n\nThe App verifies only a pull_request run of the base branch's gate workflow file (and its local Action) on the pull request's current head. Nothing this run reported counts.`,
  };
}

/** Pure: a verified run's check from its evidence and the base's pinned envelope hash. */
export function verifiedRunCheck(
  a: VerifiedRunA,
  workflowPath: string,
  evidence: EvidenceFacts,
  pinned: PinnedFacts,
): VerifiedCheckContent {
  const fail = (code: ErrorCode | null, title: string, detail: string): VerifiedCheckContent => ({
    conclusion: "failure",
    code,
    // The detail and the run line quote the bundle and the run (runner A's job made the bundle).
    title: plainText(title, 255),
    summary: `${code === null ? "" : `${mdCode(code)}: `}${mdText(detail)}\n\n${mdText(runLine(a, workflowPath))}`,
  });
  if (evidence.kind === "missing") {
    if (a.run.conclusion === "success") {
      return {
        conclusion: "neutral",
        code: null,
        title: "Not gated: the run left no evidence",
        summary: `The base's gate workflow ran and concluded success without an evidence bundle: the pinned Action judged nothing (a pull request it does not gate).\n\n${mdText(runLine(a, workflowPath))}`,
      };
    }
    return fail(
      "EVIDENCE_UNAVAILABLE",
      "Not verified: no evidence",
      `the run concluded ${a.run.conclusion ?? "nothing"} and has no evidence bundle`,
    );
  }
  if (evidence.kind === "unreadable") return fail(evidence.code, "Not verified: the evidence does not verify", evidence.message);
  const b = evidence.bundle;
  // An audit run (mode: audit) records and suggests; it never scored properties and its verdict
  // is "what enforce would say", so it never verifies a pull request.
  if (b.runner.mode === "audit") {
    return fail(
      "VERIFIED_CHECK_AUDIT_EVIDENCE",
      "Not verified: an audit run",
      "the evidence is an audit run's (runner.json mode audit): audit mode gates nothing; the base's workflow must run mode enforce",
    );
  }
  if (b.runner.head_sha !== a.headSha) {
    return fail(
      "VERIFIED_CHECK_EVIDENCE_REFUSED",
      "Not verified: evidence for another commit",
      `the evidence is for ${b.runner.head_sha ?? "no commit"}, the run checked ${a.headSha}`,
    );
  }
  if (String(b.runner.repository ?? "").toLowerCase() !== String(a.run.repository.full_name).toLowerCase()) {
    return fail(
      "VERIFIED_CHECK_EVIDENCE_REFUSED",
      "Not verified: evidence from another repository",
      `the evidence names ${b.runner.repository ?? "no repository"}`,
    );
  }
  if (pinned.kind === "none") return fail(pinned.code, "Not verified: the base pins no envelope", pinned.message);
  const hash = b.runner.envelope_hash ?? b.verdict.envelope_hash;
  if (hash !== pinned.hash || b.verdict.envelope_hash !== pinned.hash) {
    return fail(
      "VERIFIED_CHECK_EVIDENCE_REFUSED",
      "Not verified: another envelope",
      `the evidence was judged under ${hash ?? "no envelope"}, the base's digest file pins ${pinned.hash}`,
    );
  }
  if (b.verdict.verdict !== "pass")
    return fail(null, `The gate failed: envelope ${b.verdict.verdict}`, `the envelope verdict is ${b.verdict.verdict}`);
  const failing = b.properties.filter((p) => p.result !== "pass" && !(p.result === "fail" && p.frozen_by));
  if (failing.length > 0) {
    return fail(null, "The gate failed: properties", `failing properties: ${failing.map((p) => `${p.name} (${p.result})`).join(", ")}`);
  }
  if (a.run.conclusion !== "success") return fail(null, "The gate failed", `the run concluded ${a.run.conclusion ?? "nothing"}`);
  const frozen = b.properties.filter((p) => p.frozen_by);
  return {
    conclusion: "success",
    code: null,
    title: "Verified: the base's gate passed on this commit",
    summary: [
      `Envelope ${pinned.hash}: pass.${frozen.length > 0 ? ` Tolerated by freezes: ${frozen.map((p) => `${p.name} (${p.frozen_by})`).join(", ")}.` : ""}`,
      `Evidence ${b.digest}.`,
      runLine(a, workflowPath),
      "Checked through GitHub's API: the workflow file (and any local Action) is the base's, the head is the pull request's current head, the run is this repository's.",
    ]
      .map((paragraph) => mdText(paragraph))
      .join("\n\n"),
  };
}

/** Reads the run's evidence for the check: a verified bundle, none, or why it does not verify. */
function evidenceFacts(zip: Uint8Array | null): EvidenceFacts {
  if (zip === null) return { kind: "missing" };
  try {
    return { kind: "bundle", bundle: readEvidenceZip(zip) };
  } catch (err) {
    if (isRefusal(err)) return { kind: "unreadable", code: err.code, message: err.message };
    throw err;
  }
}

async function pinnedFacts(ctx: AppContext, gh: InstallationClient, repository: string, baseSha: string): Promise<PinnedFacts> {
  const path = ctx.settings.envelopeDigestPath;
  const missing = `the base (${baseSha.slice(0, 12)}) has no readable ${path}`;
  let text: string | null;
  try {
    text = await gh.textAt(repoRef(repository), path, baseSha, `read ${path} at the base`, () => new Refusal("ENVELOPE_MISSING", missing));
  } catch (err) {
    // What the base holds is an answer; GitHub not answering is not, and is thrown on.
    if (isRefusal(err) && (err.code === "ENVELOPE_MISSING" || err.code === "POLICY_FILE_TOO_LARGE")) {
      return { kind: "none", code: err.code, message: err.message };
    }
    throw err;
  }
  if (text === null) return { kind: "none", code: "ENVELOPE_MISSING", message: missing };
  try {
    return { kind: "hash", hash: `sha256:${parseDigestFile(text, path)}` };
  } catch (err) {
    if (isRefusal(err)) return { kind: "none", code: err.code, message: err.message };
    throw err;
  }
}

/**
 * Posts the verified check for a completed pull_request run, once per run attempt (the store's
 * claim, then GitHub's external_id `<run id>:<attempt>` for a post whose record was lost). A run
 * whose head is no longer the pull request's (or of a closed pull request) gets none: the
 * current head's own run decides.
 */
export async function postVerifiedCheck(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  run: ApiWorkflowRun,
  verdict: RunAVerdict,
  zip: () => Promise<Uint8Array | null>,
  workflowPath: string,
): Promise<string> {
  if (run.event !== "pull_request") return "";
  if (!verdict.verified && verdict.refusal.code === "RUNNER_A_NOT_CURRENT_HEAD")
    return "no verified check (not the pull request's current head)";
  const owner = ctx.settings.replicaId;
  const key = { repository, run_id: run.id, run_attempt: run.run_attempt ?? 1 };
  const claimed = await ctx.store.runs.claimVerifiedCheck({ ...key, head_sha: run.head_sha }, owner, ctx.clock.now(), ctx.settings.leaseMs);
  if (!claimed) {
    const row = await ctx.store.runs.getVerifiedCheck(repository, key.run_id, key.run_attempt);
    return row?.state === "posted" ? `verified check already posted (${row.conclusion ?? "?"})` : "verified check being posted elsewhere";
  }
  try {
    const content = verdict.verified
      ? verifiedRunCheck(verdict.a, workflowPath, evidenceFacts(await zip()), await pinnedFacts(ctx, gh, repository, verdict.a.baseSha))
      : refusedCheck(verdict.refusal);
    const r = repoRef(repository);
    const name = ctx.settings.verifiedCheckName;
    const externalId = `${key.run_id}:${key.run_attempt}`;
    const id =
      (await gh.findCheckRun(r, run.head_sha, name, externalId)) ??
      (await gh.createCheckRun(r, {
        name,
        head_sha: run.head_sha,
        conclusion: content.conclusion,
        title: content.title,
        summary: content.summary,
        external_id: externalId,
        ...(run.html_url ? { details_url: run.html_url } : {}),
      }));
    await ctx.store.runs.finishVerifiedCheck(key, owner, {
      state: "posted",
      conclusion: content.conclusion,
      code: content.code,
      check_run_id: id,
      at: ctx.clock.now(),
    });
    ctx.log(content.conclusion === "success" ? "info" : "warn", "verified_check.posted", {
      repository,
      run: run.id,
      conclusion: content.conclusion,
      code: content.code,
    });
    return `verified check ${content.conclusion}${content.code ? ` (${content.code})` : ""}`;
  } catch (err) {
    await ctx.store.runs.releaseVerifiedCheck(key, owner).catch(() => undefined);
    throw err;
  }
}
