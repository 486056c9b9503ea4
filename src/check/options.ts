/** The flags every command that reads an envelope and an observer log takes (`check`, `run`). */
export const ENVELOPE_LOG_OPTIONS = {
  envelope: { type: "string" },
  sha256: { type: "string" },
  observer: { type: "string" },
  workspace: { type: "string" },
  scratch: { type: "string" },
} as const;

/** The flags only `run` takes. */
export const RUN_ONLY_OPTIONS = {
  "node-only": { type: "boolean", default: false },
  "keep-scratch": { type: "boolean", default: false },
  audit: { type: "boolean", default: false },
  recorder: { type: "string" },
} as const;
