import { randomBytes } from "node:crypto";
import * as pure from "../core/freeze.js";

/**
 * The impure part of the freeze decisions (src/core/freeze.ts): the ledger branch's random part,
 * 80 bits from the system's CSPRNG.
 */
function branchRandom(): string {
  return randomBytes(10).toString("hex");
}

/** The ledger PR's branch (core's ledgerBranch), its random part drawn here unless given. */
export function ledgerBranch(property: string, envelopeHash: string, headSha: string, random: string = branchRandom()): string {
  return pure.ledgerBranch(property, envelopeHash, headSha, random);
}

/** The proposal for one property (core's buildFreezeProposal), on a branch with a fresh random part. */
export function buildFreezeProposal(p: pure.FreezeProposalInput): pure.FreezeProposal {
  return pure.buildFreezeProposal(p, branchRandom());
}
