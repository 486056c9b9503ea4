/**
 * Named key sets for `allowed_env` (`@ci`, `@agents`, `@terminal`): the detection lists that
 * tools read on every start (is this CI? which agent? can I use colour?), most of them unset.
 * Each set is a closed, versioned list of exact keys; none of them names a credential, and a
 * test holds every key to that. Sourced from ci-info 4 (vendors.json and its generic checks)
 * and std-env 4 (providers and agents), the two libraries behind nearly all of these reads.
 */

/** CI and hosting detection: flags and build ids, never tokens. */
const CI = [
  "AC_APPCIRCLE",
  "AC_GIT_PR",
  "AGOLA_GIT_REF",
  "AGOLA_PULL_REQUEST_ID",
  "ALPIC_HOST",
  "APPCENTER_BUILD_ID",
  "APPVEYOR",
  "APPVEYOR_PULL_REQUEST_NUMBER",
  "AWS_APP_ID",
  "BITBUCKET_COMMIT",
  "BITBUCKET_PR_ID",
  "BITRISE_IO",
  "BITRISE_PULL_REQUEST",
  "BUDDY_EXECUTION_PULL_REQUEST_ID",
  "BUDDY_WORKSPACE_ID",
  "BUILDER_OUTPUT",
  "BUILDKITE",
  "BUILDKITE_PULL_REQUEST",
  "BUILD_ID",
  "BUILD_NUMBER",
  "BUILD_REASON",
  "CF_BUILD_ID",
  "CF_PAGES",
  "CF_PULL_REQUEST_ID",
  "CF_PULL_REQUEST_NUMBER",
  "CHANGE_ID",
  "CI",
  "CIRCLECI",
  "CIRCLE_PULL_REQUEST",
  "CIRRUS_CI",
  "CIRRUS_PR",
  "CI_APP_ID",
  "CI_BUILD_EVENT",
  "CI_BUILD_ID",
  "CI_BUILD_NUMBER",
  "CI_MERGE_REQUEST_ID",
  "CI_NAME",
  "CI_PULL_REQUEST_NUMBER",
  "CI_XCODE_PROJECT",
  "CLEAVR",
  "CLOUD_RUN_JOB",
  "CM_BUILD_ID",
  "CM_PULL_REQUEST",
  "CODEBUILD_BUILD_ARN",
  "CODEBUILD_WEBHOOK_EVENT",
  "CODESANDBOX_HOST",
  "CODESANDBOX_SSE",
  "CODESPHERE_APP_ID",
  "CONTINUOUS_INTEGRATION",
  "DENO_DEPLOY",
  "DENO_DEPLOYMENT_ID",
  "DRONE",
  "DRONE_BUILD_EVENT",
  "DSARI",
  "EARTHLY_CI",
  "EAS_BUILD",
  "EO_PAGES_CI",
  "FIREBASE_APP_HOSTING",
  "GERRIT_PROJECT",
  "GITEA_ACTIONS",
  "GITHUB_ACTIONS",
  "GITHUB_EVENT_NAME",
  "GITLAB_CI",
  "GO_PIPELINE_LABEL",
  "HARNESS_BUILD_ID",
  "HUDSON_URL",
  "IS_PULL_REQUEST",
  "JENKINS_URL",
  "K_SERVICE",
  "LAYERCI",
  "LAYERCI_PULL_REQUEST",
  "MAGNUM",
  "NETLIFY",
  "NETLIFY_LOCAL",
  "NEVERCODE",
  "NEVERCODE_PULL_REQUEST",
  "NOW_BUILDER",
  "PROW_JOB_ID",
  "PULL_REQUEST",
  "PULL_REQUEST_NUMBER",
  "RAILWAY_PROJECT_ID",
  "RAILWAY_SERVICE_ID",
  "RELEASE_BUILD_ID",
  "RENDER",
  "SAILCI",
  "SAIL_PULL_REQUEST_NUMBER",
  "SCREWDRIVER",
  "SD_PULL_REQUEST",
  "SEMAPHORE",
  "SHIPPABLE",
  "STACKBLITZ",
  "STORMKIT",
  "STRIDER",
  "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI",
  "TASK_ID",
  "TDDIUM",
  "TEAMCITY_VERSION",
  "TF_BUILD",
  "TRAVIS",
  "TRAVIS_PULL_REQUEST",
  "VELA",
  "VELA_PULL_REQUEST",
  "VERCEL",
  "VERCEL_ENV",
  "VERCEL_GIT_PULL_REQUEST_ID",
  "WORKERS_CI",
  "XCS",
  "ZEABUR",
  "bamboo_planKey",
  "ghprbPullId",
] as const;

/** Coding-agent detection. */
const AGENTS = [
  "AI_AGENT",
  "AUGMENT_AGENT",
  "CLAUDECODE",
  "CLAUDE_CODE",
  "CODEX_SANDBOX",
  "CODEX_THREAD_ID",
  "COPILOT_AGENT",
  "COPILOT_CLI",
  "CURSOR_AGENT",
  "GEMINI_CLI",
  "GOOSE_PROVIDER",
  "JUNIE_DATA",
  "JUNIE_SHIM_PATH",
  "OPENCODE",
  "REPL_ID",
] as const;

/** Terminal, colour and locale. */
const TERMINAL = [
  "COLOR",
  "COLORTERM",
  "COLUMNS",
  "FORCE_COLOR",
  "FORCE_TTY",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "LINES",
  "NODE_DISABLE_COLORS",
  "NO_COLOR",
  "TERM",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TZ",
] as const;

export const ENV_SETS: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ["@ci", new Set(CI)],
  ["@agents", new Set(AGENTS)],
  ["@terminal", new Set(TERMINAL)],
]);

/**
 * Run-identity keys: what GitHub sets differently on runner A (a `pull_request` run) and runner B
 * (a `workflow_dispatch` run on the base branch) whatever the machines. PR code that read them
 * could fail on one run and pass on the other on purpose and so manufacture a freeze. The Action
 * hands the jailed runs (the patch's and each property command's) the same environment on both:
 * the keys in RUN_IDENTITY_CANONICAL take values made of the pull request alone (its number,
 * head commit, base and head branch, all read from the API), the keys in RUN_IDENTITY_REMOVED are
 * taken out, and RUN_IDENTITY_WRAPPER stays for the wrapper only (it reads them to hide the files
 * they name).
 */
export const RUN_IDENTITY_CANONICAL = [
  "GITHUB_EVENT_NAME",
  "GITHUB_SHA",
  "GITHUB_REF",
  "GITHUB_REF_NAME",
  "GITHUB_REF_TYPE",
  "GITHUB_REF_PROTECTED",
  "GITHUB_HEAD_REF",
  "GITHUB_BASE_REF",
] as const;

/** Keys that cannot be made equal on A and B (ids, counters, actors, the workflow's own ref): never in the run. */
export const RUN_IDENTITY_REMOVED = [
  "GITHUB_RUN_ID",
  "GITHUB_RUN_NUMBER",
  "GITHUB_RUN_ATTEMPT",
  "GITHUB_JOB",
  "GITHUB_WORKFLOW",
  "GITHUB_WORKFLOW_REF",
  "GITHUB_WORKFLOW_SHA",
  "GITHUB_ACTOR",
  "GITHUB_ACTOR_ID",
  "GITHUB_TRIGGERING_ACTOR",
  "GITHUB_RETENTION_DAYS",
  "GITHUB_ACTION",
  "GITHUB_ACTION_REF",
  "GITHUB_ACTION_REPOSITORY",
  "GITHUB_ACTIONS_ORCHESTRATION_ID",
  "ACTIONS_ORCHESTRATION_ID",
  "RUNNER_TRACKING_ID",
  "RUNNER_DEBUG",
  "ACTIONS_RUNNER_DEBUG",
  "ACTIONS_STEP_DEBUG",
  "INVOCATION_ID",
  "JOURNAL_STREAM",
] as const;

/**
 * The Action's own inputs (`INPUT_<NAME>`): runner B's dispatch gives it `pull-request`, `head-sha`
 * and `dual-run-id` that runner A's run does not have. Never in the run, whatever the envelope lists.
 */
const ACTION_INPUT_PREFIX = "INPUT_";

/**
 * Keys the run wrapper reads to hide what they name (the event payload, the file-command files,
 * the Action's directory; src/observer/runner-layout.ts). They stay in the wrapper's environment,
 * and like the removed keys a pattern or a set never lets them into the run.
 */
export const RUN_IDENTITY_WRAPPER = [
  "GITHUB_EVENT_PATH",
  "GITHUB_ACTION_PATH",
  "GITHUB_ENV",
  "GITHUB_OUTPUT",
  "GITHUB_PATH",
  "GITHUB_STATE",
  "GITHUB_STEP_SUMMARY",
] as const;

const NEVER_BY_PATTERN = new Set<string>([...RUN_IDENTITY_REMOVED, ...RUN_IDENTITY_WRAPPER]);

/**
 * A run-identity key whose value cannot be made equal on A and B. Like a machine key (never-proposed.ts) it is never
 * matched by a pattern or a set (`GITHUB_*` does not allow `GITHUB_RUN_ID`); the Action takes the
 * removed ones out of the run whatever the envelope lists. The canonical keys are not in it: the
 * Action gives them one value on both runners, so `@ci` may still let `GITHUB_EVENT_NAME` in.
 */
export function isRunIdentityKey(key: string): boolean {
  return NEVER_BY_PATTERN.has(key) || key.startsWith(ACTION_INPUT_PREFIX);
}

/** The pull request a jailed run works on, as the API names it (never the event's copy). */
export interface RunPullRequest {
  number: number;
  headSha: string;
  baseRef: string;
  headRef: string;
}

/** Which run this is; the environment is the same for each, by design. */
export type RunRole = "runner_a" | "runner_b" | "plain";

/**
 * The environment the Action hands the run wrapper for a jailed run of `pull`: the caller's,
 * with the canonical run-identity keys set to values made of the pull request alone and the
 * removed ones (and the Action's own `INPUT_*` keys) taken out. Runner A (a `pull_request` run), runner B (dispatched on the base for
 * this pull request and head) and a plain run (any other trigger) get the same values: what a
 * run sees depends on the pull request it checks, never on how it was started. The envelope's
 * filter then applies in the wrapper as for any other key.
 */
export function runEnvironment(
  caller: Readonly<Record<string, string | undefined>>,
  _role: RunRole,
  pull: RunPullRequest,
): Record<string, string> {
  const out: Record<string, string> = {};
  const removed = new Set<string>(RUN_IDENTITY_REMOVED);
  for (const [key, value] of Object.entries(caller)) {
    if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX)) out[key] = value;
  }
  const canonical: Record<(typeof RUN_IDENTITY_CANONICAL)[number], string> = {
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_SHA: pull.headSha,
    GITHUB_REF: `refs/pull/${pull.number}/merge`,
    GITHUB_REF_NAME: `${pull.number}/merge`,
    GITHUB_REF_TYPE: "branch",
    GITHUB_REF_PROTECTED: "false",
    GITHUB_HEAD_REF: pull.headRef,
    GITHUB_BASE_REF: pull.baseRef,
  };
  return { ...out, ...canonical };
}

/**
 * The environment for an audit run on a branch commit (a push or a dispatch: no pull request,
 * nothing to compare with another runner): the caller's, with the removed run-identity keys and
 * the Action's own `INPUT_*` keys (its token among them) taken out as for runEnvironment. The
 * canonical keys keep the caller's values, which name the branch and commit truthfully.
 */
export function commitRunEnvironment(caller: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const removed = new Set<string>(RUN_IDENTITY_REMOVED);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(caller)) {
    if (value !== undefined && !removed.has(key) && !key.startsWith(ACTION_INPUT_PREFIX)) out[key] = value;
  }
  return out;
}

/**
 * The keys the run wrapper itself sets under `network: "allowlist"`, whatever `allowed_env` says
 * (src/observer/egress.ts proxyEnv: the proxy variables pointing at the egress relay, and
 * NODE_USE_ENV_PROXY). Under allowlist their reads are recorded and not judged, from any
 * source, and `suggest` never proposes them; under `deny` they are not set and judged like any key.
 */
export const PROXY_ENV_KEYS: ReadonlySet<string> = new Set([
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "NODE_USE_ENV_PROXY",
]);
