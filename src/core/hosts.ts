/**
 * Host matching for `allowed_hosts`: exact names or IP literals, an optional `:port`, and
 * `*.example.com`, which matches subdomains only, never the apex.
 */

export interface HostPattern {
  /** The text as written in the envelope. */
  source: string;
  /** Lower-case host without brackets; for a wildcard, the suffix after `*.`. */
  host: string;
  wildcard: boolean;
  port: number | null;
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

export function hostMatches(pattern: HostPattern, host: string, port: number | null): boolean {
  if (pattern.port !== null && pattern.port !== port) return false;
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
