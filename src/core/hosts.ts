/**
 * Host matching for `allowed_hosts`: exact names or IP literals, an optional `:port`,
 * `*.example.com`, which matches subdomains only, never the apex, and named host sets
 * (`@npm`, `@pypi`, ...), which stand for the closed lists in HOST_SETS.
 */

export interface HostPattern {
  /** The text as written in the envelope (for a set's member, the member, e.g. `registry.npmjs.org:443`). */
  source: string;
  /** Lower-case host without brackets; for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  port: number | null;
  /** The host set (`@npm`) this pattern came from; absent for an entry written out. */
  set?: string;
}

/**
 * The version of HOST_SETS below. The envelope's hash pins a set's name, the code pins its list:
 * any change to a list (a member added, removed or its port changed, a set added or removed)
 * bumps this number, and docs/egress.md's table says what each version holds. The check report
 * shows every host that was allowed through a set, with the set's name.
 */
export const HOST_SETS_VERSION = 1;

/**
 * Named host sets for `allowed_hosts`: what a package manager or a well-known download contacts,
 * by name and port, and nothing else. Closed lists of exact names (no wildcards), none of them a
 * shared front for arbitrary content: a set never includes a cloud storage or CDN name that
 * serves anyone's files (storage.googleapis.com, *.cloudfront.net, ...).
 */
export const HOST_SETS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  // npm, yarn and pnpm against the public registry (tarballs come from the registry host).
  ["@npm", ["registry.npmjs.org:443", "registry.yarnpkg.com:443"]],
  // pip, uv, poetry: the index and the file host.
  ["@pypi", ["pypi.org:443", "files.pythonhosted.org:443"]],
  // cargo: the API, the sparse index, the crate downloads.
  ["@crates", ["crates.io:443", "index.crates.io:443", "static.crates.io:443"]],
  // `go mod download` with the default GOPROXY and GOSUMDB.
  ["@go-proxy", ["proxy.golang.org:443", "sum.golang.org:443"]],
  // apt against Debian's mirrors network and security archive.
  ["@debian", ["deb.debian.org:80", "deb.debian.org:443", "security.debian.org:80", "security.debian.org:443"]],
  // apt against Ubuntu's archive, security archive and ports (arm64 and others).
  [
    "@ubuntu",
    [
      "archive.ubuntu.com:80",
      "archive.ubuntu.com:443",
      "security.ubuntu.com:80",
      "security.ubuntu.com:443",
      "ports.ubuntu.com:80",
      "ports.ubuntu.com:443",
    ],
  ],
  // git over https, the REST API, archives, release assets and raw files.
  [
    "@github",
    [
      "github.com:443",
      "api.github.com:443",
      "codeload.github.com:443",
      "objects.githubusercontent.com:443",
      "raw.githubusercontent.com:443",
    ],
  ],
  // Node.js downloads (nvm, node-gyp headers, corepack's index).
  ["@node-dist", ["nodejs.org:443"]],
]);

/**
 * The programs each set is documented for: `suggest` proposes a set in place of its members only
 * when one of these ran (an `exec` with this basename) and every endpoint the run reached on the
 * set's names is a member (docs/egress.md, "suggest and host sets").
 */
export const HOST_SET_TOOLS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ["@npm", ["npm", "npm-cli.js", "npx", "npx-cli.js", "yarn", "yarn.js", "yarn.cjs", "pnpm", "pnpm.cjs", "corepack"]],
  ["@pypi", ["pip", "pip3", "uv", "poetry", "pipx"]],
  ["@crates", ["cargo"]],
  ["@go-proxy", ["go"]],
  ["@debian", ["apt", "apt-get", "http", "https"]],
  ["@ubuntu", ["apt", "apt-get", "http", "https"]],
  ["@github", ["git", "git-remote-https", "gh"]],
  ["@node-dist", ["node-gyp", "corepack", "nvm"]],
]);

/** True for an `allowed_hosts` entry that names a set (`@npm`), known or not. */
export function isHostSetEntry(entry: string): boolean {
  return entry.startsWith("@");
}

/**
 * The patterns one `allowed_hosts` entry stands for: one for a host, each member (tagged with
 * the set's name) for a set. Null for an unknown set or a port out of range.
 */
export function expandHostEntry(entry: string): HostPattern[] | null {
  if (isHostSetEntry(entry)) {
    const members = HOST_SETS.get(entry);
    if (members === undefined) return null;
    return members.map((m) => ({ ...(parseHostPattern(m) as HostPattern), set: entry }));
  }
  const p = parseHostPattern(entry);
  return p === null ? null : [p];
}

/**
 * The set a host was allowed through: null when an entry written out (or a wildcard) allows it, or
 * when nothing does. The report shows `registry.npmjs.org:443 (via @npm)` for such a host.
 */
export function allowedViaSet(patterns: readonly HostPattern[], host: string, port: number | null): string | null {
  let via: string | null = null;
  for (const p of patterns) {
    if (!hostMatches(p, host, port)) continue;
    if (p.set === undefined) return null;
    via ??= p.set;
  }
  return via;
}

/** Normalises a recorded host: lower case, brackets and a trailing dot removed. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".") && h.length > 1) h = h.slice(0, -1);
  return h;
}

/** Parses one `allowed_hosts` entry (already shape-checked by the schema). Null if the port is out of range. */
export function parseHostPattern(source: string): HostPattern | null {
  let rest = source;
  let port: number | null = null;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    const after = rest.slice(close + 1);
    if (after.startsWith(":")) port = Number(after.slice(1));
    rest = rest.slice(1, close);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const i = rest.indexOf(":");
    port = Number(rest.slice(i + 1));
    rest = rest.slice(0, i);
  }
  if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) return null;
  const wildcard = rest.startsWith("*.");
  return { source, host: wildcard ? rest.slice(2) : rest, wildcard, port };
}

/**
 * Whether `pattern` allows `host` on `port`. A host event without a port is a name lookup, not a
 * connection: a name allowed on any port may be looked up (`registry.npmjs.org:443` allows the
 * lookup of `registry.npmjs.org`), so that an envelope of `name:port` entries passes a program that
 * resolves a name before it connects.
 */
function hostMatches(pattern: HostPattern, host: string, port: number | null): boolean {
  if (pattern.port !== null && port !== null && pattern.port !== port) return false;
  if (pattern.wildcard) {
    return host.length > pattern.host.length + 1 && host.endsWith("." + pattern.host);
  }
  return host === pattern.host;
}

export function hostAllowed(patterns: readonly HostPattern[], host: string, port: number | null): boolean {
  for (const p of patterns) {
    if (hostMatches(p, host, port)) return true;
  }
  return false;
}

/** `host`, `host:port`, or `[v6]:port`: the subject of a network violation. */
export function formatEndpoint(host: string, port: number | null): string {
  if (port === null) return host;
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
