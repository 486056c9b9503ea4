/**
 * The SARIF 2.1.0 JSON schema (OASIS, 2.1.0-rtm.5, vendored in test/fixtures/sarif with where it
 * came from) compiled once with Ajv's draft-04 class, as the schema is written in draft-04.
 */
import { readFileSync } from "node:fs";
import ajvDraft04Module from "ajv-draft-04";
import addFormatsModule from "ajv-formats";
import type { Ajv as AjvCore, ErrorObject } from "ajv";

// Both are CommonJS with `exports.default`.
type Ajv04 = AjvCore;
const Ajv04 = ((ajvDraft04Module as unknown as { default?: unknown }).default ?? ajvDraft04Module) as new (options: object) => Ajv04;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv04) => void;

const SCHEMA = JSON.parse(readFileSync(new URL("../fixtures/sarif/sarif-2.1.0-rtm.5.json", import.meta.url), "utf8")) as object;

// unicodeRegExp off: the schema's `language` pattern has a stray `]` that a `u` regular expression refuses.
const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(SCHEMA);

/** What the schema says is wrong with a SARIF document: `<instance path> <message>` each; empty when valid. */
export function sarifSchemaProblems(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
}
