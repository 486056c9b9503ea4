import { mdCode, mdText } from "../../core/markdown.js";
import { repoRef } from "../../github/repo.js";
import type { LedgerPr } from "../../store/index.js";
import type { AppContext } from "../context.js";
import { onEnvelopePullRequest } from "../envelope-pr.js";
import { rememberLabel } from "../gate-memory.js";
import { closeTampered, closeWithComment } from "../ledger-pr.js";
import { onGateChange, onPullRequestForHeads } from "../verified-check.js";
import { pullRequestHead, type PullRequestPayload } from "../../core/payloads.js";

/**
 * `pull_request` on any other pull request: opened, reopened, synchronize, closed or retargeted on
 * a commit the App has a verified check for, that check is evaluated again (verified-check.ts).
 *
 * `pull_request` on a ledger PR the App opened, found by repository and PR number and held to the
 * head repository it recorded (a fork PR whose head ref is the ledger branch's name is not it):
 * - `closed`: merged or closed; a merge whose head is not the App's commit is recorded merged with
 *   LEDGER_PR_TAMPERED (the status page shows it).
 * - `synchronize`: a head other than the App's recorded commit closes it as LEDGER_PR_TAMPERED.
 * - `edited` with `changes.base`: retargeted away from its base, it is closed (LEDGER_PR_RETARGETED).
 * - `reopened`: a PR the App closed is closed again; one a reviewer closed is tracked again while
 *   its head is the App's commit.
 */
export async function onPullRequest(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  // Any pull request showing the agent label is remembered as gated (app/gate-memory.ts), and a
  // verdict on its head that the memory decides is made again.
  const gated = await rememberLabel(ctx, p);
  const regated = await onGateChange(ctx, p);
  const outcome = await onLedgerOrEnvelopePull(ctx, p);
  return [gated, regated, outcome].filter((x) => x !== null).join("; ");
}

async function onLedgerOrEnvelopePull(ctx: AppContext, p: PullRequestPayload): Promise<string> {
  const head = pullRequestHead(p);
  if (head && p.action === "opened") return (await onPullRequestForHeads(ctx, p)) ?? "ignored pull_request";
  if (!head || !["closed", "synchronize", "edited", "reopened"].includes(p.action ?? "")) return "ignored pull_request";
  const pr = await ctx.store.findLedgerPrByPull(head.repository, head.number);
  if (!pr) {
    const envelope = await onEnvelopePullRequest(ctx, p.action ?? "", head, p.installation?.id);
    return envelope ?? (await onPullRequestForHeads(ctx, p)) ?? "not a ledger PR";
  }
  if (!sameHead(pr, head)) {
    ctx.log("warn", "ledger_pr.other_head", {
      freeze_id: pr.freeze_id,
      pull: head.number,
      head_repository: head.headRepository,
      head_ref: head.branch,
    });
    return `not the App's ledger PR ${pr.freeze_id}: head ${head.headRepository ?? "?"}:${head.branch}`;
  }
  const installationId = p.installation?.id ?? pr.installation_id;
  const r = repoRef(pr.repository);
  switch (p.action) {
    case "closed": {
      const merged = p.pull_request?.merged === true;
      const foreign = merged && head.headSha !== pr.ledger_commit;
      const fields = foreign
        ? {
            closed_at: ctx.clock.now(),
            outcome_code: "LEDGER_PR_TAMPERED",
            outcome_detail: `merged at ${head.headSha ?? "?"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`,
          }
        : { closed_at: ctx.clock.now() };
      if (foreign) ctx.log("error", "ledger_pr.tampered_merge", { freeze_id: pr.freeze_id, pull: pr.pr_number, head: head.headSha });
      // A merge is recorded even of a PR the App had closed (reopened and merged in between): the row is on the base now.
      await ctx.store.transitionLedgerPr(pr.lock_key, merged ? ["opened", "closed"] : ["opened"], merged ? "merged" : "closed", fields);
      return `ledger PR ${pr.freeze_id} ${merged ? "merged" : "closed"}${foreign ? " (LEDGER_PR_TAMPERED)" : ""}`;
    }
    case "synchronize": {
      if (pr.state !== "opened" && pr.outcome_code !== "LEDGER_PR_TAMPERED") return `ledger PR ${pr.freeze_id} is ${pr.state}`;
      const gh = await ctx.installation(installationId);
      // The branch as GitHub has it now, not the payload's head: a later push of the App's own wins.
      const tip = await gh.branchSha(r, pr.branch);
      if (pr.ledger_commit !== null && tip === pr.ledger_commit) return `ledger PR ${pr.freeze_id}: the App's own commit`;
      await closeTampered(ctx, gh, pr, tip);
      return `ledger PR ${pr.freeze_id} closed: LEDGER_PR_TAMPERED`;
    }
    case "edited": {
      if (p.changes?.base === undefined) return "ledger PR edited (not retargeted)";
      if (pr.state !== "opened" && pr.outcome_code !== "LEDGER_PR_RETARGETED") return `ledger PR ${pr.freeze_id} is ${pr.state}`;
      const gh = await ctx.installation(installationId);
      const now = await gh.getPull(r, head.number);
      if (now.base_ref === pr.base_ref && pr.state === "opened") return `ledger PR ${pr.freeze_id} still targets ${pr.base_ref}`;
      const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["opened"], "closed", {
        closed_at: ctx.clock.now(),
        outcome_code: "LEDGER_PR_RETARGETED",
        outcome_detail: `retargeted from ${pr.base_ref} to ${now.base_ref}`,
      });
      ctx.log("error", "ledger_pr.retargeted", { freeze_id: pr.freeze_id, pull: pr.pr_number, base: now.base_ref });
      await closeWithComment(
        gh,
        pr,
        marked || pr.outcome_code === "LEDGER_PR_RETARGETED",
        `Closed by envelope-gate (\`LEDGER_PR_RETARGETED\`): this freeze was proposed for ${mdCode(pr.base_ref)}, whose ledger the row was built on and whose runs were compared; a ledger PR is never merged into another branch. The property keeps failing; a dual run on the other branch proposes its own.`,
      );
      return `ledger PR ${pr.freeze_id} closed: LEDGER_PR_RETARGETED`;
    }
    default: {
      // reopened
      const gh = await ctx.installation(installationId);
      if (pr.state === "closed" && pr.outcome_code === null) {
        const tip = await gh.branchSha(r, pr.branch);
        if (pr.ledger_commit !== null && tip === pr.ledger_commit) {
          await ctx.store.transitionLedgerPr(pr.lock_key, ["closed"], "opened", { closed_at: null }, { outcome_code: null });
          return `ledger PR ${pr.freeze_id} reopened`;
        }
        const marked = await ctx.store.transitionLedgerPr(pr.lock_key, ["closed"], "closed", {
          outcome_code: "LEDGER_PR_TAMPERED",
          outcome_detail: `reopened with head ${tip ?? "gone"}, not the commit the App made (${pr.ledger_commit ?? "none recorded"})`,
        });
        await closeWithComment(
          gh,
          pr,
          marked,
          `Closed again by envelope-gate (\`LEDGER_PR_TAMPERED\`): this branch no longer holds the one-row commit the App made.`,
        );
        return `ledger PR ${pr.freeze_id} closed again: LEDGER_PR_TAMPERED`;
      }
      if (pr.state === "closed") {
        await closeWithComment(
          gh,
          pr,
          true,
          `Closed again by envelope-gate (${mdCode(String(pr.outcome_code))}): ${mdText(pr.outcome_detail ?? "the App closed this ledger PR")}.`,
        );
        return `ledger PR ${pr.freeze_id} closed again: ${pr.outcome_code}`;
      }
      return `ledger PR ${pr.freeze_id} is ${pr.state}`;
    }
  }
}

/** Whether the event's head is the ledger PR's: the head repository and branch the App recorded. */
export function sameHead(pr: LedgerPr, head: { branch: string; headRepository: string | null }): boolean {
  return (
    pr.head_repository !== null &&
    head.headRepository !== null &&
    head.headRepository.toLowerCase() === pr.head_repository.toLowerCase() &&
    head.branch === pr.branch
  );
}
