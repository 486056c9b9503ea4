import { parseDocument } from "yaml";
import type { RunRefusal, TreeAt } from "./run-checks.js";

/**
 * The local actions and reusable workflows a gate workflow runs, followed all the way down
 * (docs/app.md, "Which runs count as runner A and runner B"). Files are read with a YAML parser,
 * as GitHub reads them: a key written `"u\x73es"` is `uses`. Each local reference is walked at
 * the base: a reusable workflow's file (`jobs.<id>.uses: ./.github/workflows/x.yml`), a local
 * action's directory and its `action.yml` (`runs.using: composite` steps' own `uses:`, a JS
 * action's `main`/`pre`/`post`, a docker action's `Dockerfile`), and what those use in turn. The
 * walk says what must be the same at head and base; the comparison is `compareScopes`. Both are
 * pure: the App fetches what `walkLocalUses` asks for (src/app/run-verify.ts).
 */

/** A local `uses:` target: a reusable workflow file, or an action directory ("" is the repository's root). */
export interface LocalRef {
  kind: "workflow" | "action";
  path: string;
}

/** What must be the same blobs at head and base: one file, or a directory's whole content. */
export interface Scope {
  kind: "file" | "dir";
  path: string;
  /** How the walk reached it, for the refusal's reason. */
  via: string;
}

/** What the walk asks its driver for: both trees (answered with the base's), or a file's text at the base (answered with it or null). */
export type WalkNeed = { kind: "tree" } | { kind: "text"; path: string };

/** GitHub's own limits: reusable workflows nest up to 10 levels, composite actions up to 10. */
export const USES_MAX_DEPTH = 10;
/** Local workflows and actions followed for one run, at most. */
export const USES_MAX_NODES = 50;

const unreadable = (reason: string): RunRefusal => ({ code: "RUNNER_A_USES_UNREADABLE", reason });

/** Parses a workflow or action file as the runner would: a syntax error or a duplicate key is a refusal. */
function parseYaml(text: string, file: string): RunRefusal | unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
  if (doc.errors.length > 0) {
    return unreadable(`${file} at the base is not YAML the App can read (${doc.errors[0]?.message.split("\n")[0] ?? "?"})`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (err) {
    return unreadable(`${file} at the base is not YAML the App can read (${(err as Error).message.split("\n")[0]})`);
  }
}

const isRefusal = (v: unknown): v is RunRefusal =>
  typeof v === "object" && v !== null && typeof (v as RunRefusal).code === "string" && typeof (v as RunRefusal).reason === "string";

/** A repository path from `base` and a relative one, `.` and `..` folded; null when it leaves the repository. */
export function repoPath(base: string, rel: string): string | null {
  const out: string[] = base === "" ? [] : base.split("/");
  for (const part of rel.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

/** A `uses:` value: a local reference, null for a remote action or `docker://`, or a refusal. */
function localRef(value: unknown, file: string): LocalRef | null | RunRefusal {
  if (typeof value !== "string") return unreadable(`${file} has a \`uses:\` that is not a string: which action runs cannot be read`);
  const v = value.trim();
  if (v.includes("${{")) return unreadable(`${file} has a \`uses:\` written as an expression (${v}): which action runs cannot be checked`);
  if (v !== "." && !v.startsWith("./")) return null;
  const path = repoPath("", v);
  if (path === null) return unreadable(`${file} has \`uses: ${v}\`, which leaves the repository`);
  return { kind: /\.ya?ml$/i.test(path) ? "workflow" : "action", path };
}

/**
 * Every `uses:` in a parsed file, wherever it stands (`jobs.<id>.uses`, `jobs.<id>.steps[].uses`,
 * `runs.steps[].uses`, and any other key named so, in any case): more than GitHub runs, never less.
 */
function usesOf(doc: unknown, file: string): RunRefusal | LocalRef[] {
  const out: LocalRef[] = [];
  const queue: unknown[] = [doc];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (Array.isArray(node)) queue.push(...node);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key.trim().toLowerCase() === "uses") {
          const ref = localRef(value, file);
          if (isRefusal(ref)) return ref;
          if (ref !== null && !out.some((r) => r.kind === ref.kind && r.path === ref.path)) out.push(ref);
        } else queue.push(value);
      }
    }
  }
  return out;
}

/** The local references of a workflow file's text. */
export function usesIn(text: string, file: string): RunRefusal | LocalRef[] {
  const doc = parseYaml(text, file);
  return isRefusal(doc) ? doc : usesOf(doc, file);
}

const field = (o: unknown, name: string): unknown =>
  typeof o === "object" && o !== null && !Array.isArray(o)
    ? Object.entries(o).find(([k]) => k.trim().toLowerCase() === name)?.[1]
    : undefined;

/** An action manifest's local references and the files it runs (relative to its directory). */
export function actionIn(text: string, file: string): RunRefusal | { uses: LocalRef[]; files: string[] } {
  const doc = parseYaml(text, file);
  if (isRefusal(doc)) return doc;
  const uses = usesOf(doc, file);
  if (isRefusal(uses)) return uses;
  const runs = field(doc, "runs");
  const using = String(field(runs, "using") ?? "").toLowerCase();
  const files: string[] = [];
  const keys = using === "docker" ? ["image"] : using === "composite" ? [] : ["main", "pre", "post"];
  for (const key of keys) {
    const v = field(runs, key);
    if (v === undefined || v === null) continue;
    if (typeof v !== "string" || v.includes("${{")) return unreadable(`${file}'s runs.${key} cannot be read`);
    if (key === "image" && v.startsWith("docker://")) continue;
    files.push(v);
  }
  return { uses, files };
}

const label = (ref: LocalRef) =>
  ref.kind === "workflow" ? ref.path : ref.path === "" ? "the Action at the repository's root" : `./${ref.path}`;

/**
 * Walks the base's gate workflow (`root`, its text `rootText`) down through every local
 * reference. Yields what it needs (the trees, once; a file's text at the base), returns the
 * scopes to compare or a refusal: a reference the base lacks (RUNNER_A_WORKFLOW_CHANGED), a file
 * that does not parse or a `uses:` that cannot be read (RUNNER_A_USES_UNREADABLE), a cycle
 * (RUNNER_A_USES_CYCLE), deeper or wider than the bounds (RUNNER_A_USES_UNBOUNDED).
 */
export function* walkLocalUses(root: string, rootText: string): Generator<WalkNeed, RunRefusal | Scope[], TreeAt | string | null> {
  const first = usesIn(rootText, root);
  if (isRefusal(first)) return first;
  if (first.length === 0) return [];
  const base = (yield { kind: "tree" }) as TreeAt;
  if (base.truncated) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: "GitHub cut the repository's tree listing short: the local actions' files cannot be compared",
    };
  }
  const scopes: Scope[] = [];
  const seen = new Set<string>();
  const keyOf = (ref: LocalRef) => `${ref.kind}:${ref.path}`;
  const hasUnder = (dir: string) => [...base.blobs.keys()].some((p) => p.startsWith(`${dir}/`));

  function* visit(ref: LocalRef, chain: LocalRef[]): Generator<WalkNeed, RunRefusal | null, TreeAt | string | null> {
    const via = [root, ...chain.map(label)].reverse().join(", used by ");
    if ((ref.kind === "workflow" && ref.path === root) || chain.some((c) => keyOf(c) === keyOf(ref))) {
      return { code: "RUNNER_A_USES_CYCLE", reason: `${label(ref)} uses itself (${label(ref)}, used by ${via})` };
    }
    if (chain.length >= USES_MAX_DEPTH) {
      return { code: "RUNNER_A_USES_UNBOUNDED", reason: `${label(ref)} is nested deeper than ${USES_MAX_DEPTH} levels (used by ${via})` };
    }
    if (seen.has(keyOf(ref))) return null;
    seen.add(keyOf(ref));
    if (seen.size > USES_MAX_NODES) {
      return { code: "RUNNER_A_USES_UNBOUNDED", reason: `the gate workflow uses more than ${USES_MAX_NODES} local workflows and actions` };
    }
    const missing: RunRefusal = { code: "RUNNER_A_WORKFLOW_CHANGED", reason: `${label(ref)} (used by ${via}) is not in the base` };
    let uses: LocalRef[];
    if (ref.kind === "workflow") {
      if (!base.blobs.has(ref.path)) return missing;
      scopes.push({ kind: "file", path: ref.path, via });
      const text = yield { kind: "text", path: ref.path };
      if (typeof text !== "string") return unreadable(`GitHub did not return ${ref.path}'s text at the base`);
      const found = usesIn(text, ref.path);
      if (isRefusal(found)) return found;
      uses = found;
    } else {
      const dir = ref.path;
      const at = (name: string) => (dir === "" ? name : `${dir}/${name}`);
      if (dir === "") for (const name of ["action.yml", "action.yaml"]) scopes.push({ kind: "file", path: name, via });
      else if (hasUnder(dir)) scopes.push({ kind: "dir", path: dir, via });
      else return missing;
      const manifest = ["action.yml", "action.yaml"].map(at).find((p) => base.blobs.has(p));
      if (manifest === undefined) {
        // A directory with only a Dockerfile is an action too; its whole directory is compared.
        if (dir === "") return missing;
        return null;
      }
      const text = yield { kind: "text", path: manifest };
      if (typeof text !== "string") return unreadable(`GitHub did not return ${manifest}'s text at the base`);
      const found = actionIn(text, manifest);
      if (isRefusal(found)) return found;
      for (const f of found.files) {
        const p = repoPath(dir, f);
        if (p === null || p === "") return unreadable(`${manifest} runs ${f}, which leaves the repository`);
        if (dir !== "" && p.startsWith(`${dir}/`)) continue;
        // A file outside the action's directory: the directory it is in (a bundle's chunks sit beside it), or the file itself at the root.
        const parent = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "";
        scopes.push(
          parent === ""
            ? { kind: "file", path: p, via: `${label(ref)}, used by ${via}` }
            : { kind: "dir", path: parent, via: `${label(ref)}, used by ${via}` },
        );
      }
      uses = found.uses;
    }
    for (const next of uses) {
      const out = yield* visit(next, [...chain, ref]);
      if (out !== null) return out;
    }
    return null;
  }

  for (const ref of first) {
    const out = yield* visit(ref, []);
    if (out !== null) return out;
  }
  return scopes;
}

/** Every scope the walk found is the same blobs (mode and object id) at head and base. */
export function compareScopes(scopes: readonly Scope[], head: TreeAt, base: TreeAt): RunRefusal | null {
  if (scopes.length === 0) return null;
  if (head.truncated || base.truncated) {
    return {
      code: "RUNNER_A_UNVERIFIED",
      reason: "GitHub cut the repository's tree listing short: the local actions' files cannot be compared",
    };
  }
  const inScope = (s: Scope, p: string) => (s.kind === "file" ? p === s.path : p.startsWith(`${s.path}/`));
  for (const s of scopes) {
    const paths = new Set([...head.blobs.keys(), ...base.blobs.keys()].filter((p) => inScope(s, p)));
    const changed = [...paths].filter((p) => head.blobs.get(p) !== base.blobs.get(p)).sort();
    if (changed.length > 0) {
      const what = s.kind === "file" ? s.path : `./${s.path}`;
      return {
        code: "RUNNER_A_WORKFLOW_CHANGED",
        reason: `${what} (used by ${s.via}) differs between head and base (${changed.slice(0, 5).join(", ")}${changed.length > 5 ? `, … ${changed.length} files` : ""}): the pull request's own workflow or action ran`,
      };
    }
  }
  return null;
}
