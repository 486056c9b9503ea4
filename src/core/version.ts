/**
 * The release this build is. Kept beside package.json's "version" (test/core/version.test.ts) and
 * checked against the release tag by scripts/release.mjs; a semantic version, without a "v".
 */
export const VERSION = "1.0.0";

/** How the product names itself where a reader must tell what judged them: "envelope-gate 1.0.0". */
export const PRODUCT = `envelope-gate ${VERSION}`;
