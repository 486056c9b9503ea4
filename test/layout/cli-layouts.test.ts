/**
 * The command line where users really install it (issue 17 item 8): under /tmp
 * (`npm install --prefix /tmp/...`), in an npx cache under HOME
 * (`$HOME/.npm/_npx/<hash>/node_modules/envelope-gate`), and in a clone in a `mktemp -d` folder.
 * `envelope-gate run` + `check` directly; under `network: "allowlist"` the run must not be
 * refused wherever the product sits, an allowed host must be reachable through the egress proxy
 * and a denied one judged. As root and as an unprivileged user.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JAIL_AVAILABLE } from "../observer/harness.js";
import { EGRESS_PY, PYTHON, targetsFile } from "../support/layout-programs.js";
import { CAN_RUN_AS_NOBODY, LAYOUT_TMP, NOBODY_UID, ROOT } from "../support/runner-layout.js";

type Install = "tmp" | "npx" | "clone" | "opt";

const DENIED_HOST = "198.51.100.7";
const made: string[] = [];

let upstream: http.Server;
let upstreamPort = 0;
beforeAll(async () => {
  upstream = http.createServer((_req, res) => res.end("upstream-ok"));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => upstream.close(r));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every directory below `top` down to `path` readable and searchable by everyone (mkdtemp makes 0700). */
function openBelow(top: string, path: string): void {
  for (let p = path; p.startsWith(`${top}/`); p = dirname(p)) chmodSync(p, 0o755);
}

interface Layout {
  root: string;
  home: string;
  workspace: string;
  scratch: string;
  cli: string;
  envelope: string;
}

function installProduct(target: string): void {
  mkdirSync(target, { recursive: true });
  for (const f of ["package.json", "action.yml"]) cpSync(join(ROOT, f), join(target, f));
  cpSync(join(ROOT, "dist"), join(target, "dist"), { recursive: true });
  cpSync(join(ROOT, "schema"), join(target, "schema"), { recursive: true });
}

function makeCliLayout(install: Install, network: "deny" | "allowlist", asNobody: boolean, program: string): Layout {
  const root = realpathSync(mkdtempSync(join(LAYOUT_TMP, `eg-cli-layout-${install}-`)));
  made.push(root);
  const home = join(root, "home/dev");
  const workspace = join(root, "work/proj");
  const scratch = join(root, "scratch");
  for (const d of [home, workspace, scratch]) mkdirSync(d, { recursive: true });
  let product: string;
  if (install === "tmp") {
    const prefix = realpathSync(mkdtempSync(join(tmpdir(), "eg-cli-prefix-")));
    made.push(prefix);
    product = join(prefix, "node_modules/envelope-gate");
  } else if (install === "npx") {
    product = join(home, `.npm/_npx/${randomBytes(8).toString("hex")}/node_modules/envelope-gate`);
  } else if (install === "opt") {
    product = join(root, "opt/envelope-gate");
  } else {
    // What `mktemp -d` makes: /tmp/tmp.XXXXXXXXXX.
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "tmp.")));
    made.push(dir);
    product = join(dir, "envelope-gate");
  }
  installProduct(product);
  const egress = { allowed: `http://127.0.0.1:${upstreamPort}/ok`, denied: `http://${DENIED_HOST}/x` };
  writeFileSync(join(workspace, "egress.py"), program);
  writeFileSync(
    join(workspace, "layout-targets.json"),
    targetsFile({ root, home, workspace, runnerTemp: scratch, runnerDir: null, actionPath: product, pwned: root }, egress),
  );
  const envelope = join(root, "envelope.json");
  const text =
    JSON.stringify(
      {
        envelope_id: "cli-layout-envelope-v1",
        allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
        allowed_tools: [],
        allowed_env: ["PATH", "HTTP_PROXY"],
        allowed_hosts: network === "allowlist" ? [`127.0.0.1:${upstreamPort}`] : [],
        network,
        allowed_commands: [PYTHON.split("/").pop() as string],
      },
      null,
      2,
    ) + "\n";
  writeFileSync(envelope, text);
  writeFileSync(`${envelope}.sha256`, `${createHash("sha256").update(text).digest("hex")}  envelope.json\n`);
  if (asNobody) {
    openBelow(product.startsWith(`${root}/`) ? root : realpathSync(tmpdir()), product);
    chmodSync(root, 0o755);
    for (const p of [
      root,
      join(root, "home"),
      home,
      join(root, "work"),
      workspace,
      scratch,
      join(workspace, "egress.py"),
      join(workspace, "layout-targets.json"),
    ])
      lchownSync(p, NOBODY_UID, NOBODY_UID);
  }
  return { root, home, workspace, scratch, cli: join(product, "dist/cli/index.js"), envelope };
}

function spawnCollect(
  exec: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(exec, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

async function runAndCheck(l: Layout, asNobody: boolean, args: string[]) {
  const log = join(l.workspace, "..", "observer.jsonl");
  const common = ["--envelope", l.envelope, "--observer", log, "--workspace", l.workspace, "--scratch", l.scratch];
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: l.home, LANG: "C.UTF-8" };
  const node = process.execPath;
  const wrap = (a: string[]): [string, string[]] =>
    asNobody ? ["setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", node, ...a]] : [node, a];
  if (asNobody) lchownSync(dirname(log), NOBODY_UID, NOBODY_UID);
  const ran = await spawnCollect(...wrap([l.cli, "run", ...common, "--", PYTHON, "egress.py", ...args]), l.workspace, env);
  const checked = await spawnCollect(...wrap([l.cli, "check", ...common, "--format", "json"]), l.workspace, env);
  const findingsPath = join(l.workspace, "findings.json");
  const findings = existsSync(findingsPath) ? (JSON.parse(readFileSync(findingsPath, "utf8")) as Record<string, string>) : {};
  let report: { verdict?: string; violations?: { id: string }[]; error?: { code: string } | null } = {};
  try {
    report = JSON.parse(checked.stdout) as typeof report;
  } catch {
    report = {};
  }
  return {
    ran,
    report,
    findings,
    ids: (report.violations ?? []).map((v) => v.id),
    trace: `run exit ${ran.code}\n${ran.stderr.slice(-3000)}\ncheck exit ${checked.code}\n${checked.stdout.slice(0, 3000)}${checked.stderr.slice(0, 2000)}`,
  };
}

const INSTALLS: { install: Install; where: string }[] = [
  { install: "tmp", where: "installed under /tmp (npm install --prefix)" },
  { install: "npx", where: "in an npx cache under HOME" },
  { install: "clone", where: "in a clone in a mktemp -d folder" },
  // The control: outside HOME and /tmp the product is visible in the jail even without the staging.
  { install: "opt", where: "installed outside HOME and /tmp (the control)" },
];

for (const { install, where } of INSTALLS) {
  for (const asNobody of [false, true]) {
    describe.skipIf(!JAIL_AVAILABLE || (asNobody && !CAN_RUN_AS_NOBODY))(
      `the CLI ${where}, ${asNobody ? "as nobody" : "as root"}`,
      { timeout: 120_000 },
      () => {
        it('network: "allowlist": the run is not refused, the allowed host answers through the proxy, a denied one is judged', async () => {
          const l = makeCliLayout(install, "allowlist", asNobody, EGRESS_PY);
          const r = await runAndCheck(l, asNobody, ["--also-denied"]);
          expect(r.ran.code, r.trace).toBe(0);
          expect(r.findings.egress_allowed, r.trace).toBe("200:upstream-ok");
          expect(r.findings.egress_denied, r.trace).toMatch(/^403:/);
          expect(r.report.verdict, r.trace).toBe("envelope_fail");
          expect(r.ids).toEqual([`undeclared_host:${DENIED_HOST}:80`]);
        });

        it('network: "allowlist", the clean twin: only the allowed host, and it passes', async () => {
          const l = makeCliLayout(install, "allowlist", asNobody, EGRESS_PY);
          const r = await runAndCheck(l, asNobody, []);
          expect(r.ran.code, r.trace).toBe(0);
          expect(r.findings.egress_allowed, r.trace).toBe("200:upstream-ok");
          expect(r.report.verdict, r.trace).toBe("pass");
          expect(r.ids).toEqual([]);
        });
      },
    );
  }
}
