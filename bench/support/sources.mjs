// Real projects' own test suites for the cost bench (bench/polyglot.mjs), obtained only from what
// these machines reach: Debian's source archive (an upstream release's orig tarball, checked
// against the sha256 Debian's Sources index lists) and the npm registry (the suite's test
// dependencies, installed once into the cache). Each is cached under node_modules/.cache.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const POOL = "http://deb.debian.org/debian/pool/main";

/** Upstream releases from Debian's archive: file in the pool, its sha256 (Sources), the folder it unpacks to. */
export const TARBALLS = {
  zlib: {
    file: "z/zlib/zlib_1.2.13.dfsg.orig.tar.bz2",
    sha256: "71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1",
    dir: "zlib-1.2.13.dfsg",
  },
  click: {
    file: "p/python-click/python-click_8.2.0+0.really.8.1.8.orig.tar.gz",
    sha256: "33b16b4899d3deda7be154c0be415d898511abf928c988972cd97c4d90444a18",
    dir: "click-8.1.8",
  },
  express: {
    file: "n/node-express/node-express_4.18.2+~4.17.14.orig.tar.gz",
    sha256: "a9ace1a92a2b0a7e3fcd7a7612553d6208a464561c15ad38f349fc3ab0d7cda0",
    dir: "express-4.18.2",
    // Its dependencies and devDependencies (supertest, mocha, the template engines its examples use).
    npm: [],
  },
  commander: {
    file: "n/node-commander/node-commander_9.4.1.orig.tar.gz",
    sha256: "591ba7850546f51a710a776f9271f1401a08b0e2b831cbbc8354415273a9da12",
    dir: "commander.js-9.4.1",
    npmPackages: ["jest@28.1.3"],
  },
};

/**
 * The project unpacked into `cache/name` (downloaded and checked once; its npm test dependencies
 * installed once), copied into `dest`. Throws with the reason when it cannot be obtained.
 */
export function obtain(name, cache, dest) {
  const t = TARBALLS[name];
  const ready = join(cache, `${name}.ready`);
  const tree = join(cache, name);
  if (!existsSync(ready)) {
    mkdirSync(cache, { recursive: true });
    const tarball = join(cache, t.file.split("/").pop());
    if (!existsSync(tarball)) {
      const r = spawnSync("curl", ["-fsSL", "-o", `${tarball}.part`, `${POOL}/${t.file}`], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`could not download ${POOL}/${t.file}: ${r.stderr.trim() || `curl exit ${r.status}`}`);
      renameSync(`${tarball}.part`, tarball);
    }
    const sum = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    if (sum !== t.sha256) throw new Error(`${tarball}: sha256 ${sum}, Debian lists ${t.sha256}`);
    const unpack = join(cache, `${name}.unpack`);
    rmSync(unpack, { recursive: true, force: true });
    mkdirSync(unpack);
    execFileSync("tar", ["xf", tarball, "-C", unpack]);
    rmSync(tree, { recursive: true, force: true });
    renameSync(join(unpack, t.dir), tree);
    rmSync(unpack, { recursive: true, force: true });
    if (t.npm || t.npmPackages) {
      const r = spawnSync(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--no-save",
          "--ignore-scripts",
          "--no-package-lock",
          ...(t.npm ?? []),
          ...(t.npmPackages ?? []),
        ],
        { cwd: tree, encoding: "utf8" },
      );
      if (r.status !== 0) throw new Error(`npm install in ${tree} failed: ${r.stderr.trim().split("\n").slice(-3).join(" ")}`);
    }
    writeFileSync(ready, `${t.sha256}\n`);
  }
  cpSync(tree, dest, { recursive: true });
}
