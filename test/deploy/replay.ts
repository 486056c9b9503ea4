import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { excluded, parseDockerignore } from "./dockerignore.js";
import { execForm, words } from "./parse.js";

/**
 * `docker build` replayed on a machine that cannot pull a base image. The base image
 * (node:20-bookworm-slim) stands in as this host's own filesystem, read-only: the host is Debian
 * 12 bookworm with Node 20, the base's distro and Node major (checked against the FROM tag).
 * Each stage gets its own folder; the image paths it writes (its WORKDIR, its COPY
 * destinations, the paths its RUN lines create under /opt, /var/lib and /src) are folders in
 * it, bound writable over the read-only host root by bubblewrap. An `apt-get install` RUN is
 * replayed by checking the named packages are installed on the host; every other RUN runs for
 * real. An instruction the replayer does not know fails the replay.
 */

export interface Instruction {
  op: string;
  args: string;
  line: number;
}

export interface Stage {
  from: string;
  name: string | null;
  instructions: Instruction[];
}

const KNOWN = new Set(["FROM", "WORKDIR", "COPY", "RUN", "ENV", "USER", "ENTRYPOINT", "CMD", "HEALTHCHECK", "VOLUME", "EXPOSE"]);

/** Dockerfile text to stages, refusing an instruction this replayer does not replay. */
export function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i + 1;
    let line = lines[i] as string;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) {
      i++;
      const next = lines[i] as string;
      if (/^\s*#/.test(next)) continue;
      line = `${line.slice(0, -1)} ${next}`;
    }
    const m = /^\s*(\S+)\s+([\s\S]*\S)\s*$/.exec(line);
    if (!m) throw new Error(`Dockerfile line ${start}: cannot parse "${line}"`);
    const op = (m[1] as string).toUpperCase();
    const args = m[2] as string;
    if (!KNOWN.has(op)) throw new Error(`Dockerfile line ${start}: ${op} is not replayed by this test (teach replay.ts what it does)`);
    if (op === "FROM") {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`Dockerfile line ${start}: FROM ${args} has options the replay does not know`);
      stages.push({ from: from[1] as string, name: from[2] ?? null, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${start}: ${op} before FROM`);
      stage.instructions.push({ op, args, line: start });
    }
  }
  return stages;
}

/** The files (relative paths) the .dockerignore of `root` admits to the build context. */
export function contextFiles(root: string, ignoreText: string): string[] {
  const rules = parseDockerignore(ignoreText);
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (!excluded(rules, path)) out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/** A fresh clone of `repo`'s committed HEAD and, beside it, the build context its .dockerignore admits. */
export function cloneContext(repo: string, into: string, ignoreText?: string): { clone: string; context: string; files: string[] } {
  const clone = join(into, "clone");
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", repo, clone], { stdio: "pipe" });
  const text = ignoreText ?? (existsSync(join(clone, ".dockerignore")) ? readFileSync(join(clone, ".dockerignore"), "utf8") : "");
  const files = contextFiles(clone, text);
  const context = join(into, "context");
  mkdirSync(context);
  for (const file of files) {
    mkdirSync(dirname(join(context, file)), { recursive: true });
    cpSync(join(clone, file), join(context, file), { verbatimSymlinks: true });
  }
  return { clone, context, files };
}

// ---- a read-only host root with writable places, built by bubblewrap --------------------

export interface Mount {
  /** A host path. */
  src: string;
  /** Where it appears inside. */
  dest: string;
  writable: boolean;
}

const SPECIAL = new Set(["/proc", "/dev", "/tmp", "/sys"]);

/**
 * bubblewrap arguments for the host's root, read-only, with `mounts` bound over it. bubblewrap's
 * own root is an empty tmpfs: each host entry is bound into it read-only, except the folders on
 * the way to a mount, which are recreated (and their other entries bound) so the mount point
 * can be made without writing to the host.
 */
export function rootArgs(mounts: readonly Mount[]): string[] {
  const dests = new Set(mounts.map((m) => m.dest));
  const ancestors = new Set<string>();
  for (const m of mounts) {
    for (let d = posix.dirname(m.dest); d !== "/"; d = posix.dirname(d)) ancestors.add(d);
  }
  const args = ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp", "--ro-bind", "/sys", "/sys"];
  const expand = (dir: string) => {
    if (dir !== "/") args.push("--perms", "0755", "--dir", dir);
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = posix.join(dir, name);
      if (dests.has(path) || SPECIAL.has(path) || ancestors.has(path)) continue;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
      else if (stat.isDirectory() || stat.isFile()) args.push("--ro-bind", path, path);
    }
    for (const a of ancestors) if (posix.dirname(a) === dir) expand(a);
  };
  expand("/");
  const byDepth = [...mounts].sort((a, b) => a.dest.split("/").length - b.dest.split("/").length);
  for (const m of byDepth) args.push(m.writable ? "--bind" : "--ro-bind", m.src, m.dest);
  args.push("--remount-ro", "/");
  return args;
}

export function bwrap(mounts: readonly Mount[], cwd: string, command: string[], user?: { uid: number; gid: number }): string[] {
  const args = ["bwrap", ...rootArgs(mounts), "--chdir", cwd, "--die-with-parent", "--"];
  if (user) {
    args.push("setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--");
  }
  return [...args, ...command];
}

// ---- replaying the stages ----------------------------------------------------------------

/** The base image's PATH (node:20-bookworm-slim): Node in /usr/local/bin there, /usr/bin here. */
export const BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export interface BuiltStage {
  name: string | null;
  /** What the stage's content depends on (Docker's cache key): its base, instructions and copied bytes. */
  key: string;
  /** Image path to the host folder holding it, for each place the stage wrote. */
  places: Map<string, string>;
  env: Record<string, string>;
  workdir: string;
  user: { uid: number; gid: number } | null;
  entrypoint: string[];
  cmd: string[];
  healthcheck: { options: Record<string, string>; command: string[] } | null;
  volumes: string[];
  exposed: string[];
}

export interface ReplayOptions {
  /** Where each stage's places are made. */
  work: string;
  /** Host folders a RUN may write besides the stage's places (npm's cache, reused across replays). */
  caches: Mount[];
  log: (line: string) => void;
  /**
   * Docker's build cache: a RUN whose key (the base, every instruction before it and the bytes
   * each COPY brought) was replayed before is not run again; the stage's folders are restored.
   */
  cache?: string;
}

/** A digest of a file or folder's paths, modes and bytes. */
function contentDigest(path: string): string {
  const hash = createHash("sha256");
  const walk = (p: string, rel: string) => {
    const stat = lstatSync(p);
    hash.update(`${rel}\0${stat.mode}\0`);
    if (stat.isSymbolicLink()) hash.update(readlinkSync(p));
    else if (stat.isDirectory()) for (const name of readdirSync(p).sort()) walk(join(p, name), `${rel}/${name}`);
    else hash.update(readFileSync(p));
  };
  walk(path, "");
  return hash.digest("hex");
}

/** The base image checked against this host: its Node major and Debian release. */
export function checkBase(from: string): void {
  const m = /^node:(\d+)-([a-z]+)(?:-slim)?(?:@sha256:[0-9a-f]{64})?$/.exec(from);
  if (!m) throw new Error(`FROM ${from}: the replay stands in for node:<major>-<debian release>[-slim] only`);
  const major = process.versions.node.split(".")[0];
  const hostNode = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
  if (hostNode !== `v${process.versions.node}`) throw new Error(`the host's node is ${hostNode}, the test's ${process.versions.node}`);
  if (m[1] !== major) throw new Error(`FROM ${from}: Node ${m[1]}, but this host (the stand-in) has Node ${hostNode}`);
  const release = /^VERSION_CODENAME=(\S+)$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1];
  if (m[2] !== release) throw new Error(`FROM ${from}: Debian ${m[2]}, but this host is ${release}`);
}

function placeOf(stage: BuiltStage, imagePath: string): { place: string; host: string } | null {
  let best: string | null = null;
  for (const place of stage.places.keys()) {
    if ((imagePath === place || imagePath.startsWith(`${place}/`)) && (best === null || place.length > best.length)) best = place;
  }
  return best === null ? null : { place: best, host: join(stage.places.get(best) as string, imagePath.slice(best.length)) };
}

/** Absolute image paths a RUN line names under the folders it may create things in. */
function createdPaths(run: string): string[] {
  const out = new Set<string>();
  for (const m of run.matchAll(/(?<![\w/.])\/(?:opt|var\/lib|src)\/[\w.@+-]+/g)) out.add(m[0]);
  return [...out];
}

/** `apt-get install` lines are checked against the host's packages: the replay never installs. */
function replayApt(run: string, line: number, log: (l: string) => void): boolean {
  if (!/\bapt-get\b/.test(run)) return false;
  for (const part of run.split("&&").map((p) => p.trim())) {
    const w = words(part);
    if (w.join(" ") === "apt-get update" || w.join(" ") === "rm -rf /var/lib/apt/lists/*") continue;
    if (w[0] !== "apt-get" || w[1] !== "install") throw new Error(`Dockerfile line ${line}: "${part}" beside apt-get is not replayed`);
    const packages = w.slice(2).filter((a) => !a.startsWith("-"));
    for (const option of w.slice(2).filter((a) => a.startsWith("-"))) {
      if (!["-y", "--no-install-recommends"].includes(option))
        throw new Error(`Dockerfile line ${line}: apt-get option ${option} is not replayed`);
    }
    for (const pkg of packages) {
      const q = spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" });
      if (q.stdout !== "install ok installed")
        throw new Error(`Dockerfile line ${line}: Debian package ${pkg} is not installed on this host`);
    }
    log(`line ${line}: apt-get install ${packages.join(" ")}: installed on the host`);
  }
  return true;
}

/** Replays every stage; resolves to the stages as built (the last is the image). */
export function replay(stages: readonly Stage[], context: string, options: ReplayOptions): BuiltStage[] {
  const built: BuiltStage[] = [];
  for (const [index, stage] of stages.entries()) {
    checkBase(stage.from);
    const root = join(options.work, `stage-${index}-${stage.name ?? "unnamed"}`);
    mkdirSync(root, { recursive: true });
    const out: BuiltStage = {
      name: stage.name,
      key: createHash("sha256").update(`FROM ${stage.from}`).digest("hex"),
      places: new Map(),
      env: {},
      workdir: "/",
      user: null,
      entrypoint: [],
      cmd: [],
      healthcheck: null,
      volumes: [],
      exposed: [],
    };
    const addPlace = (imagePath: string) => {
      if (placeOf(out, imagePath)) return;
      const host = join(root, imagePath);
      mkdirSync(host, { recursive: true });
      // A deeper place already made is now inside this one.
      for (const p of [...out.places.keys()]) if (p.startsWith(`${imagePath}/`)) out.places.delete(p);
      out.places.set(imagePath, host);
    };
    const resolve = (p: string) => posix.resolve(out.workdir, p);
    const mounts = (): Mount[] => [
      ...[...out.places].map(([dest, src]) => ({ src, dest, writable: true })),
      ...options.caches.filter((c) => !out.places.has(c.dest)),
    ];
    for (const { op, args, line } of stage.instructions) {
      out.key = createHash("sha256").update(`${out.key}\n${op} ${args}`).digest("hex");
      if (op === "WORKDIR") {
        out.workdir = resolve(args);
        addPlace(out.workdir);
      } else if (op === "ENV") {
        for (const assignment of words(args)) {
          const eq = assignment.indexOf("=");
          if (eq < 1) throw new Error(`Dockerfile line ${line}: ENV without key=value`);
          out.env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
        }
      } else if (op === "COPY") {
        const w = words(args);
        let from: BuiltStage | null = null;
        while (w[0]?.startsWith("--")) {
          const flag = w.shift() as string;
          const m = /^--from=(.+)$/.exec(flag);
          if (!m) throw new Error(`Dockerfile line ${line}: COPY ${flag} is not replayed`);
          from = built.find((b) => b.name === m[1]) ?? null;
          if (!from) throw new Error(`Dockerfile line ${line}: COPY --from=${m[1]}: no earlier stage has that name`);
        }
        const dest = w.pop();
        if (dest === undefined || w.length === 0) throw new Error(`Dockerfile line ${line}: COPY needs a source and a destination`);
        const destIsDir = w.length > 1 || dest.endsWith("/");
        const destPath = resolve(dest);
        addPlace(destIsDir ? destPath : posix.dirname(destPath));
        for (const src of w) {
          let host: string;
          if (from) {
            const found = placeOf(from, posix.resolve(from.workdir, src));
            if (!found) throw new Error(`Dockerfile line ${line}: COPY --from=${from.name} ${src}: the stage never wrote it`);
            host = found.host;
          } else {
            const rel = posix.normalize(src).replace(/^\/+/, "").replace(/\/$/, "");
            if (rel.startsWith("..")) throw new Error(`Dockerfile line ${line}: COPY ${src} is outside the build context`);
            host = join(context, rel);
          }
          if (!existsSync(host)) {
            throw new Error(
              `Dockerfile line ${line}: COPY ${src}: not found${from ? ` in stage ${from.name}` : " in the build context (.dockerignore does not admit it)"}`,
            );
          }
          out.key = createHash("sha256")
            .update(`${out.key}\n${from ? from.key : "context"} ${contentDigest(host)}`)
            .digest("hex");
          const target = (placeOf(out, destPath) as { host: string }).host;
          if (statSync(host).isDirectory()) {
            mkdirSync(target, { recursive: true });
            cpSync(host, target, { recursive: true, verbatimSymlinks: true });
          } else {
            const file = destIsDir ? join(target, posix.basename(src)) : target;
            mkdirSync(dirname(file), { recursive: true });
            cpSync(host, file);
          }
        }
        options.log(`line ${line}: COPY ${args}`);
      } else if (op === "RUN") {
        if (args.startsWith("[")) throw new Error(`Dockerfile line ${line}: RUN's exec form is not replayed`);
        if (replayApt(args, line, options.log)) continue;
        for (const p of createdPaths(args)) addPlace(p);
        const cached = options.cache ? join(options.cache, out.key) : null;
        if (cached && existsSync(cached)) {
          options.log(`line ${line}: RUN ${args}: cached`);
          rmSync(root, { recursive: true, force: true });
          execFileSync("cp", ["-a", cached, root]);
          continue;
        }
        const env = { PATH: BASE_PATH, HOME: "/root", HOSTNAME: "replay", ...out.env };
        options.log(`line ${line}: RUN ${args}`);
        const run = bwrap(mounts(), out.workdir, ["/bin/sh", "-c", args], out.user ?? undefined);
        const result = spawnSync(run[0] as string, run.slice(1), { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
        if (result.status !== 0) {
          throw new Error(`Dockerfile line ${line}: RUN ${args} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
        }
        if (cached) {
          // Written aside and renamed: a replay running beside this one never sees half a layer.
          const partial = `${cached}.partial-${process.pid}`;
          mkdirSync(options.cache as string, { recursive: true });
          execFileSync("cp", ["-a", root, partial]);
          try {
            renameSync(partial, cached);
          } catch (err) {
            rmSync(partial, { recursive: true, force: true });
            // Another replay stored the same layer first.
            if (!["ENOTEMPTY", "EEXIST"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
          }
        }
      } else if (op === "USER") {
        const m = /^(\d+):(\d+)$/.exec(args);
        if (!m) throw new Error(`Dockerfile line ${line}: USER ${args}: the replay takes a numeric uid:gid only`);
        out.user = { uid: Number(m[1]), gid: Number(m[2]) };
      } else if (op === "ENTRYPOINT") {
        out.entrypoint = execForm(args);
        out.cmd = [];
      } else if (op === "CMD") {
        out.cmd = execForm(args);
      } else if (op === "VOLUME") {
        out.volumes.push(...execForm(args));
      } else if (op === "EXPOSE") {
        out.exposed.push(...words(args));
      } else if (op === "HEALTHCHECK") {
        const m = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(\[.*\])$/s.exec(args);
        if (!m) throw new Error(`Dockerfile line ${line}: HEALTHCHECK is replayed in its exec form only`);
        const opts = Object.fromEntries(words(m[1] as string).map((o) => o.slice(2).split("=") as [string, string]));
        out.healthcheck = { options: opts, command: execForm(m[2] as string) };
      }
    }
    built.push(out);
  }
  return built;
}

/** Every COPY from the build context admitted by it: checked before any RUN, as a missing source fails the build anyway. */
export function missingFromContext(stages: readonly Stage[], context: string): string[] {
  const missing: string[] = [];
  for (const stage of stages) {
    for (const { op, args, line } of stage.instructions) {
      if (op !== "COPY") continue;
      const w = words(args);
      if (w[0]?.startsWith("--from=")) continue;
      for (const src of w.slice(0, -1)) {
        const rel = posix.normalize(src).replace(/^\/+/, "").replace(/\/$/, "");
        if (!existsSync(join(context, rel))) missing.push(`Dockerfile line ${line}: COPY ${src}: not in the build context`);
      }
    }
  }
  return missing;
}
