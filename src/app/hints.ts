/**
 * What an operator does about each code a delivery or a sweep item can fail with: the status
 * page prints it beside the failure. A code not listed gets the generic advice.
 */
const REDELIVER = "then redeliver it from the App's settings (Advanced > Recent deliveries)";

const HINTS: Record<string, string> = {
  GITHUB_UNAVAILABLE: `GitHub was unreachable, slow or refused the request: check githubstatus.com and the App's permissions, ${REDELIVER}.`,
  STORE_UNAVAILABLE: `The database could not be read or written: check /healthz and the database, ${REDELIVER}.`,
  KILL_SWITCH_ENGAGED:
    "Refused while the App was paused. After `envelope-gate app resume` the sweeper sends recorded work; redeliver deliveries that recorded nothing.",
  PRIVATE_KEY_INVALID: `The App's private key is not a PEM RSA private key: put the .pem GitHub generated in its file (read at each use, no restart), ${REDELIVER}.`,
  SECRET_UNAVAILABLE:
    "A secret file or the secret command named in the message failed: fix it (it is read again at the next use, no restart); the sweeper retries queued work, GitHub's redelivery the refused deliveries.",
  EVIDENCE_UNAVAILABLE: "The run's evidence artifact is missing or unreadable: check the gate workflow uploads envelope-gate-evidence.",
  EVIDENCE_DIGEST_MISMATCH: "An evidence bundle does not match its digests: treat it as tampering and investigate the run.",
  LEDGER_UNREADABLE: `The ledger path on the base branch is not a file: fix ENVELOPE_GATE_LEDGER_PATH or the repository, ${REDELIVER}.`,
  RUNNER_B_UNAVAILABLE: "Runner B could not be scheduled or did not finish in time: check the runners labelled for B.",
  DUAL_RUN_MISMATCH: "Runner B ran another commit or envelope: nothing to do, the property keeps failing.",
  RUNNER_B_BUDGET_EXCEEDED:
    "Runner B's daily cap is used up: nothing to do for this run (the property keeps failing). Raise the cap with `envelope-gate app budget set … --reason` if the spend is intended; it resets at 00:00 UTC.",
  BUDGET_UNCONFIRMED:
    "The store could not confirm runner B's budget, so nothing was dispatched: check /healthz and the database; queued work is retried by the sweeper.",
  DISPATCH_OUTCOME_UNKNOWN:
    "An earlier dispatch of runner B may have started a run GitHub does not list yet: nothing to do, the sweeper looks again after a minute and dispatches only if no run appeared.",
  SWITCH_UNRECORDED_CHANGE:
    "A switch was changed outside the App's commands and the watchdog answered it (see the switch history): find who or what edited the store; use `envelope-gate app pause|resume|budget … --reason`.",
  APP_CRASH_LOOP:
    "This replica crashed repeatedly: read its last log lines, fix the cause, then `envelope-gate app reset-crashes --replica ID --reason`.",
  INTERNAL_ERROR: `A bug in envelope-gate: report it with the delivery id and the log line, ${REDELIVER}.`,
};

export function hintFor(code: string | null): string {
  return (code && HINTS[code]) ?? `Fix the cause named in the message, ${REDELIVER}.`;
}
