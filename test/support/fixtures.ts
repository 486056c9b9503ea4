/**
 * Constants shared by the test suites: where the repository and its bundles are, and the policy
 * files' paths and contents as a pull request's commits carry them. Builders that use them live
 * beside their suites (action-harness.ts, ../app/helpers.ts, logs.ts); the constants live here once.
 */
import { resolve } from "node:path";

/** The checkout: every suite runs from it (vitest's root), and bundles resolve against it. */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");
/** The bundled command line (`envelope-gate`): committed, built by `node scripts/build.mjs`. */
export const CLI_BUNDLE = resolve(REPO_ROOT, "dist/cli/index.js");
/** The bundled Action, as `action.yml` runs it. */
export const ACTION_BUNDLE = resolve(REPO_ROOT, "dist/index.js");

/** The repository the fake GitHub serves to the Action and the App suites. */
export const REPO = "acme/widgets";

export const ENVELOPE_PATH = ".github/envelope-gate/envelope.json";
export const DIGEST_PATH = `${ENVELOPE_PATH}.sha256`;
export const PROPERTIES_PATH = ".github/envelope-gate/properties.json";
export const LEDGER_PATH = ".github/envelope-gate/freeze_ledger.tsv";

/** The freeze ledger's header line (no line end): rows are joined after it with "\n". */
export const LEDGER_HEADER = "freeze_id\tproperty\trunner_a\trunner_b\tenvelope_hash\texpires_on\tstatus\tevidence";
/** A ledger file with no rows: the header line and its line end, byte for byte what a commit holds. */
export const EMPTY_LEDGER = `${LEDGER_HEADER}\n`;
