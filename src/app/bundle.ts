/** The App reads evidence bundles with the pure reader in core (the Action checks freeze rows with it too). */
export { readEvidenceZip, type VerifiedBundle } from "../core/evidence.js";
