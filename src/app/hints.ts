/**
 * What an operator does about each code a delivery or a sweep item can fail with: the status
 * page prints it beside the failure. A code not listed gets the generic advice. GitHub never
 * redelivers by itself, and the App answers 202 before the work, so GitHub's log shows most of
 * these deliveries as delivered: no hint sends an operator to redeliver by hand what the App
 * retries itself (queued work: the sweeper; deliveries it could not record: the redelivery sweep).
 */
const RETRY = "then `envelope-gate app retry --delivery ID` (the App kept its payload; any replica's worker takes it up)";
const SWEEPER = "The App holds the delivery (queued) and its sweeper retries it; nothing to redeliver.";

const HINTS: Record<string, string> = {
  GITHUB_UNAVAILABLE: `GitHub was unreachable, slow or refused the request: check githubstatus.com and the App's permissions. ${SWEEPER}`,
  STORE_UNAVAILABLE:
    "The database could not be read or written: check /healthz and the database. Work the App recorded is retried by the sweeper once the store answers; deliveries it could not record (answered 503) are asked for again by the redelivery sweep.",
  KILL_SWITCH_ENGAGED:
    "Held while the App was paused: after `envelope-gate app resume` the sweeper sends it (every delivery is recorded during a pause; nothing to redeliver).",
  PRIVATE_KEY_INVALID: `The App's private key is not a PEM RSA private key: put the .pem GitHub generated in its file (read at each use, no restart), ${RETRY}.`,
  SECRET_UNAVAILABLE:
    "A secret file or the secret command named in the message failed: fix it (it is read again at the next use, no restart); the sweeper retries queued work, and the redelivery sweep asks GitHub again for the deliveries refused meanwhile.",
  ENVELOPE_PR_BUSY: `Another delivery was writing the same repository's envelope PR. ${SWEEPER}`,
  ENVELOPE_INVALID: `The envelope on the default branch does not parse or validate, so no envelope PR is proposed over it: fix it on the branch (the next audit run proposes again), or ${RETRY}.`,
  EVIDENCE_UNAVAILABLE: "The run's evidence artifact is missing or unreadable: check the gate workflow uploads envelope-gate-evidence.",
  EVIDENCE_DIGEST_MISMATCH: "An evidence bundle does not match its digests: treat it as tampering and investigate the run.",
  LEDGER_UNREADABLE: `The ledger path on the base branch is not a file: fix ENVELOPE_GATE_LEDGER_PATH or the repository, ${RETRY}.`,
  RUNNER_B_UNAVAILABLE: "Runner B could not be scheduled or did not finish in time: check the runners labelled for B.",
  DUAL_RUN_MISMATCH: "Runner B ran another commit or envelope: nothing to do, the property keeps failing.",
  RUNNER_B_BUDGET_EXCEEDED:
    "Runner B's daily cap is used up: nothing to do for this run (the property keeps failing). Raise the cap with `envelope-gate app budget set … --reason` if the spend is intended; it resets at 00:00 UTC.",
  BUDGET_UNCONFIRMED:
    "The store could not confirm runner B's budget, so nothing was dispatched: check /healthz and the database; queued work is retried by the sweeper.",
  DISPATCH_OUTCOME_UNKNOWN:
    "An earlier dispatch of runner B may have started a run GitHub does not list yet: nothing to do, the sweeper looks again after a minute and dispatches only if no run appeared.",
  SWITCH_UNRECORDED_CHANGE:
    "A switch was changed outside the App's commands and the watchdog answered it (see the switch history): find who or what edited the store; use `envelope-gate app pause|resume|budget|redelivery … --reason`.",
  APP_CRASH_LOOP:
    "This replica crashed repeatedly: read its last log lines, fix the cause, then `envelope-gate app reset-crashes --replica ID --reason`.",
  REDELIVERY_LIST_REFUSED:
    "GitHub refused to list the App's webhook deliveries (GET /app/hook/deliveries, with the App's JWT): check ENVELOPE_GATE_APP_ID and the private key belong to this App. Until it lists, failed deliveries are not asked for again; the next pass tries.",
  REDELIVERY_RATE_LIMITED:
    "GitHub rate-limited the App's JWT requests: the next redelivery pass tries again; nothing to do unless it persists (then lengthen ENVELOPE_GATE_REDELIVERY_SECONDS).",
  REDELIVERY_EXPIRED:
    "This delivery failed and is older than GitHub keeps deliveries (3 days): it cannot be redelivered. Produce the event again (re-run runner A's workflow, push again) if its work still matters.",
  REDELIVERY_REFUSED:
    "GitHub refused to redeliver it (see the message): the next pass asks again, within ENVELOPE_GATE_REDELIVERY_ATTEMPTS.",
  REDELIVERY_EXHAUSTED:
    "GitHub redelivered it ENVELOPE_GATE_REDELIVERY_ATTEMPTS times and every attempt failed at the App: find why in the App's log (webhook.refused or delivery.unrecorded with this delivery id), fix it, then redeliver it once from the App's settings (Advanced > Recent deliveries): the App does not ask again.",
  INTERNAL_ERROR: `A bug in envelope-gate: report it with the delivery id and the log line, ${RETRY}.`,
};

export function hintFor(code: string | null): string {
  return (code && HINTS[code]) ?? `Fix the cause named in the message, ${RETRY}.`;
}
