/**
 * The shape of each webhook payload, checked on arrival for the fields the App reads
 * (payloads.ts): a signed delivery whose payload GitHub could not have sent (`null`, a string
 * installation id, a workflow run without an id) is refused with WEBHOOK_PAYLOAD_INVALID and
 * nothing is stored, instead of failing later as INTERNAL_ERROR or recording a `NaN`.
 * Fields the App does not read are not checked; extra fields are always allowed.
 */

type Check = (value: unknown, path: string, problems: string[]) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

const str: Check = (v, path, problems) => {
  if (typeof v !== "string") problems.push(`${path} must be a string, got ${kind(v)}`);
};
const id: Check = (v, path, problems) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v <= 0) problems.push(`${path} must be a positive integer, got ${kind(v)}`);
};
const bool: Check = (v, path, problems) => {
  if (typeof v !== "boolean") problems.push(`${path} must be a boolean, got ${kind(v)}`);
};
const nullable =
  (check: Check): Check =>
  (v, path, problems) => {
    if (v !== null) check(v, path, problems);
  };
const fullName: Check = (v, path, problems) => {
  if (typeof v !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(v)) problems.push(`${path} must be "owner/name", got ${JSON.stringify(v)}`);
};

/** An object whose listed fields are checked; `?` after a name marks it optional. */
function obj(fields: Record<string, Check>): Check {
  return (v, path, problems) => {
    if (!isObject(v)) {
      problems.push(`${path} must be an object, got ${kind(v)}`);
      return;
    }
    for (const [key, check] of Object.entries(fields)) {
      const optional = key.endsWith("?");
      const name = optional ? key.slice(0, -1) : key;
      if (v[name] === undefined) {
        if (!optional) problems.push(`${path}.${name} is missing`);
        continue;
      }
      check(v[name], `${path}.${name}`, problems);
    }
  };
}

function arr(item: Check): Check {
  return (v, path, problems) => {
    if (!Array.isArray(v)) {
      problems.push(`${path} must be an array, got ${kind(v)}`);
      return;
    }
    v.forEach((x, i) => item(x, `${path}[${i}]`, problems));
  };
}

const installation = obj({ id, "account?": nullable(obj({ "login?": str })) });
const repository = obj({ full_name: fullName, "owner?": obj({ "login?": str }) });
const repoEvent = { "installation?": installation, repository };

const workflowRun = obj({
  id,
  "run_attempt?": id,
  "path?": str,
  "event?": str,
  "head_branch?": nullable(str),
  "status?": nullable(str),
  "conclusion?": nullable(str),
  "head_sha?": str,
  "html_url?": str,
  "pull_requests?": arr(obj({ number: id, "base?": obj({ "ref?": str }) })),
});

const pullRequestEvent = obj({
  action: str,
  "before?": str,
  ...repoEvent,
  "sender?": nullable(obj({ "login?": str })),
  "label?": nullable(obj({ "name?": str })),
  "review?": nullable(obj({ id, "body?": nullable(str) })),
  pull_request: obj({
    number: id,
    "merged?": nullable(bool),
    head: obj({ ref: str, "sha?": str, "repo?": nullable(obj({ full_name: fullName })) }),
    "base?": obj({ "ref?": str }),
    "labels?": arr(obj({ "name?": str })),
  }),
});

const paths = arr(str);

/** Per event the App routes (service.ts), the fields it reads. Any other event: an object. */
const SHAPES: Record<string, Check> = {
  workflow_run: obj({ action: str, ...repoEvent, workflow_run: workflowRun }),
  push: obj({
    ref: str,
    after: str,
    ...repoEvent,
    "commits?": arr(obj({ "added?": paths, "modified?": paths, "removed?": paths })),
  }),
  pull_request: pullRequestEvent,
  pull_request_review: pullRequestEvent,
  installation: obj({ action: str, installation }),
  ping: obj({}),
};

/** What is wrong with a payload for `event` (at most 10 problems); empty when the App can read it. */
export function payloadProblems(event: string, payload: unknown): string[] {
  const problems: string[] = [];
  const check = SHAPES[event] ?? obj({ "installation?": installation });
  check(payload, "payload", problems);
  return problems.slice(0, 10);
}
