import { parseDigestFile } from "../core/envelope.js";
import { isRefusal, Refusal, type ErrorCode } from "../core/errors.js";
import { mdCode, mdText, plainText } from "../core/markdown.js";
import { pullRequestHead, type PullRequestPayload } from "../core/payloads.js";
import { headCheck, runLine, type ForeignCheck, type OpenPull, type VerifiedCheckContent } from "../core/verified-head.js";
import { type ApiPull, type ApiWorkflowRun, type InstallationClient, type RunEvidence } from "../github/app-client.js";
import { CHECK_OUTPUT_MAX_CHARS } from "../github/checks.js";
import { repoRef } from "../github/repo.js";
import { readEvidenceZip, type VerifiedBundle } from "../core/evidence.js";
import type { AppContext } from "./context.js";
import { dependsOnGate, noEvidenceCheck, type GateFacts } from "../core/gate-memory.js";
import { gateFacts, gateOf } from "./gate-memory.js";
import { gateWorkflowPath, isRunnerAEvent, type RunRefusal } from "../core/run-checks.js";
import type { RunAVerdict, VerifiedRunA } from "./run-verify.js";
import { ceilingFacts, runFactsOf, type CeilingFacts } from "./org-ceiling.js";

/**
 * The App's verified check (`<check name> / verified`, ENVELOPE_GATE_VERIFIED_CHECK_NAME) on
 * the head commit of every completed `pull_request` or `pull_request_review` run of the gate workflow. On a
 * pull_request event the pull request's own workflow file runs, and its job token can post a
 * green `envelope-gate` check; this one only the App can post (a branch ruleset requires it
 * with the App as its source). A run's own verdict is `success` only when the run verified as
 * runner A does (run-checks.ts: the base's workflow file and local Action, the current head, this
 * repository) and its evidence bundle (of the attempt verified) verifies, is for the run's commit,
 * repository, attempt and the pull request's current base, is under the envelope the base's
 * digest file pins, and passes. A check run belongs to a commit, so the check posted is the
 * conjunction of every open pull request on the commit (core/verified-head.ts), evaluated again
 * when a pull request on it is opened, reopened, retargeted, synchronized or closed.
 */

/** What the run's evidence turned out to be. */
export type EvidenceFacts =
  | { kind: "bundle"; bundle: VerifiedBundle }
  | { kind: "missing" }
  | { kind: "unreadable"; code: ErrorCode; message: string }
  | { kind: "earlier"; reason: string };

/** What the base pins: the envelope hash (`sha256:<hex>`) of its digest file, or why there is none. */
type PinnedFacts = { kind: "hash"; hash: string } | { kind: "none"; code: ErrorCode; message: string };

const runLineOf = (a: VerifiedRunA, workflowPath: string) =>
  runLine({
    runId: a.run.id,
    attempt: a.run.run_attempt ?? 1,
    workflowPath,
    headSha: a.headSha,
    pullNumber: a.pullNumber,
    baseRef: a.baseRef,
    baseSha: a.baseSha,
  });

/** A refused run: a failing check naming the refusal. */
function refusedCheck(refusal: RunRefusal): VerifiedCheckContent {
  return {
    conclusion: "failure",
    code: refusal.code,
    title: "Not verified: this run is not the base's gate",
    summary: `${mdCode(refusal.code)}: ${mdText(refusal.reason)}\n\nThe App verifies only a pull_request or pull_request_review run of the base branch's gate workflow file (and its local Action) on the pull request's current head. Nothing this run reported counts.`,
  };
}

/** Pure: a verified run's check from its evidence and the base's pinned envelope hash. */
export function verifiedRunCheck(
  a: VerifiedRunA,
  workflowPath: string,
  evidence: EvidenceFacts,
  pinned: PinnedFacts,
  gate: GateFacts | null = null,
): VerifiedCheckContent {
  const fail = (code: ErrorCode | null, title: string, detail: string): VerifiedCheckContent => ({
    conclusion: "failure",
    code,
    // The detail and the run line quote the bundle and the run (runner A's job made the bundle).
    title: plainText(title, 255),
    summary: `${code === null ? "" : `${mdCode(code)}: `}${mdText(detail)}\n\n${mdText(runLineOf(a, workflowPath))}`,
  });
  if (evidence.kind === "missing") {
    // A pull request the App holds gated (app/gate-memory.ts) is not "not gated" because this run was not.
    if (a.run.conclusion === "success") return noEvidenceCheck(gate, runLineOf(a, workflowPath));
    return fail(
      "EVIDENCE_UNAVAILABLE",
      "Not verified: no evidence",
      `the run concluded ${a.run.conclusion ?? "nothing"} and has no evidence bundle`,
    );
  }
  if (evidence.kind === "unreadable") return fail(evidence.code, "Not verified: the evidence does not verify", evidence.message);
  if (evidence.kind === "earlier")
    return fail("VERIFIED_CHECK_EARLIER_ATTEMPT", "Not verified: an earlier attempt's evidence", evidence.reason);
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
  const attempt = String(a.run.run_attempt ?? 1);
  if (b.runner.workflow_run_id !== String(a.run.id)) {
    return fail(
      "VERIFIED_CHECK_EVIDENCE_REFUSED",
      "Not verified: evidence of another run",
      `the evidence names run ${b.runner.workflow_run_id ?? "none"}, the App verified run ${a.run.id}`,
    );
  }
  if (b.runner.run_attempt !== attempt) {
    return fail(
      "VERIFIED_CHECK_EARLIER_ATTEMPT",
      "Not verified: another attempt's evidence",
      `the evidence names attempt ${b.runner.run_attempt ?? "none"} of run ${a.run.id}, the App verified attempt ${attempt}`,
    );
  }
  const baseRef = b.runner.base_ref;
  const baseSha = b.runner.base_sha;
  if (typeof baseRef !== "string" || typeof baseSha !== "string") {
    return fail(
      "VERIFIED_CHECK_BASE_UNNAMED",
      "Not verified: the evidence names no base",
      "runner.json records no base branch and commit (an Action from before they were recorded): what the run judged against cannot be held to the pull request's base",
    );
  }
  if (baseRef !== a.baseRef) {
    return fail(
      "VERIFIED_CHECK_BASE_CHANGED",
      "Not verified: judged against another base branch",
      `the run judged the pull request against ${baseRef}; it targets ${a.baseRef} now (retargeted after the run started): the run for the retarget decides`,
    );
  }
  if (baseSha !== a.baseSha) {
    return fail(
      "VERIFIED_CHECK_BASE_MOVED",
      "Not verified: judged against an older base commit",
      `the run judged against ${baseRef} at ${baseSha}; ${a.baseRef} is at ${a.baseSha} now (it moved while the run ran): re-run the gate`,
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
      `Evidence ${b.digest}, judged against ${baseRef} at ${baseSha} (properties ${b.runner.properties_digest ?? "none"}, ledger ${b.runner.ledger_digest ?? "none"}).`,
      runLineOf(a, workflowPath),
      "Checked through GitHub's API: the workflow file (and any local Action) is the base's, the head is the pull request's current head, the run is this repository's.",
    ]
      .map((paragraph) => mdText(paragraph))
      .join("\n\n"),
  };
}

/**
 * Pure: a passing run's check held to the organisation envelope (org-ceiling.ts ceilingFacts).
 * A widening, an envelope that cannot be held to it, or an organisation envelope that does not
 * verify fails the check; within (or none, or not covered) it passes and says which.
 */
export function withCeiling(content: VerifiedCheckContent, facts: CeilingFacts): VerifiedCheckContent {
  if (content.conclusion !== "success") return content;
  if (facts.kind === "fail") {
    return {
      conclusion: "failure",
      code: facts.code,
      title: plainText(facts.title, 255),
      summary: [
        `${mdCode(facts.code)}: the run passed, but the base's envelope is not within the organisation envelope (docs/app.md, An organisation's envelope):`,
        facts.lines.map((l) => `- ${mdText(l, 600)}`).join("\n"),
        content.summary,
      ].join("\n\n"),
    };
  }
  const said =
    facts.kind === "within"
      ? `Within the organisation envelope ${mdCode(facts.id)} (${mdCode(facts.digest)})${facts.exceptions.length > 0 ? `, with ${facts.exceptions.map((e) => mdText(e, 300)).join("; ")}` : ""}.`
      : facts.kind === "uncovered"
        ? `The organisation envelope ${mdCode(facts.id)} (${mdCode(facts.digest)}) does not cover this repository.`
        : `No organisation envelope: ${mdText(facts.why, 300)}.`;
  return { ...content, summary: `${content.summary}\n\n${said}` };
}

/** Reads the run's evidence for the check: a verified bundle, none, or why it does not verify. */
function evidenceFacts(evidence: RunEvidence): EvidenceFacts {
  if (evidence.kind !== "zip") return evidence;
  try {
    return { kind: "bundle", bundle: readEvidenceZip(evidence.zip) };
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

/** The open pull request a refused run speaks for: the one it ran for, read open with the run's commit as its head. */
function refusedRunPull(verdict: RunAVerdict & { verified: false }): ApiPull | null {
  const p = verdict.pull;
  return p !== null && p.state === "open" && p.head.sha === verdict.run.head_sha ? p : null;
}

/**
 * The verified check for a completed pull_request or pull_request_review run, once per run attempt (the store's claim;
 * a post whose record was lost is found again by its content). The run's verdict is recorded for
 * the pull request it ran for, against that pull request's current base; then the commit's check
 * is evaluated again (evaluateHead). A run whose head is no longer the pull request's (or of a
 * closed pull request) records and posts nothing: the current head's own run decides.
 */
export async function postVerifiedCheck(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  run: ApiWorkflowRun,
  verdict: RunAVerdict,
  evidence: () => Promise<RunEvidence>,
  workflowPath: string,
): Promise<string> {
  if (!isRunnerAEvent(run.event)) return "";
  if (!verdict.verified && verdict.refusal.code === "RUNNER_A_NOT_CURRENT_HEAD")
    return "no verified check (not the pull request's current head)";
  // A newer event of the same pull request cancelled it (the documented concurrency group): the newer run decides.
  if (run.conclusion === "cancelled") return "no verified check (the run was cancelled)";
  const owner = ctx.settings.replicaId;
  const key = { repository, run_id: run.id, run_attempt: run.run_attempt ?? 1 };
  const claimed = await ctx.store.runs.claimVerifiedCheck({ ...key, head_sha: run.head_sha }, owner, ctx.clock.now(), ctx.settings.leaseMs);
  if (!claimed) {
    const row = await ctx.store.runs.getVerifiedCheck(repository, key.run_id, key.run_attempt);
    if (row?.state === "posted") return `verified check already posted (${row.conclusion ?? "?"})`;
    return row?.state === "skipped"
      ? "verified check already handled (no open pull request on this commit)"
      : "verified check being posted elsewhere";
  }
  try {
    let content: VerifiedCheckContent;
    if (verdict.verified) {
      const raw = await evidence();
      const facts = evidenceFacts(raw);
      const gate = await gateFacts(ctx, gh, repository, verdict.a, facts);
      const pinned = await pinnedFacts(ctx, gh, repository, verdict.a.baseSha);
      content = verifiedRunCheck(verdict.a, workflowPath, facts, pinned, gate);
      if (content.conclusion === "success" && pinned.kind === "hash")
        content = withCeiling(
          content,
          await ceilingFacts(ctx, gh, repository, verdict.a.baseSha, pinned.hash, raw.kind === "zip" ? runFactsOf(raw.zip) : null),
        );
    } else content = refusedCheck(verdict.refusal);
    const pull = verdict.verified
      ? { number: verdict.a.pullNumber, baseRef: verdict.a.baseRef, baseSha: verdict.a.baseSha }
      : (() => {
          const p = refusedRunPull(verdict);
          return p === null ? null : { number: p.number, baseRef: p.base.ref, baseSha: p.base.sha };
        })();
    if (pull !== null) {
      await ctx.store.heads.recordVerdict({
        repository,
        head_sha: run.head_sha,
        pull_number: pull.number,
        base_ref: pull.baseRef,
        base_sha: pull.baseSha,
        run_id: key.run_id,
        run_attempt: key.run_attempt,
        conclusion: content.conclusion,
        code: content.code,
        title: content.title,
        summary: content.summary,
        recorded_at: ctx.clock.now(),
      });
    }
    await ctx.store.heads.bump(repository, run.head_sha, ctx.clock.now());
    const head = await evaluateHead(ctx, gh, repository, run.head_sha, run.html_url ?? null);
    await ctx.store.runs.finishVerifiedCheck(key, owner, {
      state: head.checkRunId === null ? "skipped" : "posted",
      conclusion: content.conclusion,
      code: content.code,
      check_run_id: head.checkRunId,
      at: ctx.clock.now(),
    });
    ctx.log(content.conclusion === "success" ? "info" : "warn", "verified_check.run", {
      repository,
      run: run.id,
      pull: pull?.number ?? null,
      conclusion: content.conclusion,
      code: content.code,
    });
    return `${head.outcome}; this run: ${content.conclusion}${content.code ? ` ${content.code}` : ""}${pull === null ? ", for no open pull request" : ""}`;
  } catch (err) {
    await ctx.store.runs.releaseVerifiedCheck(key, owner).catch(() => undefined);
    throw err;
  }
}

interface HeadOutcome {
  checkRunId: number | null;
  outcome: string;
}

function busy(repository: string, head: string): never {
  throw new Refusal("VERIFIED_CHECK_BUSY", `another delivery is posting ${repository}'s verified check on ${head.slice(0, 12)}`, {
    hint: "Nothing to do: the delivery is queued and retried once the other one is done, so its change is included.",
  });
}

const outcomeOf = (conclusion: string | null, code: string | null) =>
  conclusion === null
    ? "no verified check (no open pull request on this commit)"
    : `verified check ${conclusion}${code ? ` (${code})` : ""}`;

/**
 * Posts the commit's verified check made of the latest state, one poster at a time (the head's
 * claim). Called after a change was recorded (`bump`); loops while changes arrive during a post,
 * so the check posted last is made of the latest generation. Another poster holding the claim is
 * VERIFIED_CHECK_BUSY (transient: the delivery is retried).
 */
export async function evaluateHead(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  head: string,
  detailsUrl: string | null,
): Promise<HeadOutcome> {
  const owner = ctx.settings.replicaId;
  for (let round = 0; round < 5; round++) {
    const row = await ctx.store.heads.get(repository, head);
    if (row === null) return { checkRunId: null, outcome: outcomeOf(null, null) };
    if (row.posted_generation >= row.generation) return { checkRunId: row.check_run_id, outcome: outcomeOf(row.conclusion, row.code) };
    if (!(await ctx.store.heads.claim(repository, head, owner, ctx.clock.now(), ctx.settings.leaseMs))) busy(repository, head);
    let generation = row.generation;
    let done: Awaited<ReturnType<typeof postHeadCheck>>;
    try {
      generation = (await ctx.store.heads.get(repository, head))?.generation ?? generation;
      done = await postHeadCheck(ctx, gh, repository, head, generation, detailsUrl);
    } catch (err) {
      await ctx.store.heads.release(repository, head, owner).catch(() => undefined);
      throw err;
    }
    if (!(await ctx.store.heads.finish(repository, head, owner, generation, { ...done, at: ctx.clock.now() }))) busy(repository, head);
  }
  busy(repository, head);
}

/**
 * One evaluation: the open pull requests GitHub associates with the commit (and any whose verdict
 * is recorded, read again), their verdicts, the check runs of the verified check's name by anyone;
 * posts the check unless the App's latest one on the commit already says exactly that.
 */
async function postHeadCheck(
  ctx: AppContext,
  gh: InstallationClient,
  repository: string,
  head: string,
  generation: number,
  detailsUrl: string | null,
) {
  const r = repoRef(repository);
  const name = ctx.settings.verifiedCheckName;
  const appId = Number(ctx.settings.appId);
  const [listed, verdicts, checks] = await Promise.all([
    gh.pullsOfCommit(r, head),
    ctx.store.heads.verdicts(repository, head),
    gh.checkRunsNamed(r, head, name),
  ]);
  const open = new Map<number, OpenPull>();
  for (const p of listed)
    if (p.state === "open" && p.head_sha === head)
      open.set(p.number, { number: p.number, baseRef: p.base_ref, headRepository: p.head_repository });
  for (const v of verdicts) {
    if (open.has(v.pull_number)) continue;
    // GitHub lists only the merged pull request for a commit already on the default branch.
    const p = await gh.readPull(r, v.pull_number);
    if (p !== null && p.state === "open" && p.head.sha === head)
      open.set(p.number, { number: p.number, baseRef: p.base.ref, headRepository: p.head.repo?.full_name ?? null });
  }
  const foreign: ForeignCheck[] = checks
    .filter((c) => c.app_id !== appId)
    .map((c) => ({ id: c.id, app_id: c.app_id, app_slug: c.app_slug, conclusion: c.conclusion, external_id: c.external_id }));
  if (foreign.length > 0) ctx.log("warn", "verified_check.foreign", { repository, head, checks: foreign });
  const pulls = () =>
    JSON.stringify(
      [...open.values()].map((p) => ({
        number: p.number,
        base_ref: p.baseRef,
        conclusion: verdicts.find((v) => v.pull_number === p.number && v.base_ref === p.baseRef)?.conclusion ?? "not verified",
      })),
    );
  if (open.size === 0) return { check_run_id: null, conclusion: null, code: null, pulls: pulls(), foreign_checks: JSON.stringify(foreign) };
  const content = headCheck([...open.values()], verdicts, foreign, name);
  const summary = content.summary.slice(0, CHECK_OUTPUT_MAX_CHARS);
  const latest = checks
    .filter((c) => c.app_id === appId)
    .reduce<(typeof checks)[number] | null>((a, c) => (a === null || c.id > a.id ? c : a), null);
  const same =
    latest !== null &&
    latest.status === "completed" &&
    latest.conclusion === content.conclusion &&
    latest.title === content.title &&
    latest.summary === summary;
  const id = same
    ? latest.id
    : await gh.createCheckRun(r, {
        name,
        head_sha: head,
        conclusion: content.conclusion,
        title: content.title,
        summary,
        external_id: `${head.slice(0, 12)}:${generation}`,
        ...(detailsUrl ? { details_url: detailsUrl } : {}),
      });
  ctx.log(content.conclusion === "success" ? "info" : "warn", "verified_check.posted", {
    repository,
    head,
    conclusion: content.conclusion,
    code: content.code,
    pulls: [...open.keys()],
    reused: same,
  });
  return { check_run_id: id, conclusion: content.conclusion, code: content.code, pulls: pulls(), foreign_checks: JSON.stringify(foreign) };
}

/**
 * `pull_request` opened, reopened, synchronize, closed, or edited with a base change, on a commit
 * the App has a verified check for: that check is evaluated again (for synchronize, the commit the
 * pull request left too). Null when the event changes no check.
 */
export async function onPullRequestForHeads(ctx: AppContext, p: PullRequestPayload): Promise<string | null> {
  const action = p.action ?? "";
  const repository = p.repository?.full_name;
  const installationId = p.installation?.id;
  const sha = p.pull_request?.head?.sha;
  if (!repository || installationId === undefined || !sha) return null;
  if (!["opened", "reopened", "synchronize", "closed", "edited"].includes(action)) return null;
  if (action === "edited" && p.changes?.base === undefined) return null;
  const heads = [...new Set([sha, ...(action === "synchronize" && p.before ? [p.before] : [])])];
  const known: string[] = [];
  for (const head of heads) if (await ctx.store.heads.bumpKnown(repository, head, ctx.clock.now())) known.push(head);
  if (known.length === 0) return null;
  const gh = await ctx.installation(installationId);
  const done: string[] = [];
  for (const head of known) done.push(`${head.slice(0, 12)}: ${(await evaluateHead(ctx, gh, repository, head, null)).outcome}`);
  return `pull request #${p.pull_request?.number ?? "?"} ${action}: ${done.join("; ")}`;
}

/**
 * Any `pull_request` or `pull_request_review` event of a pull request the App holds gated: the
 * pull request's verdict on the head the event names, when a successful run without evidence made
 * it (it depends on the gate memory and the reviews: core/gate-memory.ts `dependsOnGate`), is made
 * again from the memory and GitHub's reviews now, and the commit's check evaluated again. So an
 * ungate review turns a `VERIFIED_CHECK_STILL_GATED` verdict neutral without another run, and its
 * dismissal (or an edit that drops the command), or the label added to a pull request whose run
 * was not gated, turns a neutral one failing at once. Null when no such verdict is recorded.
 */
export async function onGateChange(ctx: AppContext, p: PullRequestPayload): Promise<string | null> {
  const head = pullRequestHead(p);
  const installationId = p.installation?.id;
  if (head === null || head.headSha === null || installationId === undefined) return null;
  const { repository, number, headSha } = head;
  if ((await ctx.store.gated.get(repository, number)) === null) return null;
  const v = (await ctx.store.heads.verdicts(repository, headSha)).find((x) => x.pull_number === number);
  if (v === undefined || !dependsOnGate(v)) return null;
  const gh = await ctx.installation(installationId);
  const pull = await gh.readPull(repoRef(repository), number);
  // Another head now: that head's run decides (and is decided with the memory as it is).
  if (pull === null || pull.state !== "open" || pull.head.sha !== headSha) return null;
  const gate = await gateOf(ctx, gh, repository, { number, author: pull.user?.login ?? null, headSha });
  const content = noEvidenceCheck(
    gate,
    runLine({
      runId: v.run_id,
      attempt: v.run_attempt,
      workflowPath: gateWorkflowPath(ctx.settings.workflow),
      headSha,
      pullNumber: number,
      baseRef: v.base_ref,
      baseSha: v.base_sha,
    }),
  );
  const same = content.conclusion === v.conclusion && content.code === v.code && content.title === v.title && content.summary === v.summary;
  // Recorded for the same run and attempt: a newer run's verdict, recorded meanwhile, stays.
  if (!same && (await ctx.store.heads.recordVerdict({ ...v, ...content, recorded_at: ctx.clock.now() }))) {
    await ctx.store.heads.bump(repository, headSha, ctx.clock.now());
    ctx.log(content.conclusion === "failure" ? "warn" : "info", "verified_check.regated", {
      repository,
      pull: number,
      head: headSha,
      run: v.run_id,
      conclusion: content.conclusion,
      code: content.code,
    });
  }
  const done = await evaluateHead(ctx, gh, repository, headSha, null);
  return `pull request #${number}'s verdict on ${headSha.slice(0, 12)} ${same ? "unchanged" : `made again: ${content.conclusion}${content.code ? ` ${content.code}` : ""}`}; ${done.outcome}`;
}
