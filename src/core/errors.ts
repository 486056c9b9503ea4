/**
 * Every refusal carries exactly one code (CONTRACT.md section 8). A policy denial and an
 * outage never share a code, and no code means "allowed".
 */
export const ERROR_CODES = [
  "ENVELOPE_MISSING",
  "ENVELOPE_UNREADABLE",
  "ENVELOPE_INVALID",
  "ENVELOPE_DIGEST_MISSING",
  "ENVELOPE_DIGEST_INVALID",
  "ENVELOPE_DIGEST_UNREADABLE",
  "ENVELOPE_HASH_MISMATCH",
  "ROOT_VARIABLE_UNDEFINED",
  "OBSERVER_LOG_MISSING",
  "OBSERVER_LOG_UNREADABLE",
  "OBSERVER_LOG_MALFORMED",
  "OBSERVER_LOG_INCOMPLETE",
  "OBSERVER_LOG_ENVELOPE_MISMATCH",
  "OBSERVER_UNAVAILABLE",
  "PROPERTIES_INVALID",
  "PROPERTY_UNAVAILABLE",
  "LEDGER_UNREADABLE",
  "LEDGER_INVALID",
  "GITHUB_UNAVAILABLE",
  "STORE_UNAVAILABLE",
  "RUNNER_B_UNAVAILABLE",
  "EVIDENCE_UNAVAILABLE",
  "EVIDENCE_DIGEST_MISMATCH",
  "WEBHOOK_SIGNATURE_INVALID",
  "KILL_SWITCH_ENGAGED",
  "BYPASS_REFUSED",
  "CONFIG_INVALID",
  "INTERNAL_ERROR",
  "DELIVERY_IN_PROGRESS",
  "APP_DRAINING",
  "PROCESS_FENCED",
  "DUAL_RUN_MISMATCH",
  "OBSERVER_DISAGREEMENT",
  "PULL_REQUEST_HEAD_MOVED",
  "OBSERVER_CHANNEL_INVALID",
  "OBSERVER_INTERRUPTED",
  "COMMAND_NOT_FOUND",
  "RUNNER_IDENTITY_UNAVAILABLE",
  "OBSERVER_LOG_UNWRITABLE",
  "JAIL_UNAVAILABLE",
  "OBSERVER_TRACER_LOST",
  "OBSERVER_CHANNEL_TAMPERED",
  "OBSERVATION_PARTIAL",
  "POLICY_FILE_TOO_LARGE",
  "PULL_FILES_TRUNCATED",
  "WEBHOOK_BODY_TOO_LARGE",
  "WEBHOOK_HEADERS_MISSING",
  "WEBHOOK_BODY_NOT_JSON",
  "WEBHOOK_PAYLOAD_INVALID",
  "PRIVATE_KEY_INVALID",
  "NOT_FOUND",
  "RUNNER_B_BUDGET_EXCEEDED",
  "BUDGET_UNCONFIRMED",
  "SWITCH_UNRECORDED_CHANGE",
  "DISPATCH_OUTCOME_UNKNOWN",
  "APP_CRASH_LOOP",
  "SECRET_IN_ENVIRONMENT",
  "SECRET_UNAVAILABLE",
  "OBSERVER_LOG_WRITE_FAILED",
  "OUTPUT_UNWRITABLE",
  "JAIL_CWD_HIDDEN",
  "ACTION_COPY_WRITABLE",
  "ACTION_COPY_UNAVAILABLE",
  "PROPERTY_SCRATCH_UNAVAILABLE",
  "PROTECTED_PATHS_UNAVAILABLE",
  "GIT_CREDENTIALS_UNCHECKED",
  "REDELIVERY_LIST_REFUSED",
  "REDELIVERY_RATE_LIMITED",
  "REDELIVERY_EXPIRED",
  "REDELIVERY_REFUSED",
  "REDELIVERY_EXHAUSTED",
  "PULL_REQUEST_BASE_CHANGED",
  "PULL_REQUEST_BASE_MISSING",
  "LEDGER_BRANCH_FOREIGN",
  "LEDGER_PR_FOREIGN",
  "LEDGER_PR_TAMPERED",
  "LEDGER_PR_RETARGETED",
  "JAIL_IDENTITY_UNAVAILABLE",
  "RUNNER_A_UNVERIFIED",
  "RUNNER_A_EVENT_REFUSED",
  "RUNNER_A_NOT_CURRENT_HEAD",
  "RUNNER_A_WORKFLOW_CHANGED",
  "RUNNER_B_UNVERIFIED",
  "VERIFIED_CHECK_EVIDENCE_REFUSED",
  "FREEZE_NOT_FREEZABLE",
  "FREEZE_EVIDENCE_UNAVAILABLE",
  "FREEZE_EVIDENCE_MISMATCH",
  "SUGGEST_ROOT_MISMATCH",
  "CHECK_OPTIONS_CONFLICT",
  "SCRATCH_REMOVE_FAILED",
  "AUDIT_RUN_UNVERIFIED",
  "AUDIT_EVIDENCE_UNAVAILABLE",
  "AUDIT_BUNDLE_NOT_AUDIT",
  "ENVELOPE_BRANCH_FOREIGN",
  "ENVELOPE_PR_FOREIGN",
  "ENVELOPE_PR_TAMPERED",
  "ENVELOPE_PR_RETARGETED",
  "ENVELOPE_PR_BUSY",
  "SARIF_UPLOAD_FAILED",
  "VERIFIED_CHECK_AUDIT_EVIDENCE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

/** A typed refusal: the gate could not decide, so it did not pass. */
export class GateError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** What a person should do next. */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, where: ErrorLocation & { hint?: string; cause?: unknown } = {}) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = "GateError";
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.hint = where.hint;
  }

  /** `file:line:col` where known, for messages and annotations. */
  get location(): string | undefined {
    if (this.file === undefined) return undefined;
    if (this.line === undefined) return this.file;
    return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
  }

  toJSON(): { code: ErrorCode; message: string; file?: string; line?: number; hint?: string } {
    const out: { code: ErrorCode; message: string; file?: string; line?: number; hint?: string } = {
      code: this.code,
      message: this.message,
    };
    if (this.file !== undefined) out.file = this.file;
    if (this.line !== undefined) out.line = this.line;
    if (this.hint !== undefined) out.hint = this.hint;
    return out;
  }
}

export function isGateError(value: unknown): value is GateError {
  return value instanceof GateError;
}
