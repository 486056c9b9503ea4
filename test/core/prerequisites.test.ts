import { describe, expect, it } from "vitest";
import {
  PROFILE_PATH,
  bwrapProfile,
  planPrerequisites,
  shellLines,
  stepCommands,
  type PrerequisiteFacts,
  type PrerequisitePlan,
  type PrerequisiteStep,
} from "../../src/core/prerequisites.js";

const STRACE = { path: "/usr/bin/strace", version: "strace -- version 6.1" };
const BWRAP = { path: "/usr/bin/bwrap", version: "bubblewrap 0.8.0" };
const SETPRIV = { path: "/usr/bin/setpriv", version: "setpriv from util-linux 2.38.1" };

/** This machine: Debian 12, root, everything installed, no AppArmor. */
const DEBIAN_12_ROOT: PrerequisiteFacts = {
  platform: "linux",
  os: { id: "debian", idLike: [], versionId: "12" },
  runnerEnvironment: null,
  privilege: "root",
  tools: { strace: STRACE, bwrap: BWRAP, setpriv: SETPRIV, apparmorParser: null },
  configured: { strace: null, bwrap: null },
  userns: { restrictSysctl: null, apparmorEnabled: false, apparmorAbi4: false, bwrapRootOwned: true, probe: { ok: true } },
  recorder: "auto",
  setupAllowed: true,
};

/** A GitHub-hosted Ubuntu 24.04 runner as the job starts: runner user with passwordless sudo, the restriction on. */
const UBUNTU_24_HOSTED: PrerequisiteFacts = {
  platform: "linux",
  os: { id: "ubuntu", idLike: ["debian"], versionId: "24.04" },
  runnerEnvironment: "github-hosted",
  privilege: "sudo",
  tools: { strace: null, bwrap: null, setpriv: SETPRIV, apparmorParser: "/usr/sbin/apparmor_parser" },
  configured: { strace: null, bwrap: null },
  userns: { restrictSysctl: 1, apparmorEnabled: true, apparmorAbi4: true, bwrapRootOwned: null, probe: null },
  recorder: "auto",
  setupAllowed: true,
};

/** A GitHub-hosted Ubuntu 22.04 runner: no restriction sysctl, AppArmor 3. */
const UBUNTU_22_HOSTED: PrerequisiteFacts = {
  ...UBUNTU_24_HOSTED,
  os: { id: "ubuntu", idLike: ["debian"], versionId: "22.04" },
  userns: { restrictSysctl: null, apparmorEnabled: true, apparmorAbi4: false, bwrapRootOwned: null, probe: null },
};

type FactsChange = Partial<Omit<PrerequisiteFacts, "userns">> & { userns?: Partial<PrerequisiteFacts["userns"]> };

function facts(base: PrerequisiteFacts, change: FactsChange): PrerequisiteFacts {
  return { ...base, ...change, userns: { ...base.userns, ...change.userns }, tools: { ...base.tools, ...change.tools } };
}

function steps(plan: PrerequisitePlan): readonly PrerequisiteStep[] {
  if (!plan.ok) throw new Error(`refused: ${plan.code}: ${plan.message}`);
  return plan.steps;
}

function refusal(plan: PrerequisitePlan): Extract<PrerequisitePlan, { ok: false }> {
  if (plan.ok) throw new Error(`planned ${JSON.stringify(plan.steps)}`);
  return plan;
}

const DENIED: PrerequisiteFacts["userns"]["probe"] = { ok: false, why: "bwrap: setting up uid map: Permission denied" };

describe("planPrerequisites: nothing to do", () => {
  it("this machine (Debian 12, root, everything installed, no AppArmor) plans nothing", () => {
    const plan = planPrerequisites(DEBIAN_12_ROOT);
    expect(plan).toMatchObject({ ok: true, steps: [] });
    expect(plan.notes).toContain("strace: /usr/bin/strace (strace -- version 6.1)");
    expect(plan.notes).toContain("user namespaces: bwrap created one");
  });

  it("never installs when everything is present, whoever runs it and whatever the switch", () => {
    for (const privilege of ["root", "sudo", "sudo-needs-password", "no-sudo"] as const) {
      for (const setupAllowed of [true, false]) {
        for (const recorder of ["auto", "ebpf", "strace"] as const) {
          const plan = planPrerequisites(facts(DEBIAN_12_ROOT, { privilege, setupAllowed, recorder }));
          expect(plan, `${privilege} ${String(setupAllowed)} ${recorder}`).toMatchObject({ ok: true, steps: [] });
        }
      }
    }
  });

  it("an Ubuntu 24.04 runner whose bwrap already creates user namespaces (a profile there already) gets no profile", () => {
    const ready = facts(UBUNTU_24_HOSTED, {
      tools: { ...UBUNTU_24_HOSTED.tools, strace: STRACE, bwrap: BWRAP },
      userns: { probe: { ok: true } },
    });
    expect(steps(planPrerequisites(ready))).toEqual([]);
  });

  it("the eBPF recorder demanded: a missing strace is not needed", () => {
    const plan = planPrerequisites(facts(DEBIAN_12_ROOT, { recorder: "ebpf", tools: { ...DEBIAN_12_ROOT.tools, strace: null } }));
    expect(steps(plan)).toEqual([]);
  });
});

describe("planPrerequisites: hosted Ubuntu is set up", () => {
  it("Ubuntu 24.04 hosted: installs strace and bubblewrap, grants /usr/bin/bwrap user namespaces with a profile, probes; through sudo -n", () => {
    const plan = planPrerequisites(UBUNTU_24_HOSTED);
    expect(plan.ok && plan.elevate).toEqual(["sudo", "-n"]);
    expect(steps(plan)).toEqual([
      { kind: "install-packages", packages: ["strace", "bubblewrap"] },
      { kind: "write-apparmor-profile", path: PROFILE_PATH, body: bwrapProfile("/usr/bin/bwrap") },
      { kind: "load-apparmor-profile", path: PROFILE_PATH },
      { kind: "probe-userns", bwrap: "/usr/bin/bwrap" },
    ]);
  });

  it("a restricted bwrap a user could replace (not root's, or in a directory others can write) gets no profile: PREREQUISITE_USERNS_BLOCKED", () => {
    const plan = refusal(
      planPrerequisites(
        facts(UBUNTU_24_HOSTED, {
          tools: { ...UBUNTU_24_HOSTED.tools, strace: STRACE, bwrap: { path: "/home/runner/.local/bin/bwrap", version: null } },
          userns: { probe: DENIED, bwrapRootOwned: false },
        }),
      ),
    );
    expect(plan.code).toBe("PREREQUISITE_USERNS_BLOCKED");
    expect(plan.message).toContain("not a root-owned file in root-owned directories");
  });

  it("Ubuntu 24.04 with bwrap present whose probe fails: the profile names the bwrap the jail uses (not /usr/bin/bwrap)", () => {
    const plan = planPrerequisites(
      facts(UBUNTU_24_HOSTED, {
        tools: { ...UBUNTU_24_HOSTED.tools, strace: STRACE, bwrap: { path: "/opt/bubblewrap/bin/bwrap", version: null } },
        userns: { probe: DENIED, bwrapRootOwned: true },
      }),
    );
    const write = steps(plan).find((s) => s.kind === "write-apparmor-profile");
    expect(write).toBeDefined();
    expect(write?.kind === "write-apparmor-profile" && write.body).toContain(
      "profile envelope-gate-bwrap /opt/bubblewrap/bin/bwrap flags=(unconfined) {",
    );
    expect(steps(plan).map((s) => s.kind)).toEqual(["write-apparmor-profile", "load-apparmor-profile", "probe-userns"]);
  });

  it("never the global sysctl: no step and no suggested command turns the restriction off", () => {
    const plans = [
      planPrerequisites(UBUNTU_24_HOSTED),
      planPrerequisites(facts(UBUNTU_24_HOSTED, { privilege: "sudo-needs-password" })),
      planPrerequisites(facts(UBUNTU_24_HOSTED, { setupAllowed: false })),
    ];
    for (const plan of plans) {
      const text = JSON.stringify(plan.ok ? plan.steps.flatMap((s) => stepCommands(s, plan.elevate)) : plan.commands);
      expect(text).not.toContain("sysctl");
      expect(text).toContain("apparmor_parser");
    }
  });

  it("Ubuntu 22.04 hosted (no restriction): installs the programs, writes no profile, probes after", () => {
    expect(steps(planPrerequisites(UBUNTU_22_HOSTED))).toEqual([
      { kind: "install-packages", packages: ["strace", "bubblewrap"] },
      { kind: "probe-userns", bwrap: "/usr/bin/bwrap" },
    ]);
  });

  it("installs apparmor's parser when the profile is needed and apparmor_parser is missing", () => {
    const plan = planPrerequisites(facts(UBUNTU_24_HOSTED, { tools: { ...UBUNTU_24_HOSTED.tools, apparmorParser: null } }));
    expect(steps(plan)[0]).toEqual({ kind: "install-packages", packages: ["strace", "bubblewrap", "apparmor"] });
  });

  it("setpriv missing: util-linux", () => {
    const plan = planPrerequisites(facts(DEBIAN_12_ROOT, { tools: { ...DEBIAN_12_ROOT.tools, setpriv: null } }));
    expect(plan.ok && plan.elevate).toEqual([]);
    expect(steps(plan)).toEqual([{ kind: "install-packages", packages: ["util-linux"] }]);
  });

  it("a container job as root without AppArmor (Debian image): apt-get without sudo, no profile", () => {
    const container = facts(DEBIAN_12_ROOT, {
      runnerEnvironment: "github-hosted",
      tools: { strace: null, bwrap: null, setpriv: SETPRIV, apparmorParser: null },
      userns: { probe: null },
    });
    const plan = planPrerequisites(container);
    expect(plan.ok && plan.elevate).toEqual([]);
    expect(steps(plan)).toEqual([
      { kind: "install-packages", packages: ["strace", "bubblewrap"] },
      { kind: "probe-userns", bwrap: "/usr/bin/bwrap" },
    ]);
    expect(stepCommands(steps(plan)[0] as PrerequisiteStep, [])[1]?.argv).toEqual([
      "env",
      "DEBIAN_FRONTEND=noninteractive",
      "apt-get",
      "install",
      "-y",
      "-q",
      "--no-install-recommends",
      "strace",
      "bubblewrap",
    ]);
  });

  it("restriction sysctl 1 as root: root keeps user namespaces, so no profile is predicted", () => {
    const plan = planPrerequisites(facts(UBUNTU_24_HOSTED, { privilege: "root" }));
    expect(steps(plan).map((s) => s.kind)).toEqual(["install-packages", "probe-userns"]);
  });

  it("restriction sysctl 1 without AppArmor enabled: no restriction in force, no profile", () => {
    const plan = planPrerequisites(facts(UBUNTU_24_HOSTED, { userns: { apparmorEnabled: false } }));
    expect(steps(plan).map((s) => s.kind)).toEqual(["install-packages", "probe-userns"]);
  });

  it("under auto with sudo, a missing strace is installed as the fallback; without a way to install it the run may still record with eBPF", () => {
    const noStrace = facts(DEBIAN_12_ROOT, { tools: { ...DEBIAN_12_ROOT.tools, strace: null } });
    expect(steps(planPrerequisites(noStrace))).toEqual([{ kind: "install-packages", packages: ["strace"] }]);
    const fedora = planPrerequisites(facts(noStrace, { os: { id: "fedora", idLike: [], versionId: "40" } }));
    expect(steps(fedora)).toEqual([]);
    expect(fedora.notes.at(-1)).toMatch(/strace not installed .*eBPF recorder must start/);
  });

  it("a self-hosted Ubuntu runner with passwordless sudo is set up like a hosted one", () => {
    const plan = planPrerequisites(facts(UBUNTU_24_HOSTED, { runnerEnvironment: "self-hosted" }));
    expect(steps(plan).map((s) => s.kind)).toEqual(["install-packages", "write-apparmor-profile", "load-apparmor-profile", "probe-userns"]);
  });
});

describe("planPrerequisites: refusals with the commands to run", () => {
  it("self-hosted without passwordless sudo: PREREQUISITE_MISSING naming what is missing and why nothing was installed", () => {
    const plan = refusal(
      planPrerequisites(facts(UBUNTU_24_HOSTED, { runnerEnvironment: "self-hosted", privilege: "sudo-needs-password" })),
    );
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("missing: strace, bwrap (bubblewrap)");
    expect(plan.message).toContain("sudo asks a password");
    expect(plan.commands[0]).toBe("sudo apt-get update -q");
    expect(plan.commands[1]).toBe(
      "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends strace bubblewrap",
    );
    expect(plan.commands[2]).toBe(`sudo tee ${PROFILE_PATH} >/dev/null <<'EOF'\n${bwrapProfile("/usr/bin/bwrap")}EOF`);
    expect(plan.commands[3]).toBe(`sudo apparmor_parser -r ${PROFILE_PATH}`);
  });

  it("no sudo at all, not root: PREREQUISITE_MISSING", () => {
    const plan = refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { privilege: "no-sudo" })));
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("sudo was not found");
  });

  it("setup-prerequisites false: a missing program is a refusal, never an install", () => {
    const plan = refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { setupAllowed: false })));
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("setup-prerequisites is false");
  });

  it("setup-prerequisites false with the programs there but bwrap restricted: PREREQUISITE_USERNS_BLOCKED with the profile to write", () => {
    const plan = refusal(
      planPrerequisites(
        facts(UBUNTU_24_HOSTED, {
          setupAllowed: false,
          tools: { ...UBUNTU_24_HOSTED.tools, strace: STRACE, bwrap: BWRAP },
          userns: { probe: DENIED, bwrapRootOwned: true },
        }),
      ),
    );
    expect(plan.code).toBe("PREREQUISITE_USERNS_BLOCKED");
    expect(plan.commands).toEqual([
      `sudo tee ${PROFILE_PATH} >/dev/null <<'EOF'\n${bwrapProfile("/usr/bin/bwrap")}EOF`,
      `sudo apparmor_parser -r ${PROFILE_PATH}`,
    ]);
  });

  it("not Debian or Ubuntu: nothing installed, the packages named", () => {
    const plan = refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { os: { id: "fedora", idLike: [], versionId: "40" } })));
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("fedora 40");
    expect(plan.commands).toEqual(["install strace, bubblewrap with the system's package manager"]);
    expect(refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { os: null }))).message).toContain("no /etc/os-release");
  });

  it("a Debian derivative by ID_LIKE is Debian", () => {
    const plan = planPrerequisites(facts(UBUNTU_24_HOSTED, { os: { id: "linuxmint", idLike: ["ubuntu", "debian"], versionId: "22" } }));
    expect(steps(plan)[0]?.kind).toBe("install-packages");
  });

  it("strace recorder without a way to install strace: refused (it is not only a fallback then)", () => {
    const plan = refusal(
      planPrerequisites(
        facts(DEBIAN_12_ROOT, {
          recorder: "strace",
          os: { id: "alpine", idLike: [], versionId: "3.20" },
          tools: { ...DEBIAN_12_ROOT.tools, strace: null },
        }),
      ),
    );
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("missing: strace;");
  });

  it("auto without root or sudo: eBPF cannot start, so strace is required", () => {
    const plan = refusal(
      planPrerequisites(facts(DEBIAN_12_ROOT, { privilege: "no-sudo", tools: { ...DEBIAN_12_ROOT.tools, strace: null } })),
    );
    expect(plan.code).toBe("PREREQUISITE_MISSING");
    expect(plan.message).toContain("missing: strace;");
  });

  it("a probe that fails without Ubuntu's restriction (a container, a kernel switch): PREREQUISITE_USERNS_BLOCKED, no profile", () => {
    const plan = refusal(planPrerequisites(facts(DEBIAN_12_ROOT, { userns: { probe: DENIED } })));
    expect(plan.code).toBe("PREREQUISITE_USERNS_BLOCKED");
    expect(plan.message).toContain("not because of Ubuntu's AppArmor restriction");
    // Restriction sysctl 1 but AppArmor off: the same.
    const off = refusal(planPrerequisites(facts(DEBIAN_12_ROOT, { userns: { probe: DENIED, restrictSysctl: 1, apparmorEnabled: false } })));
    expect(off.code).toBe("PREREQUISITE_USERNS_BLOCKED");
  });

  it("restricted, but this AppArmor has no userns rule (no abi 4.0): PREREQUISITE_USERNS_BLOCKED", () => {
    const plan = refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { userns: { apparmorAbi4: false } })));
    expect(plan.code).toBe("PREREQUISITE_USERNS_BLOCKED");
    expect(plan.message).toContain("abi/4.0");
  });

  it("a bwrap path AppArmor would read as a pattern gets no profile", () => {
    for (const path of ["/opt/b*/bwrap", "/home/me/my tools/bwrap", "/opt/{a,b}/bwrap"]) {
      const plan = refusal(
        planPrerequisites(
          facts(UBUNTU_24_HOSTED, { tools: { ...UBUNTU_24_HOSTED.tools, bwrap: { path, version: null } }, userns: { probe: DENIED } }),
        ),
      );
      expect(plan.code, path).toBe("PREREQUISITE_USERNS_BLOCKED");
    }
  });

  it("ENVELOPE_GATE_BWRAP or ENVELOPE_GATE_STRACE naming nothing: refused, no package installed", () => {
    const bwrap = refusal(planPrerequisites(facts(UBUNTU_24_HOSTED, { configured: { strace: null, bwrap: "/nowhere/bwrap" } })));
    expect(bwrap.code).toBe("PREREQUISITE_MISSING");
    expect(bwrap.message).toContain("ENVELOPE_GATE_BWRAP names /nowhere/bwrap");
    const strace = refusal(
      planPrerequisites(
        facts(DEBIAN_12_ROOT, { configured: { strace: "/x/strace", bwrap: null }, tools: { ...DEBIAN_12_ROOT.tools, strace: null } }),
      ),
    );
    expect(strace.message).toContain("ENVELOPE_GATE_STRACE names /x/strace");
  });

  it("not Linux: PREREQUISITE_PLATFORM_UNSUPPORTED", () => {
    for (const platform of ["darwin", "win32"]) {
      expect(refusal(planPrerequisites(facts(DEBIAN_12_ROOT, { platform }))).code).toBe("PREREQUISITE_PLATFORM_UNSUPPORTED");
    }
  });
});

describe("the profile and the commands", () => {
  it("the profile grants userns to one binary, by a profile of its own name", () => {
    const body = bwrapProfile("/usr/bin/bwrap");
    expect(body).toContain("abi <abi/4.0>,\ninclude <tunables/global>\n");
    expect(body).toContain("profile envelope-gate-bwrap /usr/bin/bwrap flags=(unconfined) {\n  userns,\n");
    expect(body).toContain("include if exists <local/envelope-gate-bwrap>\n}\n");
  });

  it("shell lines quote what a shell would split", () => {
    expect(shellLines([{ kind: "load-apparmor-profile", path: "/etc/apparmor.d/a b" }])).toEqual([
      "sudo apparmor_parser -r '/etc/apparmor.d/a b'",
    ]);
    expect(shellLines([{ kind: "probe-userns", bwrap: "/usr/bin/bwrap" }])).toEqual([]);
  });
});
