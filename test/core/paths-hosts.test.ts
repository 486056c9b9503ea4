import { describe, expect, it } from "vitest";
import { foldPath, isInsideAnyRoot, isInsideRoot } from "../../src/core/paths.js";
import { formatEndpoint, hostAllowed, normalizeHost, parseHostPattern, type HostPattern } from "../../src/core/hosts.js";

describe("foldPath", () => {
  it.each([
    ["/work/repo/a", "/work/repo/a"],
    ["/work/repo/", "/work/repo"],
    ["/work//repo///a", "/work/repo/a"],
    ["/work/./repo/./a", "/work/repo/a"],
    ["/work/repo/../repo-evil/x", "/work/repo-evil/x"],
    ["/work/repo/../../../../etc/passwd", "/etc/passwd"],
    ["/..", "/"],
    ["/", "/"],
    ["/a/b/..", "/a"],
    ["/a/..b/c", "/a/..b/c"],
    ["/a/.hidden", "/a/.hidden"],
  ])("%s -> %s", (input, folded) => {
    expect(foldPath(input)).toBe(folded);
  });

  it("refuses relative paths", () => {
    expect(foldPath("work/repo")).toBeNull();
    expect(foldPath("")).toBeNull();
    expect(foldPath("./a")).toBeNull();
  });
});

describe("root containment by segments", () => {
  it("does not treat a sibling prefix as inside", () => {
    expect(isInsideRoot("/work/repo-evil", "/work/repo")).toBe(false);
    expect(isInsideRoot("/work/repo-evil/x", "/work/repo")).toBe(false);
    expect(isInsideRoot("/work/repository", "/work/repo")).toBe(false);
  });
  it("contains the root itself and what is below it", () => {
    expect(isInsideRoot("/work/repo", "/work/repo")).toBe(true);
    expect(isInsideRoot("/work/repo/a/b", "/work/repo")).toBe(true);
    expect(isInsideRoot("/anything", "/")).toBe(true);
  });
  it("checks every root", () => {
    expect(isInsideAnyRoot("/tmp/s/x", ["/work/repo", "/tmp/s"])).toBe(true);
    expect(isInsideAnyRoot("/tmp/sx", ["/work/repo", "/tmp/s"])).toBe(false);
    expect(isInsideAnyRoot("/x", [])).toBe(false);
  });
});

describe("host matching", () => {
  const patterns = ["api.example.com", "*.cdn.example.com", "registry.npmjs.org:443", "10.0.0.1", "[::1]:8080"].map(
    (p) => parseHostPattern(p) as HostPattern,
  );
  it.each([
    ["api.example.com", 443, true],
    ["api.example.com", null, true],
    ["API.Example.com.", 80, true],
    ["evil-api.example.com", 443, false],
    ["a.cdn.example.com", 443, true],
    ["a.b.cdn.example.com", 443, true],
    ["cdn.example.com", 443, false],
    ["xcdn.example.com", 443, false],
    ["registry.npmjs.org", 443, true],
    ["registry.npmjs.org", 80, false],
    // No port: a name lookup, allowed where the name is allowed on some port.
    ["registry.npmjs.org", null, true],
    ["registry.yarnpkg.com", null, false],
    ["10.0.0.1", 22, true],
    ["10.0.0.10", 22, false],
    ["::1", 8080, true],
    ["[::1]", 8081, false],
  ] as const)("%s port %s -> %s", (host, port, allowed) => {
    expect(hostAllowed(patterns, normalizeHost(host), port)).toBe(allowed);
  });

  it("formats endpoints, bracketing IPv6", () => {
    expect(formatEndpoint("a.example", 443)).toBe("a.example:443");
    expect(formatEndpoint("::1", 443)).toBe("[::1]:443");
    expect(formatEndpoint("a.example", null)).toBe("a.example");
  });

  it("rejects ports out of range", () => {
    expect(parseHostPattern("a.example:0")).toBeNull();
    expect(parseHostPattern("a.example:65536")).toBeNull();
  });
});
