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
 * A key that names a credential. Such a key is never matched by a pattern or a set: an envelope
 * that allows it lists it exactly, so `GITHUB_*` never lets `GITHUB_TOKEN` into the run. Besides
 * the names that say so, the keys whose values are credentials by convention: passphrases and
 * short password names (`GPG_PASSPHRASE`, `MYSQL_PWD`, `SMTP_PASS`), JWTs (GitLab's `CI_JOB_JWT`),
 * DSNs, webhooks and connection strings (`SENTRY_DSN`, `SLACK_WEBHOOK_URL`,
 * `AZURE_STORAGE_CONNECTION_STRING`), licence keys, git's extra headers, and the URLs that carry
 * a password or a job token (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, GitLab's `CI_REPOSITORY_URL`).
 */
export const CREDENTIAL_KEY = new RegExp(
  [
    "SECRET|TOKEN|PASSW(?:OR)?D|PASSPHRASE|(?:^|_)PASS(?:_|$)|_PWD$|CREDENTIAL|PRIVATE",
    "(?:^|_)(?:API_?)?KEYS?(?:_|$)|APIKEY|AUTH|COOKIE|SESSION|(?:^|_)PAT(?:_|$)",
    "JWT|DSN|WEBHOOK(?:_?UR[LI])?$|CONN(?:ECTION)?_?STR|LICENSE|EXTRAHEADER",
    "(?:^|_)(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|MYSQL|CI_REPOSITORY)_UR[LI]$",
  ].join("|"),
  "i",
);

/**
 * A key that names the machine or the runner on it (the runner's name, its tracking id, the
 * image, the host name, a CI agent's name or id, systemd's per-invocation ids). Like a
 * credential-named key it is never matched by a pattern or a set (`RUNNER_*` does not allow
 * `RUNNER_NAME`): PR code that could read it could make a test fail on one runner's machine
 * only, and so pick the verdicts of the two runs a freeze compares. An envelope that needs one
 * lists it exactly. Inside the jail `HOSTNAME` and `HOST` then carry the jail's fixed hostname.
 */
export const MACHINE_KEY =
  /^(?:RUNNER_(?:NAME|TRACKING_ID|ENVIRONMENT)|ImageOS|ImageVersion|HOSTNAME|HOST|COMPUTERNAME|NODE_NAME|AGENT_(?:NAME|MACHINENAME|ID)|CI_RUNNER_(?:ID|DESCRIPTION|TAGS|VERSION|REVISION|EXECUTABLE_ARCH)|BUILDKITE_AGENT_(?:NAME|ID)|INVOCATION_ID|JOURNAL_STREAM)$/;
