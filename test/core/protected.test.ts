import { describe, expect, it } from "vitest";
import { Refusal } from "../../src/core/errors.js";
import { expandRoots, expandWritableProtected, loadEnvelope, type LoadedEnvelope } from "../../src/core/envelope.js";
import { LogEvaluator, type LogVerdict } from "../../src/core/log-reader.js";
import { neverWritableReason } from "../../src/core/protected.js";
import { credentialFindings, parseConfigList, stripUserinfo } from "../../src/observer/protected.js";
import { envelopeText, logText, type Event } from "../support/logs.js";

const WORKSPACE = "/work/repo";
const SCRATCH = "/tmp/agent-scratch";

function envelope(overrides: Record<string, unknown> = {}): LoadedEnvelope {
  return loadEnvelope(Buffer.from(envelopeText(overrides)), "envelope.json");
}

function judge(events: Event[], meta: Event = {}, overrides: Record<string, unknown> = {}): LogVerdict {
  const loaded = envelope(overrides);
  const ev = new LogEvaluator(loaded, { roots: expandRoots(loaded, { workspace: WORKSPACE, scratch: SCRATCH }), file: "observer.jsonl" });
  ev.push(Buffer.from(logText(loaded.hash, events, { meta })));
  return ev.finish();
}

const ids = (v: LogVerdict) => v.violations.map((x) => x.id);
const write = (path: string, op = "write"): Event => ({ kind: "write", path, op });
const RUN_META = {
  workspace: WORKSPACE,
  scratch: SCRATCH,
  protected: {
    paths: [`${WORKSPACE}/.git`, `${WORKSPACE}/.github`, `${WORKSPACE}/vendor/action`],
    writable: [`${WORKSPACE}/.github/generated`],
  },
};

describe("write_protected: judged lexically on the recorded paths", () => {
  it("any write with a .git segment inside a root is write_protected, even without meta.protected (a new .git where none was)", () => {
    const v = judge([
      write(`${WORKSPACE}/.git/config`),
      write(`${WORKSPACE}/.git/hooks/pre-commit`, "create"),
      write(`${WORKSPACE}/sub/.git`, "mkdir"),
      write(`${WORKSPACE}/deep/er/.git/HEAD`, "create"),
      write(`${WORKSPACE}/a/../.git/./config`),
      write(`${WORKSPACE}/.gitignore`),
      write(`${WORKSPACE}/x.git/y`),
      write(`${WORKSPACE}/src/a.ts`),
    ]);
    expect(ids(v)).toEqual([
      `write_protected:${WORKSPACE}/.git/config`,
      `write_protected:${WORKSPACE}/.git/hooks/pre-commit`,
      `write_protected:${WORKSPACE}/sub/.git`,
      `write_protected:${WORKSPACE}/deep/er/.git/HEAD`,
    ]);
    expect(v.violations[0]?.count).toBe(2);
    expect(v.violations[0]?.rule).toBe("write_protected");
  });

  it("the recorded protected paths (.github, the Action's directory) are judged; writable_protected entries are not", () => {
    const v = judge(
      [
        write(`${WORKSPACE}/.github/workflows/x.yml`, "create"),
        write(`${WORKSPACE}/.github/generated/out.json`),
        write(`${WORKSPACE}/vendor/action/action.yml`),
        write(`${WORKSPACE}/vendor/other.txt`),
      ],
      RUN_META,
    );
    expect(ids(v)).toEqual([
      `write_protected:${WORKSPACE}/.github/workflows/x.yml`,
      `write_protected:${WORKSPACE}/vendor/action/action.yml`,
    ]);
  });

  it("a writable entry never exempts .git's hooks or config, whatever the meta says", () => {
    const v = judge([write(`${WORKSPACE}/.git/hooks/post-checkout`), write(`${WORKSPACE}/.git/objects/ab/cd`)], {
      ...RUN_META,
      protected: { paths: [`${WORKSPACE}/.git`], writable: [`${WORKSPACE}/.git`] },
    });
    expect(ids(v)).toEqual([`write_protected:${WORKSPACE}/.git/hooks/post-checkout`]);
  });

  it("the run's scratch is exempt from the .git rule when apart from the workspace, and not when inside it", () => {
    expect(ids(judge([write(`${SCRATCH}/t/.git/config`)], RUN_META))).toEqual([]);
    // No meta.scratch: no exemption (a log that does not say where its scratch was is judged strictly).
    expect(ids(judge([write(`${SCRATCH}/t/.git/config`)]))).toEqual([`write_protected:${SCRATCH}/t/.git/config`]);
    const inside = `${WORKSPACE}/.scratch`;
    const v = judge([write(`${inside}/t/.git/config`)], { workspace: WORKSPACE, scratch: inside }, { allowed_roots: ["${WORKSPACE}"] });
    expect(ids(v)).toEqual([`write_protected:${inside}/t/.git/config`]);
  });

  it(".gitmodules and .github are protected names at any depth below a root, like .git; look-alikes are not", () => {
    const v = judge([
      write(`${WORKSPACE}/.gitmodules`),
      write(`${WORKSPACE}/sub/.gitmodules`, "create"),
      write(`${WORKSPACE}/sub/.github/workflows/x.yml`, "create"),
      write(`${WORKSPACE}/.github/actions/setup/action.yml`, "create"),
      write(`${WORKSPACE}/docs/gitmodules.txt`, "create"),
      write(`${WORKSPACE}/.gitmodules.bak`, "create"),
      write(`${WORKSPACE}/sub/.githubx/y`, "create"),
      write(`${WORKSPACE}/sub/github/workflows/x.yml`, "create"),
    ]);
    expect(ids(v)).toEqual([
      `write_protected:${WORKSPACE}/.gitmodules`,
      `write_protected:${WORKSPACE}/sub/.gitmodules`,
      `write_protected:${WORKSPACE}/sub/.github/workflows/x.yml`,
      `write_protected:${WORKSPACE}/.github/actions/setup/action.yml`,
    ]);
    // The scratch apart from the workspace is the run's own for these names too; a writable entry frees them.
    expect(ids(judge([write(`${SCRATCH}/t/.gitmodules`), write(`${SCRATCH}/t/.github/w.yml`)], RUN_META))).toEqual([]);
    const writable = { ...RUN_META, protected: { paths: [], writable: [`${WORKSPACE}/fixtures`] } };
    expect(ids(judge([write(`${WORKSPACE}/fixtures/r/.gitmodules`), write(`${WORKSPACE}/fixtures/r/.github/w.yml`)], writable))).toEqual(
      [],
    );
  });

  it("outside every root a .git write stays write_outside_root (one rule per write)", () => {
    expect(ids(judge([write("/etc/.git/config")]))).toEqual(["write_outside_root:/etc/.git/config"]);
  });

  it("a malformed meta.protected is OBSERVER_LOG_MALFORMED", () => {
    for (const bad of [[], { paths: "x" }, { paths: ["relative"] }, { paths: [], extra: [] }]) {
      try {
        judge([], { protected: bad });
        throw new Error("expected a refusal");
      } catch (err) {
        expect(err).toBeInstanceOf(Refusal);
        expect((err as Refusal).code).toBe("OBSERVER_LOG_MALFORMED");
      }
    }
  });
});

describe('write_protected: the effects check\'s lines ("source": "effects") are judged whatever the recorder said', () => {
  const effect = (path: string, op = "create"): Event => ({ kind: "write", path, op, source: "effects" });

  it("every one is write_protected: .gitmodules, a nested .github, a gitdir with no protected name, even in the scratch", () => {
    const meta = { ...RUN_META, protected: { paths: [`${WORKSPACE}/.github`, `${WORKSPACE}/gitdirs/sub`], writable: [] } };
    const v = judge(
      [
        effect(`${WORKSPACE}/.gitmodules`),
        effect(`${WORKSPACE}/sub/.github/workflows/x.yml`),
        effect(`${WORKSPACE}/gitdirs/sub/config`, "write"),
        effect(`${SCRATCH}/t/.git`, "mkdir"),
        effect(`${WORKSPACE}/sub/.gitmodules`, "delete"),
      ],
      meta,
    );
    expect(ids(v)).toEqual([
      `write_protected:${WORKSPACE}/.gitmodules`,
      `write_protected:${WORKSPACE}/sub/.github/workflows/x.yml`,
      `write_protected:${WORKSPACE}/gitdirs/sub/config`,
      `write_protected:${SCRATCH}/t/.git`,
      `write_protected:${WORKSPACE}/sub/.gitmodules`,
    ]);
    // The clean twin: the recorder's own line to the scratch's .git passes (the scratch's exemption).
    expect(ids(judge([write(`${SCRATCH}/t/.git`, "mkdir")], meta))).toEqual([]);
  });

  it("under a writable_protected entry it passes, never for .git's hooks or config", () => {
    const meta = {
      ...RUN_META,
      protected: { paths: [`${WORKSPACE}/.git`], writable: [`${WORKSPACE}/.github/generated`, `${WORKSPACE}/.git`] },
    };
    const v = judge(
      [
        effect(`${WORKSPACE}/.github/generated/out.json`),
        effect(`${WORKSPACE}/.git/objects/ab/cd`),
        effect(`${WORKSPACE}/.git/hooks/pre-commit`),
      ],
      meta,
    );
    expect(ids(v)).toEqual([`write_protected:${WORKSPACE}/.git/hooks/pre-commit`]);
  });

  it("an effects line is never a failed or refused call: errno or ok on one is OBSERVER_LOG_MALFORMED", () => {
    for (const extra of [{ errno: "ENOENT" }, { ok: false }]) {
      expect(() => judge([{ ...effect(`${WORKSPACE}/.gitmodules`), ...extra }])).toThrow(
        expect.objectContaining({ code: "OBSERVER_LOG_MALFORMED" }) as Error,
      );
    }
  });
});

describe("writable_protected in the envelope", () => {
  const refused = (entry: string): Refusal => {
    try {
      envelope({ writable_protected: [entry] });
    } catch (err) {
      expect(err).toBeInstanceOf(Refusal);
      return err as Refusal;
    }
    throw new Error(`expected ${entry} to be refused`);
  };

  it("names a protected path to make writable, expanded like the roots", () => {
    const loaded = envelope({ writable_protected: ["${WORKSPACE}/.github/generated", "/opt/action/cache", "${WORKSPACE}/.git/objects"] });
    expect(expandWritableProtected(loaded, { workspace: WORKSPACE, scratch: SCRATCH })).toEqual([
      `${WORKSPACE}/.github/generated`,
      "/opt/action/cache",
      `${WORKSPACE}/.git/objects`,
    ]);
  });

  it("can never name .git, its hooks or config, or anything containing them: ENVELOPE_INVALID with the file and the reason", () => {
    for (const entry of [
      "${WORKSPACE}/.git",
      "${WORKSPACE}/.git/",
      "${WORKSPACE}/.git/hooks",
      "${WORKSPACE}/.git/hooks/pre-commit",
      "${WORKSPACE}/.git/config",
      "${WORKSPACE}/.git/modules/sub",
      "${WORKSPACE}/sub/.git/config",
      "/work/repo/.git/info",
    ]) {
      const err = refused(entry);
      expect(err.code, entry).toBe("ENVELOPE_INVALID");
      expect(err.file).toBe("envelope.json");
      expect(err.message).toMatch(/\.git/);
    }
    for (const entry of ["${WORKSPACE}", "${WORKSPACE}/", "/", "${WORKSPACE}/a/../.git/hooks", "${WORKSPACE}/.."]) {
      const err = refused(entry);
      expect(err.code, entry).toBe("ENVELOPE_INVALID");
      expect(err.message).toContain("can never be writable");
    }
    expect(refused("relative/path").code).toBe("ENVELOPE_INVALID");
  });

  it("neverWritableReason: nested .git below a .git's other parts is still checked", () => {
    expect(neverWritableReason("/w/.git/objects")).toBeNull();
    expect(neverWritableReason("/w/.github/generated")).toBeNull();
    expect(neverWritableReason("/w/.git/worktrees/x")).not.toBeNull();
    expect(neverWritableReason("/w/sub/.git")).not.toBeNull();
  });
});

describe("persisted credentials: what counts (observer/protected.ts, pure part)", () => {
  it("finds checkout's extraheader, tokens in URLs and insteadOf bases, and the files includes and stores point at", () => {
    const entries = parseConfigList(
      [
        "core.bare\nfalse",
        "http.https://github.com/.extraheader\nAUTHORIZATION: basic eC1hY2Nlc3M=",
        "remote.origin.url\nhttps://x-access-token:ghs_abc@github.com/o/r",
        "submodule.sub.url\nssh://git@github.com/o/s",
        "url.https://ghs_abc@github.com/.insteadof\nhttps://github.com/",
        "includeif.gitdir:/w/.git.path\n/runner/temp/git-credentials-1.config",
        "credential.helper\nstore --file=/home/u/.my-creds",
        "",
      ].join("\0"),
    );
    const f = credentialFindings(entries);
    expect(f.unset).toEqual(["http.https://github.com/.extraheader"]);
    expect(f.rewrite).toEqual([{ key: "remote.origin.url", values: ["https://x-access-token:ghs_abc@github.com/o/r"] }]);
    expect(f.removeSections).toEqual(["url.https://ghs_abc@github.com/"]);
    expect(f.referenced).toEqual([
      { kind: "include", path: "/runner/temp/git-credentials-1.config" },
      { kind: "store", path: "/home/u/.my-creds" },
    ]);
    expect(stripUserinfo("https://x-access-token:ghs_abc@github.com/o/r")).toBe("https://github.com/o/r");
    expect(stripUserinfo("ssh://git@github.com/o/s")).toBe("ssh://git@github.com/o/s");
  });

  it("persist-credentials: false leaves nothing to hide", () => {
    const f = credentialFindings(parseConfigList("remote.origin.url\nhttps://github.com/o/r\0core.bare\nfalse\0"));
    expect(f).toEqual({ unset: [], rewrite: [], removeSections: [], referenced: [] });
  });
});
