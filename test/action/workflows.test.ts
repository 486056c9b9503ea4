/**
 * Issue 30, item 4: no code of the pull request runs outside the jail before the gate, in this
 * repository's workflows and every workflow the docs show (README.md, docs/*.md yaml blocks).
 * The heuristics are docs/action.md's ("Installing dependencies"): in a job that runs the gate,
 * after a checkout of the head, no step before the gate starts a package manager, a build tool,
 * an interpreter on a file or a repository path in the head's checkout, and no local `uses:`
 * outside a checkout of the base. Each rule has an attack fixture it catches and a twin it passes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";

type Step = Record<string, unknown>;

/** Every workflow of .github/workflows and every yaml block of the README and docs/, by name. */
function workflowTexts(): [string, string][] {
  const texts: [string, string][] = readdirSync(".github/workflows").map((f) => [
    `.github/workflows/${f}`,
    readFileSync(`.github/workflows/${f}`, "utf8"),
  ]);
  for (const file of ["README.md", ...readdirSync("docs").map((f) => `docs/${f}`)]) {
    let n = 0;
    for (const m of readFileSync(file, "utf8").matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm))
      texts.push([`${file} yaml block ${++n}`, m[1] as string]);
  }
  return texts;
}

/** The step lists of a parsed workflow (its jobs), a bare job fragment (`steps:`), or a bare list of steps. */
function jobsOf(doc: unknown): { name: string; steps: Step[]; workdir: string }[] {
  if (Array.isArray(doc)) return [{ name: "(steps)", steps: doc as Step[], workdir: "." }];
  if (typeof doc !== "object" || doc === null) return [];
  const d = doc as Record<string, unknown>;
  const job = (name: string, j: Record<string, unknown>) => ({
    name,
    steps: Array.isArray(j.steps) ? (j.steps as Step[]) : [],
    workdir: String(((j.defaults as { run?: Record<string, unknown> } | undefined)?.run ?? {})["working-directory"] ?? "."),
  });
  if (typeof d.jobs === "object" && d.jobs !== null) {
    return Object.entries(d.jobs as Record<string, Record<string, unknown>>).map(([name, j]) => job(name, j ?? {}));
  }
  return Array.isArray(d.steps) ? [job("(job)", d)] : [];
}

const isGate = (uses: unknown) => typeof uses === "string" && /envelope-gate/i.test(uses) && !/^actions\//.test(uses);
const norm = (p: string) => p.replace(/^\.\/+/, "").replace(/\/+$/, "") || ".";
const inside = (dir: string, root: string) => root === "." || dir === root || dir.startsWith(`${root}/`);

const PACKAGE_MANAGERS = new Set([
  "npm",
  "npx",
  "yarn",
  "pnpm",
  "bun",
  "pip",
  "pip3",
  "pipenv",
  "poetry",
  "uv",
  "cargo",
  "go",
  "gradle",
  "mvn",
  "bundle",
  "composer",
  "dotnet",
  "rake",
]);
const BUILD_TOOLS = new Set(["make", "cmake", "ninja", "meson"]);
const INTERPRETERS = new Set(["node", "python", "python3", "bash", "sh", "zsh", "ruby", "perl", "deno", "php"]);

/** Why one shell command runs repository code, or null. */
function runsRepoCode(command: string): string | null {
  const words = command.trim().split(/\s+/).filter(Boolean);
  while (
    words.length > 0 &&
    (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string) || ["sudo", "-E", "time", "exec", "env"].includes(words[0] as string))
  )
    words.shift();
  const [first, ...args] = words;
  if (first === undefined || first.startsWith("#")) return null;
  if (PACKAGE_MANAGERS.has(first)) return `${first} ${args.join(" ")}`.trim();
  if (BUILD_TOOLS.has(first)) return first;
  if (INTERPRETERS.has(first)) {
    if (args[0] === "-c" || args[0] === "-e") {
      const inner = args
        .slice(1)
        .join(" ")
        .replace(/^["']|["']$/g, "");
      return first === "node" ? `node ${args.join(" ")}` : shellRunsRepoCode(inner);
    }
    return args.some((a) => !a.startsWith("-")) ? `${first} ${args.join(" ")}` : null;
  }
  if (first.startsWith("./") || (first.includes("/") && !first.startsWith("/") && !first.startsWith("$"))) return first;
  return null;
}

/** Why a `run:` text runs repository code (its commands split at newlines, `&&`, `||`, `;`, `|`), or null. */
function shellRunsRepoCode(text: string): string | null {
  for (const line of text.split("\n")) {
    const code = line.replace(/(^|\s)#.*$/, "");
    for (const command of code.split(/&&|\|\||;|\|/)) {
      const why = runsRepoCode(command);
      if (why !== null) return why;
    }
  }
  return null;
}

/** The steps before the gate that run the head's code, as `job: step n: why`. */
function headCodeBeforeGate(text: string, file: string): { gates: number; findings: string[] } {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
  let gates = 0;
  const findings: string[] = [];
  for (const job of jobsOf(doc.toJS())) {
    const gate = job.steps.findIndex((s) => isGate(s?.uses));
    if (gate < 0) continue;
    gates++;
    const checkouts: { path: string; base: boolean }[] = [];
    const checkoutOf = (dir: string) =>
      checkouts.filter((c) => inside(dir, c.path)).sort((a, b) => b.path.length - a.path.length)[0] ?? null;
    job.steps.slice(0, gate).forEach((step, i) => {
      const at = `${file}: job ${job.name}, step ${i + 1}`;
      const uses = typeof step.uses === "string" ? step.uses : null;
      const w = (step.with ?? {}) as Record<string, unknown>;
      if (uses !== null && /^actions\/checkout@/.test(uses)) {
        checkouts.push({
          path: norm(String(w.path ?? ".")),
          base: /pull_request\.base\.(ref|sha)|default_branch/.test(String(w.ref ?? "")),
        });
        return;
      }
      if (uses !== null && uses.startsWith(".")) {
        const where = checkoutOf(norm(uses));
        if (where !== null && !where.base) findings.push(`${at}: uses ${uses}, a local action of the head`);
        return;
      }
      if (typeof step.run !== "string") return;
      const dir = norm(String(step["working-directory"] ?? job.workdir));
      const where = checkoutOf(dir);
      if (where === null || where.base) return;
      const why = shellRunsRepoCode(step.run);
      if (why !== null) findings.push(`${at}: runs ${why} in the head's checkout`);
    });
  }
  return { gates, findings };
}

const CHECKOUT_HEAD =
  "      - uses: actions/checkout@v4\n        with: { ref: '${{ github.event.pull_request.head.sha }}', persist-credentials: false }\n";
const GATE = "      - id: gate\n        uses: envelope-gate/envelope-gate@v1\n        with: { run: npm test }\n";
const job = (steps: string) => `on: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
const BASE_INSTALL = `      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.base.ref || github.ref_name }}
          path: .envelope-gate-base
          sparse-checkout: package-lock.json
      - working-directory: .envelope-gate-base
        run: npm ci --ignore-scripts && mv node_modules ..
`;

describe("no code of the pull request before the gate", () => {
  it("every workflow of this repository and every documented one", () => {
    const texts = workflowTexts();
    let gates = 0;
    const findings: string[] = [];
    for (const [file, text] of texts) {
      const out = headCodeBeforeGate(text, file);
      gates += out.gates;
      findings.push(...out.findings);
    }
    // The project's own workflow, README's and docs/action.md's examples, docs/action.md's SARIF and audit blocks.
    expect(gates).toBeGreaterThanOrEqual(5);
    expect(findings).toEqual([]);
  });

  it.each<[string, string, string]>([
    ["the project's former workflow: npm ci on the head's checkout", job(`${CHECKOUT_HEAD}      - run: npm ci\n${GATE}`), "runs npm ci"],
    [
      "npm ci with install scripts off, but on the head (its .npmrc, its lock file)",
      job(`${CHECKOUT_HEAD}      - run: npm ci --ignore-scripts\n${GATE}`),
      "npm ci --ignore-scripts",
    ],
    ["make", job(`${CHECKOUT_HEAD}      - run: |\n          echo build\n          make -j2\n${GATE}`), "runs make"],
    ["a script of the repository", job(`${CHECKOUT_HEAD}      - run: ./scripts/setup.sh\n${GATE}`), "./scripts/setup.sh"],
    ["an interpreter on a repository file", job(`${CHECKOUT_HEAD}      - run: bash tools/prepare.sh\n${GATE}`), "bash tools/prepare.sh"],
    ["a package manager behind sh -c and sudo", job(`${CHECKOUT_HEAD}      - run: sudo -E sh -c "yarn install"\n${GATE}`), "yarn install"],
    ["a local action of the head", job(`${CHECKOUT_HEAD}      - uses: ./.github/actions/setup\n${GATE}`), "a local action of the head"],
    [
      "the default checkout (the merge commit is the head's code)",
      job(`      - uses: actions/checkout@v4\n      - run: pip install -e .\n${GATE}`),
      "pip install -e .",
    ],
    [
      "a job whose default working directory is the head's checkout",
      `on: pull_request\njobs:\n  gate:\n    defaults: { run: { working-directory: app } }\n    steps:\n${CHECKOUT_HEAD}      - run: npm install\n${GATE}`,
      "npm install",
    ],
  ])("attack caught: %s", (_name, text, why) => {
    const out = headCodeBeforeGate(text, "fixture.yml");
    expect(out.gates).toBe(1);
    expect(out.findings.join("\n")).toContain(why);
  });

  it.each<[string, string]>([
    ["the documented install from the base's lock file", job(`${CHECKOUT_HEAD}${BASE_INSTALL}${GATE}`)],
    [
      "the runner's own tools",
      job(
        `${CHECKOUT_HEAD}      - run: |\n          sudo apt-get update -qq && sudo apt-get install -y -qq strace bubblewrap\n          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0\n${GATE}`,
      ),
    ],
    ["head code after the gate (the job is over for the gate by then)", job(`${CHECKOUT_HEAD}${GATE}      - run: npm run report\n`)],
    ["head code before any checkout (nothing of the head is there)", job(`      - run: make -C /opt/tools\n${CHECKOUT_HEAD}${GATE}`)],
    [
      "a job that does not run the gate (ordinary CI)",
      `on: pull_request\njobs:\n  test:\n    steps:\n${CHECKOUT_HEAD}      - run: npm ci && npm test\n`,
    ],
  ])("clean twin passes: %s", (_name, text) => {
    expect(headCodeBeforeGate(text, "fixture.yml").findings).toEqual([]);
  });

  it("this repository's own gate uses the Action pinned by commit, installs from the base, and runs nothing of the head first", () => {
    const text = readFileSync(".github/workflows/envelope-gate.yml", "utf8");
    expect(text).toMatch(/uses: envelope-gate\/envelope-gate@[0-9a-f]{40}\n/);
    expect(text).not.toContain("./.envelope-gate-action");
    expect(text).toContain("npm ci --ignore-scripts");
    expect(headCodeBeforeGate(text, "envelope-gate.yml")).toEqual({ gates: 1, findings: [] });
  });
});
