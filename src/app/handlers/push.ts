import { repoRef } from "../../github/repo.js";
import type { AppContext } from "../context.js";
import { ledgerHasFreeze, pushTouched } from "../../core/freeze.js";
import { rebaseLedgerPr } from "../ledger-pr.js";
import type { PushPayload } from "../../core/payloads.js";

/**
 * `push` to a base branch that changed the ledger: rebuild every open ledger PR on it on the new
 * base (its commit recorded before its branch moves); one whose branch is no longer at the App's
 * commit is closed as LEDGER_PR_TAMPERED instead of moved.
 */
export async function onPush(ctx: AppContext, p: PushPayload): Promise<string> {
  const repository = p.repository?.full_name;
  const installationId = p.installation?.id;
  if (!repository || installationId === undefined || !p.ref?.startsWith("refs/heads/") || !p.after || /^0+$/.test(p.after))
    return "ignored push";
  const after = p.after;
  const branch = p.ref.slice("refs/heads/".length);
  const open = (await ctx.store.listLedgerPrs(["opened"], repository)).filter((pr) => pr.base_ref === branch && pr.base_sha !== after);
  if (open.length === 0) return "no open ledger PR on this branch";
  const commits = p.commits ?? [];
  const gh = await ctx.installation(installationId);
  const rebased: string[] = [];
  const tampered: string[] = [];
  for (const pr of open) {
    if (!pushTouched(commits, pr.ledger_path)) continue;
    const ledger = (await gh.fileAt(repoRef(repository), pr.ledger_path, after)) ?? "";
    if (ledgerHasFreeze(ledger, pr.ledger_path, pr.freeze_id)) continue;
    if ((await rebaseLedgerPr(ctx, gh, pr, after)) === "rebased") rebased.push(pr.freeze_id);
    else tampered.push(pr.freeze_id);
  }
  const done = [
    ...(rebased.length > 0 ? [`rebased ${rebased.join(", ")}`] : []),
    ...(tampered.length > 0 ? [`closed ${tampered.join(", ")}: LEDGER_PR_TAMPERED`] : []),
  ];
  return done.length > 0 ? done.join("; ") : "ledger unchanged on base";
}
