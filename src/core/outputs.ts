/**
 * Step outputs that fit GitHub's limit, pure. GitHub allows 1 MB of outputs per job (50 MB per
 * workflow run), the size approximated as UTF-16, so every output the Action sets together stays
 * within OUTPUTS_BUDGET_BYTES counted that way (two bytes per UTF-16 code unit), half of the job's
 * megabyte, leaving the rest to the job's other steps. A list output that does not fit keeps its
 * first entries (still a JSON array of the same objects) and says how many it left out in a
 * `<name>-omitted` output; the evidence bundle always holds the whole list.
 */

/** The job's limit, 1 MB, read as 10^6 bytes (the safe side of 2^20). */
export const JOB_OUTPUTS_LIMIT_BYTES = 1_000_000;
/** What the Action's own outputs may take of it, all together. */
export const OUTPUTS_BUDGET_BYTES = 500_000;
/** Room for each output's name and GITHUB_OUTPUT's heredoc delimiters. */
const PER_OUTPUT_OVERHEAD_BYTES = 200;

/** Bytes a string counts for against GitHub's output limit (approximated as UTF-16). */
export function outputBytes(value: string): number {
  return value.length * 2;
}

interface FittedList {
  /** A JSON array of the first `kept` entries. */
  json: string;
  kept: number;
  omitted: number;
}

/** The longest prefix of `items` whose JSON array takes at most `budgetBytes`. */
export function fitList(items: readonly unknown[], budgetBytes: number): FittedList {
  const parts: string[] = [];
  let used = outputBytes("[]");
  for (const item of items) {
    const part = JSON.stringify(item);
    const cost = outputBytes(part) + (parts.length > 0 ? outputBytes(",") : 0);
    if (used + cost > budgetBytes) break;
    parts.push(part);
    used += cost;
  }
  return { json: `[${parts.join(",")}]`, kept: parts.length, omitted: items.length - parts.length };
}

interface OutputsInput {
  /** Outputs of bounded size (verdicts, hashes, ids, URLs, paths), set as they are. */
  scalars: Record<string, string>;
  violations: readonly unknown[];
  properties: readonly unknown[];
}

interface FittedOutputs {
  violations: FittedList;
  properties: FittedList;
}

/**
 * The two list outputs, fitted so that with the scalars and the two `-omitted` counts every
 * output the Action sets stays within `budgetBytes`: `properties` takes at most a quarter of
 * what the scalars leave, `violations` the rest.
 */
export function fitOutputs(input: OutputsInput, budgetBytes: number = OUTPUTS_BUDGET_BYTES): FittedOutputs {
  const overhead = (name: string) => outputBytes(name) + PER_OUTPUT_OVERHEAD_BYTES;
  let left = budgetBytes;
  for (const [name, value] of Object.entries(input.scalars)) left -= overhead(name) + outputBytes(value);
  for (const name of ["violations-omitted", "properties-omitted"]) left -= overhead(name) + outputBytes(String(Number.MAX_SAFE_INTEGER));
  left -= overhead("violations") + overhead("properties");
  left = Math.max(0, left);
  const properties = fitList(input.properties, Math.floor(left / 4));
  const violations = fitList(input.violations, left - outputBytes(properties.json));
  return { violations, properties };
}
