/**
 * The policy files of one commit (envelope, digest, properties, ledger), as bytes, turned into
 * what the gate judges with. Pure: the caller fetches the bytes; every refusal is a Refusal
 * naming the file.
 */
import { loadEnvelope, verifyDigest, type LoadedEnvelope } from "./envelope.js";
import { Refusal } from "./errors.js";
import { applyFreezeCaps, parseLedger, type FreezeCaps, type FreezeDecision, type Ledger, type LedgerProblem } from "./ledger.js";
import type { PolicyPaths } from "./policy.js";
import { isFreezable, loadProperties, type PropertiesDeclaration } from "./properties.js";

export interface PolicyFiles {
  /** The commit the files were read at, and why that one (base, or head after an approval). */
  ref: string;
  source: string;
  envelope: Uint8Array | null;
  digest: Uint8Array | null;
  properties: Uint8Array | null;
  ledger: Uint8Array | null;
}

export interface PinnedEnvelope {
  envelope: LoadedEnvelope;
  bytes: Uint8Array;
}

export interface Policy extends PinnedEnvelope {
  /** Null when the commit has no properties file: nothing to score. */
  properties: PropertiesDeclaration | null;
  ledger: Ledger;
  ledgerPresent: boolean;
  freezes: FreezeDecision;
}

function decodeUtf8(bytes: Uint8Array, code: "LEDGER_INVALID" | "ENVELOPE_DIGEST_INVALID", file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Refusal(code, `${file} is not valid UTF-8`, { file });
  }
}

/** The envelope, verified against its digest: both must exist at the commit. */
export function pinnedEnvelope(paths: PolicyPaths, files: Pick<PolicyFiles, "ref" | "source" | "envelope" | "digest">): PinnedEnvelope {
  const where = `${files.source} ${files.ref.slice(0, 12)}`;
  if (files.envelope === null) {
    throw new Refusal("ENVELOPE_MISSING", `${paths.envelope} does not exist at the ${where}`, {
      file: paths.envelope,
      hint: "Commit the envelope and its digest to the base branch first; a pull request cannot bring its own envelope.",
    });
  }
  if (files.digest === null) {
    throw new Refusal("ENVELOPE_DIGEST_MISSING", `${paths.digest} does not exist at the ${where}`, {
      file: paths.digest,
      hint: `Pin the envelope: envelope-gate hash ${paths.envelope} > ${paths.digest}, reviewed and committed with it.`,
    });
  }
  verifyDigest(files.envelope, paths.envelope, decodeUtf8(files.digest, "ENVELOPE_DIGEST_INVALID", paths.digest), paths.digest);
  return { envelope: loadEnvelope(files.envelope, paths.envelope), bytes: files.envelope };
}

/**
 * The whole policy of a commit. A missing properties file means nothing to score; a missing
 * ledger means no freezes (documented defaults); an unreadable one never reaches here.
 */
export function policyFrom(paths: PolicyPaths, files: PolicyFiles, today: string, caps: FreezeCaps): Policy {
  const pinned = pinnedEnvelope(paths, files);
  const properties = files.properties === null ? null : loadProperties(files.properties, paths.properties);
  const ledger =
    files.ledger === null
      ? { file: paths.ledger, rows: [], problems: [] }
      : parseLedger(decodeUtf8(files.ledger, "LEDGER_INVALID", paths.ledger), paths.ledger);
  const freezes = refuseNotFreezable(applyFreezeCaps(ledger, today, caps), properties);
  return { ...pinned, properties, ledger, ledgerPresent: files.ledger !== null, freezes };
}

/**
 * A row naming a property the properties file declares non-freezable (patch_paths always, any
 * other with `"freezable": false`) is never honored: FREEZE_NOT_FREEZABLE, whatever its evidence.
 */
export function refuseNotFreezable(freezes: FreezeDecision, properties: PropertiesDeclaration | null): FreezeDecision {
  const fixed = new Map(
    (properties?.properties ?? []).filter((d) => !isFreezable(d.declaration)).map((d) => [d.declaration.name, d.declaration.kind]),
  );
  const refused: LedgerProblem[] = [];
  const honored = freezes.honored.filter((row) => {
    const kind = fixed.get(row.scope.name);
    if (kind === undefined) return true;
    refused.push({
      line: row.line,
      freeze_id: row.freeze_id,
      code: "FREEZE_NOT_FREEZABLE",
      reason:
        kind === "patch_paths"
          ? `FREEZE_NOT_FREEZABLE: ${row.scope.name} is a patch_paths property, judged on the pull request's files alone, the same on every machine; it is never frozen`
          : `FREEZE_NOT_FREEZABLE: ${row.scope.name} is declared "freezable": false in the properties file`,
    });
    return false;
  });
  return { honored, refused: [...freezes.refused, ...refused].sort((a, b) => a.line - b.line) };
}
