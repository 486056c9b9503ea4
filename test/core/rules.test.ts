import { describe, expect, it } from "vitest";
import type { Envelope } from "../../src/core/envelope.js";
import { NO_PROTECTED } from "../../src/core/protected.js";
import {
  hostName,
  hostViaSet,
  isLoopback,
  isRuntimeOwnRead,
  judgeEffect,
  judgeEnv,
  judgeExec,
  judgeHost,
  judgeSyscall,
  judgeTool,
  judgeWrite,
  ruleContext,
  runEnv,
  writeInsideRoots,
  type RuleContext,
} from "../../src/core/rules.js";

const envelope: Envelope = {
  envelope_id: "e",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: ["read_file"],
  allowed_env: ["PATH", "NPM_*", "@ci"],
  allowed_hosts: ["registry.npmjs.org:443", "*.githubusercontent.com", "@npm"],
  network: "allowlist",
  allowed_commands: ["git", "/usr/local/bin/tsc"],
};
const roots = ["/work/repo", "/tmp/s"];
const run = {
  logPath: "/tmp/s/observer.jsonl",
  protectedSet: { ...NO_PROTECTED, paths: ["/work/repo/.github"], writable: ["/work/repo/.github/generated"] },
  ownNetwork: true,
};
const ctx: RuleContext = ruleContext(envelope, roots, run);

describe("judgeWrite", () => {
  it("allows a write inside a root and refuses one outside every root", () => {
    expect(judgeWrite(ctx, "/work/repo/src/a.ts", "done")).toBeNull();
    expect(judgeWrite(ctx, "/tmp/s", "done")).toBeNull();
    expect(judgeWrite(ctx, "/home/runner/.cache/x", "done")).toBe("write_outside_root");
    expect(judgeWrite(ctx, "/work/repository", "done")).toBe("write_outside_root");
  });

  it("never allows the log's own path, whatever the write's outcome", () => {
    expect(writeInsideRoots(ctx, "/tmp/s/observer.jsonl")).toBe(false);
    for (const outcome of ["done", "refused", "missing_target"] as const) {
      expect(judgeWrite(ctx, "/tmp/s/observer.jsonl", outcome)).toBe("write_outside_root");
    }
  });

  it("judges a refused write as outside the roots, even under one", () => {
    expect(judgeWrite(ctx, "/work/repo/link/x", "refused")).toBe("write_outside_root");
  });

  it("does not judge a write that found nothing outside the roots; inside them it is judged as any write", () => {
    expect(judgeWrite(ctx, "/etc/nothing-here", "missing_target")).toBeNull();
    expect(judgeWrite(ctx, "/work/repo/src/gone", "missing_target")).toBeNull();
    expect(judgeWrite(ctx, "/work/repo/.github/workflows/x.yml", "missing_target")).toBe("write_protected");
  });

  it("refuses a protected path inside a root, except one listed writable", () => {
    expect(judgeWrite(ctx, "/work/repo/.github/workflows/x.yml", "done")).toBe("write_protected");
    expect(judgeWrite(ctx, "/work/repo/.github/generated/y", "done")).toBeNull();
    expect(judgeWrite(ctx, "/work/repo/.git/hooks/pre-commit", "done")).toBe("write_protected");
  });

  it("takes containment worked out by the caller", () => {
    expect(judgeWrite(ctx, "/work/repo/src/a.ts", "done", false)).toBe("write_outside_root");
    expect(judgeWrite(ctx, "/work/repo/.github/x", "done", true)).toBe("write_protected");
  });
});

describe("judgeEffect", () => {
  it("a protected entry the filesystem shows changed is write_protected wherever it is, unless made writable", () => {
    const apart = ruleContext(envelope, roots, { ...run, protectedSet: { ...run.protectedSet, gitExempt: ["/tmp/s"] } });
    // What a recorder's own line to the same path is judged (judgeWrite), beside the effect's.
    for (const [path, recorder] of [
      ["/work/repo/.gitmodules", "write_protected"],
      ["/work/repo/sub/.gitmodules", "write_protected"],
      ["/work/repo/sub/.github/workflows/x.yml", "write_protected"],
      ["/work/repo/.git/config", "write_protected"],
      // Where no recorder line is judged: the exempt scratch, and a path with no protected name.
      ["/tmp/s/t/.git", null],
      ["/work/repo/src/a.ts", null],
    ] as const) {
      expect(judgeEffect(apart, path), path).toBe("write_protected");
      expect(judgeWrite(apart, path, "done"), path).toBe(recorder);
    }
    expect(judgeEffect(apart, "/work/repo/.github/generated/y")).toBeNull();
  });

  it("a writable entry never exempts .git's hooks or config", () => {
    const open = ruleContext(envelope, roots, { ...run, protectedSet: { ...NO_PROTECTED, writable: ["/work/repo/.git"] } });
    expect(judgeEffect(open, "/work/repo/.git/hooks/pre-commit")).toBe("write_protected");
    expect(judgeEffect(open, "/work/repo/.git/objects/ab/cd")).toBeNull();
  });
});

describe("judgeEnv", () => {
  it("allows exact keys, patterns and sets, and refuses any other key", () => {
    expect(judgeEnv(ctx, "PATH", "node")).toBeNull();
    expect(judgeEnv(ctx, "NPM_CONFIG_CACHE", "node")).toBeNull();
    expect(judgeEnv(ctx, "AC_APPCIRCLE", "process")).toBeNull();
    expect(judgeEnv(ctx, "AWS_SECRET_ACCESS_KEY", "node")).toBe("undeclared_env");
  });

  it("leaves out the runtime's own reads of its keys, from the runtime only", () => {
    expect(isRuntimeOwnRead("NODE_OPTIONS", "runtime")).toBe(true);
    expect(judgeEnv(ctx, "NODE_OPTIONS", "runtime")).toBeNull();
    expect(judgeEnv(ctx, "NODE_OPTIONS", "node")).toBe("undeclared_env");
    expect(judgeEnv(ctx, "AWS_KEY", "runtime")).toBe("undeclared_env");
  });

  it("does not judge the proxy keys the wrapper sets under allowlist; under deny it does", () => {
    expect(judgeEnv(ctx, "HTTPS_PROXY", "node")).toBeNull();
    expect(judgeEnv({ ...ctx, network: "deny" }, "HTTPS_PROXY", "node")).toBe("undeclared_env");
  });

  it("does not judge the git keys every run sets, under any network; a neighbour of theirs is judged", () => {
    const deny = { ...ctx, network: "deny" as const };
    for (const key of ["GIT_OPTIONAL_LOCKS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_3"])
      expect(judgeEnv(deny, key, "node")).toBeNull();
    expect(judgeEnv(deny, "GIT_CONFIG_PARAMETERS", "node")).toBe("undeclared_env");
    expect(judgeEnv(deny, "GIT_CONFIG_KEY_", "node")).toBe("undeclared_env");
  });
});

describe("runEnv", () => {
  it("turns off git's optional locks and the index refresh of git diff, after the caller's own config entries", () => {
    const own = { GIT_OPTIONAL_LOCKS: "0", GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "diff.autoRefreshIndex", GIT_CONFIG_VALUE_0: "false" };
    expect(runEnv({})).toEqual(own);
    expect(runEnv({ GIT_CONFIG_COUNT: "not a number" })).toEqual(own);
    expect(runEnv({ GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_0: "a.b", GIT_CONFIG_VALUE_0: "c" })).toEqual({
      GIT_OPTIONAL_LOCKS: "0",
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_KEY_2: "diff.autoRefreshIndex",
      GIT_CONFIG_VALUE_2: "false",
    });
  });
});

describe("judgeTool", () => {
  it("allows a listed tool only", () => {
    expect(judgeTool(ctx, "read_file")).toBeNull();
    expect(judgeTool(ctx, "bash")).toBe("undeclared_tool");
  });
});

describe("judgeHost", () => {
  it("allows a listed endpoint and refuses any other", () => {
    expect(judgeHost(ctx, "registry.npmjs.org", 443, undefined)).toBeNull();
    expect(judgeHost(ctx, "raw.githubusercontent.com", 443, undefined)).toBeNull();
    expect(judgeHost(ctx, "registry.npmjs.org", 80, undefined)).toBe("undeclared_host");
    expect(judgeHost(ctx, "exfil.example.net", 443, undefined)).toBe("undeclared_host");
  });

  it("refuses every host under deny", () => {
    expect(judgeHost({ ...ctx, network: "deny" }, "registry.npmjs.org", 443, undefined)).toBe("network_denied");
  });

  it("allows a process-level connect to an address the hooks connected to by an allowed name", () => {
    expect(judgeHost(ctx, "104.16.0.35", 443, "REGISTRY.npmjs.org.")).toBeNull();
    expect(judgeHost(ctx, "104.16.0.35", 443, "exfil.example.net")).toBe("undeclared_host");
    expect(judgeHost(ctx, "104.16.0.35", 443, "")).toBe("undeclared_host");
  });

  it("leaves out loopback in the run's own network namespace, unless the envelope says loopback is network", () => {
    expect(isLoopback("127.0.0.2") && isLoopback("::1") && isLoopback("::ffff:127.0.0.1") && isLoopback("a.localhost")).toBe(true);
    expect(isLoopback("10.0.0.1")).toBe(false);
    expect(judgeHost({ ...ctx, network: "deny" }, "127.0.0.1", 8080, undefined)).toBeNull();
    expect(judgeHost({ ...ctx, ownNetwork: false }, "127.0.0.1", 8080, undefined)).toBe("undeclared_host");
    expect(judgeHost({ ...ctx, loopbackLocal: false }, "localhost", 8080, undefined)).toBe("undeclared_host");
  });

  it("a container engine (its socket names, Docker's ports on any host) is docker_refused, under deny and allowlist, loopback too", () => {
    const deny: RuleContext = { ...ctx, network: "deny" };
    const listed = ruleContext(
      { ...envelope, allowed_hosts: ["127.0.0.1:2375", "localhost:2376", "docker.example:2375", "*.example", "10.0.0.5"] },
      roots,
      run,
    );
    for (const c of [ctx, deny, listed, { ...ctx, loopbackLocal: false }, { ...ctx, ownNetwork: false }]) {
      for (const socket of [
        "unix:/var/run/docker.sock",
        "unix:/run/docker.sock",
        "unix:/run/podman/podman.sock",
        "unix:/run/containerd/containerd.sock",
        "unix:/run/buildkit/buildkitd.sock",
        "unix:/run/user/1000/docker.sock",
        "unix:/run/user/1000/podman/podman.sock",
        "unix://./pipe/docker_engine",
      ]) {
        expect(judgeHost(c, socket, null, undefined), socket).toBe("docker_refused");
      }
      for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "docker.example", "10.0.0.5", "registry.npmjs.org"]) {
        expect(judgeHost(c, host, 2375, undefined), host).toBe("docker_refused");
        expect(judgeHost(c, host, 2376, "registry.npmjs.org"), host).toBe("docker_refused");
      }
      expect(hostViaSet(c, "registry.npmjs.org", 2376)).toBeNull();
    }
    // Only those names, only those ports: a name that merely contains one, a lookup, other ports.
    expect(judgeHost(deny, "unix:/run/docker.sock.bak", null, undefined)).toBe("network_denied");
    expect(judgeHost(deny, "unix:/run/my-docker.sock", null, undefined)).toBe("network_denied");
    expect(judgeHost(deny, "unix:@docker.sock", null, undefined)).toBe("network_denied");
    expect(judgeHost(deny, "docker.example", null, undefined)).toBe("network_denied");
    expect(judgeHost(deny, "127.0.0.1", 2377, undefined)).toBeNull();
    expect(judgeHost(listed, "docker.example", 2377, undefined)).toBeNull();
  });

  it("names unix sockets by their case-sensitive path, other hosts normalised", () => {
    expect(hostName("unix:/Run/X.sock")).toBe("unix:/Run/X.sock");
    expect(hostName("[::1]")).toBe("::1");
    expect(hostName("Registry.NPMJS.org.")).toBe("registry.npmjs.org");
  });

  it("says which set alone allowed a connection, never a lookup", () => {
    const sets = ruleContext({ ...envelope, allowed_hosts: ["@npm"] }, roots, run);
    expect(hostViaSet(sets, "registry.npmjs.org", 443)).toBe("@npm");
    expect(hostViaSet(sets, "registry.npmjs.org", null)).toBeNull();
    expect(hostViaSet(ctx, "registry.npmjs.org", 443)).toBeNull();
    expect(hostViaSet(sets, "exfil.example.net", 443)).toBeNull();
  });
});

describe("judgeExec", () => {
  it("allows a command by its exact path or by its file's name", () => {
    expect(judgeExec(ctx, "/usr/bin/git")).toBeNull();
    expect(judgeExec(ctx, "/usr/local/bin/tsc")).toBeNull();
    expect(judgeExec(ctx, "/work/repo/node_modules/.bin/tsc")).toBe("undeclared_command");
    expect(judgeExec(ctx, "/usr/bin/curl")).toBe("undeclared_command");
  });

  it("judges no command when the envelope has no allowed_commands", () => {
    const { allowed_commands: _, ...without } = envelope;
    expect(judgeExec(ruleContext(without, roots), "/usr/bin/curl")).toBeNull();
  });
});

describe("judgeSyscall", () => {
  it("allows no trapped system call", () => {
    expect(judgeSyscall()).toBe("forbidden_syscall");
  });
});
