/**
 * Visibility by need, in the layouts the Action really runs in. Each layout is built in a
 * temporary directory: the runner's own directory with its credentials, RUNNER_TEMP with a step
 * script, the file-command files, the event payload, the Actions the job downloaded and the
 * CLI among them, and the runner's Node (the CLI is run by it, as the runner runs the Action).
 * The hostile program reads and copies each secret into the workspace; the clean twin does its
 * work with the same wrapper, under allowlist (its relay comes from the stage, not the install).
 */
import { giveToNobody } from "../support/nobody.js";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, CLI, ROOT, ids, sandbox, spawnNode, type Sandbox } from "./harness.js";

/** Directories under /tmp this file made (the harness removes its sandboxes itself). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Layout {
  s: Sandbox;
  home: string;
  node: string;
  cli: string;
  workspace: string;
  scratch: string;
  env: Record<string, string>;
  /** Files the command must not read: path -> content. */
  secrets: string[];
  /** Directories it must not list. */
  private: string[];
  /** Directories meta.jail.hidden must name. */
  hidden: string[];
}

function put(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: 0o644 });
  return path;
}

function runnerNode(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  try {
    linkSync(process.execPath, path);
  } catch {
    cpSync(process.execPath, path);
  }
  return path;
}

/** The product installed where the runner puts a Marketplace Action. */
function installAction(actionsDir: string): { actionPath: string; cli: string } {
  const actionPath = join(actionsDir, "acme", "envelope-gate", "v1");
  mkdirSync(actionPath, { recursive: true });
  cpSync(join(ROOT, "dist"), join(actionPath, "dist"), { recursive: true });
  return { actionPath, cli: join(actionPath, "dist", "cli", "index.js") };
}

function fileCommands(runnerTemp: string): Record<string, string> {
  const dir = join(runnerTemp, "_runner_file_commands");
  const files = {
    GITHUB_ENV: put(join(dir, "set_env_1"), "SECRET_FROM_GITHUB_ENV=1\n"),
    GITHUB_PATH: put(join(dir, "add_path_1"), ""),
    GITHUB_OUTPUT: put(join(dir, "set_output_1"), "secret-output=1\n"),
    GITHUB_STATE: put(join(dir, "save_state_1"), ""),
    GITHUB_STEP_SUMMARY: put(join(dir, "step_summary_1"), ""),
    GITHUB_EVENT_PATH: put(join(runnerTemp, "_github_workflow", "event.json"), '{"secret":"event"}'),
  };
  return files;
}

const ENVELOPE = { network: "allowlist", allowed_hosts: [] as string[] };

/** GitHub-hosted: HOME /home/runner, the runner in $HOME/runners/<v>, the job in $HOME/work. */
function hosted(): Layout {
  const s = sandbox(ENVELOPE);
  const home = join(s.base, "home", "runner");
  const runnerDir = join(home, "runners", "2.330.0");
  const node = runnerNode(join(runnerDir, "externals", "node24", "bin", "node"));
  const work = join(home, "work");
  const runnerTemp = join(work, "_temp");
  const workspace = join(work, "widgets", "widgets");
  mkdirSync(workspace, { recursive: true });
  const { actionPath, cli } = installAction(join(work, "_actions"));
  const secrets = [
    put(join(runnerDir, ".credentials"), '{"scheme":"OAuth","data":{"token":"runner-secret"}}'),
    put(join(runnerDir, ".credentials_rsaparams"), '{"d":"private-key"}'),
    put(join(runnerDir, ".runner"), '{"agentId":1}'),
    put(join(runnerDir, "_diag", "Worker_1.log"), "secret in a diagnostic log"),
    put(join(home, "runners", ".credentials"), "runner-secret"),
    put(join(runnerTemp, "0b0c4a6e-step.sh"), "curl -H 'Authorization: secret-in-step-script'\n"),
    put(join(work, "_tool", "cache.secret"), "tool cache"),
    put(join(home, ".ssh", "id_rsa"), "ssh key"),
    join(actionPath, "dist", "index.js"),
  ];
  const commands = fileCommands(runnerTemp);
  secrets.push(...Object.values(commands));
  const scratch = join(runnerTemp, "envelope-gate-scratch");
  return {
    s,
    home,
    node,
    cli,
    workspace,
    scratch,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      RUNNER_TEMP: runnerTemp,
      RUNNER_WORKSPACE: join(work, "widgets"),
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      // The wrapper's own temporary directory in RUNNER_TEMP (a job that sets TMPDIR so): its
      // stage directory is shown inside the cover.
      TMPDIR: runnerTemp,
      ...commands,
    },
    secrets,
    private: [runnerDir, join(home, "runners"), runnerTemp, join(work, "_actions"), join(runnerDir, "_diag")],
    hidden: [runnerDir, join(home, "runners"), runnerTemp, join(work, "_actions")],
  };
}

/** Self-hosted, installed outside HOME: /opt/actions-runner with _work, _diag and its credentials. */
function selfHosted(): Layout {
  const s = sandbox(ENVELOPE);
  const runnerDir = join(s.base, "opt", "actions-runner");
  const node = runnerNode(join(runnerDir, "externals", "node24", "bin", "node"));
  const work = join(runnerDir, "_work");
  const runnerTemp = join(work, "_temp");
  const workspace = join(work, "widgets", "widgets");
  mkdirSync(workspace, { recursive: true });
  const home = join(s.base, "home", "ci");
  mkdirSync(home, { recursive: true });
  const { actionPath, cli } = installAction(join(work, "_actions"));
  const secrets = [
    put(join(runnerDir, ".credentials"), '{"scheme":"OAuth","data":{"token":"runner-secret"}}'),
    put(join(runnerDir, ".credentials_rsaparams"), '{"d":"private-key"}'),
    put(join(runnerDir, ".runner"), '{"agentId":1}'),
    put(join(runnerDir, ".env"), "SECRET=1\n"),
    put(join(runnerDir, "_diag", "Runner_1.log"), "secret in a diagnostic log"),
    put(join(runnerTemp, "0b0c4a6e-step.sh"), "curl -H 'Authorization: secret-in-step-script'\n"),
    put(join(work, "_tool", "cache.secret"), "tool cache"),
    put(join(work, "other-repo", "other-repo", "secret.txt"), "another job's checkout"),
    join(actionPath, "dist", "index.js"),
  ];
  const commands = fileCommands(runnerTemp);
  secrets.push(...Object.values(commands));
  return {
    s,
    home,
    node,
    cli,
    workspace,
    scratch: join(runnerTemp, "envelope-gate-scratch"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      RUNNER_TEMP: runnerTemp,
      RUNNER_WORKSPACE: join(work, "widgets"),
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      ...commands,
    },
    secrets,
    private: [runnerDir, runnerTemp, join(work, "_actions"), join(runnerDir, "_diag")],
    hidden: [runnerDir, join(work, "_actions"), runnerTemp, join(work, "_tool")],
  };
}

const HOSTILE = `
const fs = require("fs"), path = require("path");
const [secrets, dirs, out] = JSON.parse(process.argv[2]);
const result = { read: {}, listed: {} };
fs.mkdirSync(path.join(out, "stolen"), { recursive: true });
for (const p of secrets) {
  try {
    const text = fs.readFileSync(p);
    result.read[p] = "read";
    fs.writeFileSync(path.join(out, "stolen", p.replace(/\\//g, "_")), text);
  } catch (e) { result.read[p] = e.code; }
}
for (const d of dirs) {
  try { result.listed[d] = fs.readdirSync(d); } catch (e) { result.listed[d] = e.code; }
}
fs.writeFileSync(path.join(out, "result.json"), JSON.stringify(result));
`;

type Mode = "as the test's user" | "as nobody";
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

function openUp(l: Layout, mode: Mode): void {
  // Everything readable by everyone on the host: only the jail can keep the hostile program out.
  spawnSync("chmod", ["-R", "a+rX", l.s.base]);
  mkdirSync(l.scratch, { recursive: true });
  // nobody's run writes them as their owner (a world-writable directory is hidden in the jail).
  if (mode === "as nobody") giveToNobody(l.s.base, l.workspace, l.home, l.env.RUNNER_TEMP as string, l.scratch);
}

async function runIn(
  l: Layout,
  mode: Mode,
  command: string[],
): Promise<{ code: number | null; stderr: string; lines: Record<string, unknown>[]; report: Record<string, unknown> }> {
  const log = join(l.s.base, "observer.jsonl");
  const args = [
    l.cli,
    "run",
    "--envelope",
    l.s.envelope,
    "--observer",
    log,
    "--workspace",
    l.workspace,
    "--scratch",
    l.scratch,
    "--",
    ...command,
  ];
  const r =
    mode === "as nobody"
      ? await spawnNode([...NOBODY, l.node, ...args], { cwd: l.workspace, env: l.env, exec: "setpriv" })
      : await spawnNode(args, { cwd: l.workspace, env: l.env, exec: l.node });
  const lines = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((x) => x !== "")
        .map((x) => JSON.parse(x) as Record<string, unknown>)
    : [];
  const meta = lines[0] ?? {};
  const checked = await spawnNode([
    l.cli,
    "check",
    "--envelope",
    l.s.envelope,
    "--observer",
    log,
    "--workspace",
    l.workspace,
    "--scratch",
    String(meta.scratch ?? l.scratch),
    "--format",
    "json",
  ]);
  return { code: r.code, stderr: r.stderr, lines, report: JSON.parse(checked.stdout) as Record<string, unknown> };
}

const LAYOUTS: [string, () => Layout][] = [
  ["GitHub-hosted (runner and job under HOME)", hosted],
  ["self-hosted outside HOME (/opt/actions-runner)", selfHosted],
];

for (const mode of ["as the test's user", "as nobody"] as Mode[])
  for (const [name, build] of LAYOUTS)
    describe.skipIf(mode === "as nobody" && !CAN_RUN_AS_NOBODY)(`the jail in a ${name} layout (${mode})`, () => {
      it("the runner's credentials, RUNNER_TEMP, file commands, event, Actions and tools are not readable; nothing reaches the workspace", async () => {
        const l = build();
        openUp(l, mode);
        // On the host each secret is there and readable by the wrapper's user.
        for (const p of l.secrets) {
          const probe = spawnSync(mode === "as nobody" ? "setpriv" : "cat", mode === "as nobody" ? [...NOBODY, "cat", p] : [p], {
            stdio: "ignore",
          });
          expect(probe.status, p).toBe(0);
        }
        const script = join(l.workspace, "hostile.js");
        writeFileSync(script, HOSTILE, { mode: 0o644 });
        const r = await runIn(l, mode, ["node", script, JSON.stringify([l.secrets, l.private, l.workspace])]);
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.lines.at(-1)?.kind).toBe("end");
        const seen = JSON.parse(readFileSync(join(l.workspace, "result.json"), "utf8")) as {
          read: Record<string, string>;
          listed: Record<string, string | string[]>;
        };
        for (const p of l.secrets) expect(seen.read[p], p).not.toBe("read");
        for (const d of l.private) {
          const listed = seen.listed[d];
          // Absent, or an empty cover with at most the mount points the jail needs (roots, Node's install, the stage).
          if (Array.isArray(listed))
            expect(
              listed.filter(
                (e) =>
                  !["externals", "_work", "2.330.0", "envelope-gate-scratch", "widgets"].includes(e) &&
                  !e.startsWith("envelope-gate-observer-"),
              ),
              d,
            ).toEqual([]);
        }
        expect(readdirSync(join(l.workspace, "stolen"))).toEqual([]);
        const jail = r.lines[0]?.jail as { hidden: string[]; visible_read_only: string[] };
        for (const h of l.hidden) expect(jail.hidden).toContain(h);
        // The runner's Node is shown as its own install, never the runner's directory.
        expect(jail.visible_read_only).toContain(dirname(dirname(l.node)));
        expect((r.report as { error: unknown }).error).toBeNull();
      });

      it("clean twin: the same wrapper run by the runner's Node, under allowlist, with the Action's scratch in RUNNER_TEMP, passes", async () => {
        const l = build();
        openUp(l, mode);
        const out = join(l.workspace, "out.txt");
        const r = await runIn(l, mode, [
          "node",
          "-e",
          `const fs = require("fs"); fs.writeFileSync("/tmp/t", "t"); fs.writeFileSync(${JSON.stringify(out)}, fs.readFileSync("/tmp/t", "utf8") + "ok");`,
        ]);
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.code).toBe(0);
        expect(readFileSync(out, "utf8")).toBe("tok");
        expect(r.lines[0]?.scratch).toBe(l.scratch);
        expect(ids(r.report as never)).toEqual([]);
        expect((r.report as { verdict: string }).verdict).toBe("pass");
      });
    });

/** A workspace, scratch and working directory under /tmp or HOME, the product installed under /tmp. */
describe("the jail where the run's directories and the product live under /tmp or HOME", () => {
  const product = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "eg-product-"));
    made.push(dir);
    cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true });
    return join(dir, "dist", "cli", "index.js");
  };

  async function runAt(
    s: Sandbox,
    dirs: { cli: string; home: string; workspace: string; scratch: string; cwd: string },
    command: string[],
  ): Promise<{ code: number | null; stderr: string; lines: Record<string, unknown>[]; report: Record<string, unknown> | null }> {
    const log = join(s.base, "observer.jsonl");
    const common = ["--envelope", s.envelope, "--observer", log, "--workspace", dirs.workspace, "--scratch", dirs.scratch];
    const r = await spawnNode([dirs.cli, "run", ...common, "--", ...command], {
      cwd: dirs.cwd,
      env: { PATH: process.env.PATH, HOME: dirs.home },
    });
    const lines = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((x) => x !== "")
          .map((x) => JSON.parse(x) as Record<string, unknown>)
      : [];
    const checked = lines.length > 0 ? await spawnNode([dirs.cli, "check", ...common, "--format", "json"]) : null;
    return {
      code: r.code,
      stderr: r.stderr,
      lines,
      report: checked === null ? null : (JSON.parse(checked.stdout) as Record<string, unknown>),
    };
  }

  const CASES: [string, (s: Sandbox, tmpBase: string) => { home: string; workspace: string; scratch: string }][] = [
    ["workspace and scratch under /tmp", (s, t) => ({ home: s.home, workspace: join(t, "ws"), scratch: join(t, "scratch") })],
    [
      "workspace and scratch under HOME",
      (s) => ({ home: s.home, workspace: join(s.home, "project"), scratch: join(s.home, ".cache", "eg-scratch") }),
    ],
    [
      "workspace under HOME, scratch under /tmp",
      (s, t) => ({ home: s.home, workspace: join(s.home, "project"), scratch: join(t, "scratch") }),
    ],
    [
      "workspace under /tmp, HOME under /tmp too",
      (s, t) => ({ home: join(t, "home"), workspace: join(t, "ws"), scratch: join(t, "scratch") }),
    ],
  ];
  for (const [name, layout] of CASES)
    it(`${name}, under allowlist, with the product under /tmp: the canary and a clean command pass`, async () => {
      const s = sandbox(ENVELOPE);
      const t = mkdtempSync(join(tmpdir(), "eg-layout-"));
      made.push(t);
      const dirs = layout(s, t);
      for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
      const out = join(dirs.workspace, "out.txt");
      const r = await runAt(s, { ...dirs, cli: product(), cwd: dirs.workspace }, [
        "sh",
        "-c",
        `echo t > /tmp/t && echo h > ${dirs.home}/h && cat /tmp/t ${dirs.home}/h > ${out}`,
      ]);
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.code).toBe(0);
      expect(readFileSync(out, "utf8")).toBe("t\nh\n");
      expect((r.report as { verdict: string }).verdict).toBe("pass");
    });

  for (const mode of ["as the test's user", "as nobody"] as Mode[])
    it.skipIf(mode === "as nobody" && !CAN_RUN_AS_NOBODY)(
      `a working directory the jail hides (in HOME, outside every root) is refused: JAIL_CWD_HIDDEN, nothing runs (${mode})`,
      async () => {
        const s = sandbox();
        const cwd = join(s.home, "elsewhere");
        mkdirSync(cwd);
        const marker = join(s.workspace, "ran");
        const log = join(s.base, "observer.jsonl");
        spawnSync("chmod", ["-R", "a+rwX", s.base]);
        const cli = mode === "as nobody" ? product() : CLI;
        if (mode === "as nobody") spawnSync("chmod", ["-R", "a+rX", dirname(dirname(dirname(cli)))]);
        const args = [cli, "run", "--envelope", s.envelope, "--observer", log, "--workspace", s.workspace, "--scratch", s.scratch];
        const command = ["sh", "-c", `touch ${marker}`];
        const env = { PATH: process.env.PATH, HOME: s.home };
        const r =
          mode === "as nobody"
            ? await spawnNode([...NOBODY, process.execPath, ...args, "--", ...command], { cwd, env, exec: "setpriv" })
            : await spawnNode([...args, "--", ...command], { cwd, env });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain("JAIL_CWD_HIDDEN");
        expect(existsSync(marker)).toBe(false);
        expect(readFileSync(log, "utf8")).toBe("");
        // Clean twin: the same run from the workspace.
        const twin = await spawnNode([...(mode === "as nobody" ? [...NOBODY, process.execPath] : []), ...args, "--", ...command], {
          cwd: s.workspace,
          env,
          ...(mode === "as nobody" ? { exec: "setpriv" } : {}),
        });
        expect(twin.stderr).not.toContain("envelope-gate:");
        expect(existsSync(marker)).toBe(true);
      },
    );
});
