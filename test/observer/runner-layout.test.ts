/**
 * The runner's layout, read from the wrapper's environment and its Node binary: what the jail
 * hides and which install directories it shows again, for each layout GitHub runs jobs in.
 */
import { describe, expect, it } from "vitest";
import { runnerLayout, type LayoutInput } from "../../src/observer/runner-layout.js";

const HOSTED_HOME = "/home/runner";
const HOSTED_NODE = `${HOSTED_HOME}/runners/2.330.0/externals/node24/bin/node`;
const HOSTED_TEMP = `${HOSTED_HOME}/work/_temp`;
const HOSTED_ENV = {
  HOME: HOSTED_HOME,
  PATH: "/opt/hostedtoolcache/node/20.19.0/x64/bin:/usr/local/bin:/usr/bin:/bin",
  RUNNER_TEMP: HOSTED_TEMP,
  RUNNER_TOOL_CACHE: "/opt/hostedtoolcache",
  RUNNER_WORKSPACE: `${HOSTED_HOME}/work/widgets`,
  GITHUB_WORKSPACE: `${HOSTED_HOME}/work/widgets/widgets`,
  GITHUB_ACTION_PATH: `${HOSTED_HOME}/work/_actions/acme/envelope-gate/v1`,
  GITHUB_ENV: `${HOSTED_TEMP}/_runner_file_commands/set_env_1`,
  GITHUB_PATH: `${HOSTED_TEMP}/_runner_file_commands/add_path_1`,
  GITHUB_OUTPUT: `${HOSTED_TEMP}/_runner_file_commands/set_output_1`,
  GITHUB_STATE: `${HOSTED_TEMP}/_runner_file_commands/save_state_1`,
  GITHUB_STEP_SUMMARY: `${HOSTED_TEMP}/_runner_file_commands/step_summary_1`,
  GITHUB_EVENT_PATH: `${HOSTED_TEMP}/_github_workflow/event.json`,
};
const hostedRoots = [`${HOSTED_HOME}/work/widgets/widgets`, `${HOSTED_TEMP}/envelope-gate-scratch`];

const SELF = "/opt/actions-runner";
const SELF_TEMP = `${SELF}/_work/_temp`;
const SELF_ENV = {
  HOME: "/home/ci",
  PATH: `${SELF}/_work/_tool/node/20.19.0/x64/bin:/usr/bin:/bin`,
  RUNNER_TEMP: SELF_TEMP,
  RUNNER_TOOL_CACHE: `${SELF}/_work/_tool`,
  RUNNER_WORKSPACE: `${SELF}/_work/widgets`,
  GITHUB_WORKSPACE: `${SELF}/_work/widgets/widgets`,
  GITHUB_ENV: `${SELF_TEMP}/_runner_file_commands/set_env_1`,
  GITHUB_EVENT_PATH: `${SELF_TEMP}/_github_workflow/event.json`,
};
const selfRoots = [`${SELF}/_work/widgets/widgets`, `${SELF_TEMP}/envelope-gate-scratch`];

const CONTAINER_ENV = {
  HOME: "/github/home",
  PATH: "/usr/local/bin:/usr/bin:/bin",
  RUNNER_TEMP: "/__w/_temp",
  RUNNER_TOOL_CACHE: "/__t",
  RUNNER_WORKSPACE: "/__w/widgets",
  GITHUB_WORKSPACE: "/__w/widgets/widgets",
  GITHUB_ENV: "/__w/_temp/_runner_file_commands/set_env_1",
  GITHUB_OUTPUT: "/__w/_temp/_runner_file_commands/set_output_1",
  GITHUB_EVENT_PATH: "/github/workflow/event.json",
};
const containerRoots = ["/__w/widgets/widgets", "/__w/_temp/envelope-gate-scratch"];

interface Row {
  name: string;
  input: LayoutInput;
  runnerDir: string | null;
  workDir: string | null;
  hidden: string[];
  masked?: string[];
  visible: string[];
}

const ROWS: Row[] = [
  {
    name: "GitHub-hosted: the CLI run by the runner's node24",
    input: {
      env: HOSTED_ENV,
      execPath: HOSTED_NODE,
      privateTargets: ["/tmp", HOSTED_HOME],
      executables: [HOSTED_NODE, "/usr/bin/npm"],
      roots: hostedRoots,
    },
    runnerDir: `${HOSTED_HOME}/runners/2.330.0`,
    workDir: `${HOSTED_HOME}/work`,
    hidden: [
      "/opt/hostedtoolcache",
      `${HOSTED_HOME}/runners`,
      `${HOSTED_HOME}/work/_actions`,
      `${HOSTED_HOME}/work/_temp`,
      `${HOSTED_HOME}/work/_tool`,
      `${HOSTED_HOME}/runners/2.330.0`,
      `${HOSTED_HOME}/work/_temp/_github_workflow`,
      `${HOSTED_HOME}/work/_temp/_runner_file_commands`,
      `${HOSTED_HOME}/work/_actions/acme/envelope-gate/v1`,
    ],
    // Only the runner's Node install, never the runner's directory or runners/; the tool on PATH.
    visible: ["/opt/hostedtoolcache/node/20.19.0/x64", `${HOSTED_HOME}/runners/2.330.0/externals/node24`],
  },
  {
    name: "self-hosted outside HOME (/opt/actions-runner)",
    input: {
      env: SELF_ENV,
      execPath: `${SELF}/externals/node24/bin/node`,
      privateTargets: ["/tmp", "/home/ci"],
      executables: [`${SELF}/externals/node24/bin/node`, `${SELF}/_work/_tool/node/20.19.0/x64/bin/npm`],
      roots: selfRoots,
    },
    runnerDir: SELF,
    workDir: `${SELF}/_work`,
    hidden: [
      `${SELF}`,
      `${SELF}/_work/_actions`,
      `${SELF}/_work/_temp`,
      `${SELF}/_work/_tool`,
      `${SELF_TEMP}/_github_workflow`,
      `${SELF_TEMP}/_runner_file_commands`,
    ],
    visible: [`${SELF}/externals/node24`, `${SELF}/_work/_tool/node/20.19.0/x64`],
  },
  {
    name: "self-hosted, the CLI run by another Node: the runner is found from its _work",
    input: {
      env: SELF_ENV,
      execPath: "/usr/bin/node",
      privateTargets: ["/tmp", "/home/ci"],
      executables: ["/usr/bin/node"],
      roots: selfRoots,
    },
    runnerDir: SELF,
    workDir: `${SELF}/_work`,
    hidden: [
      `${SELF}`,
      `${SELF}/_work/_actions`,
      `${SELF}/_work/_temp`,
      `${SELF}/_work/_tool`,
      `${SELF_TEMP}/_github_workflow`,
      `${SELF_TEMP}/_runner_file_commands`,
    ],
    visible: [`${SELF}/_work/_tool/node/20.19.0/x64`],
  },
  {
    name: "container job: /__w, /__e, /__t and /github",
    input: {
      env: CONTAINER_ENV,
      execPath: "/__e/node24/bin/node",
      privateTargets: ["/tmp", "/github/home", "/root"],
      executables: ["/__e/node24/bin/node", "/usr/local/bin/npm"],
      roots: containerRoots,
    },
    runnerDir: null,
    workDir: "/__w",
    hidden: ["/github", "/__w/_actions", "/__w/_temp", "/__w/_tool", "/github/workflow", "/__w/_temp/_runner_file_commands"],
    visible: [],
  },
  {
    name: "a laptop: nothing of a runner, a toolchain in HOME shows its own version only",
    input: {
      env: { HOME: "/home/dev", PATH: "/home/dev/.nvm/versions/node/v20.1.0/bin:/usr/bin" },
      execPath: "/home/dev/.nvm/versions/node/v20.1.0/bin/node",
      privateTargets: ["/tmp", "/home/dev"],
      executables: ["/home/dev/.nvm/versions/node/v20.1.0/bin/node", "/home/dev/.local/bin/tool", "/home/dev/bin/helper"],
      roots: ["/home/dev/project", "/var/tmp/scratch"],
    },
    runnerDir: null,
    workDir: null,
    hidden: [],
    // ~/.local and ~/bin are top directories of HOME: the program alone is shown.
    visible: ["/home/dev/.local/bin/tool", "/home/dev/bin/helper", "/home/dev/.nvm/versions/node/v20.1.0"],
  },
  {
    name: "the Action checked out in the workspace (uses: ./) is the repository's own, left to the protected paths",
    input: {
      env: { ...HOSTED_ENV, GITHUB_ACTION_PATH: `${HOSTED_HOME}/work/widgets/widgets` },
      execPath: HOSTED_NODE,
      privateTargets: ["/tmp", HOSTED_HOME],
      executables: [HOSTED_NODE],
      roots: hostedRoots,
    },
    runnerDir: `${HOSTED_HOME}/runners/2.330.0`,
    workDir: `${HOSTED_HOME}/work`,
    hidden: [
      "/opt/hostedtoolcache",
      `${HOSTED_HOME}/runners`,
      `${HOSTED_HOME}/work/_actions`,
      `${HOSTED_HOME}/work/_temp`,
      `${HOSTED_HOME}/work/_tool`,
      `${HOSTED_HOME}/runners/2.330.0`,
      `${HOSTED_HOME}/work/_temp/_github_workflow`,
      `${HOSTED_HOME}/work/_temp/_runner_file_commands`,
    ],
    visible: ["/opt/hostedtoolcache/node/20.19.0/x64", `${HOSTED_HOME}/runners/2.330.0/externals/node24`],
  },
  {
    name: "file commands in a system or top-level directory: the files are masked alone, the directory never covered",
    input: {
      env: {
        HOME: "/root",
        GITHUB_OUTPUT: "/github_output",
        GITHUB_ENV: "/etc/gh/env",
        GITHUB_EVENT_PATH: "/var/tmp/t/event.json",
        RUNNER_TEMP: "/",
      },
      execPath: "/usr/bin/node",
      privateTargets: ["/tmp", "/root"],
      executables: ["/usr/bin/node"],
      roots: ["/var/tmp/t/ws"],
    },
    runnerDir: null,
    workDir: null,
    hidden: ["/var/tmp/t"],
    masked: ["/github_output", "/etc/gh/env"],
    visible: [],
  },
];

describe("runnerLayout: what of each layout the jail hides and shows", () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const layout = runnerLayout(row.input);
      expect(layout.runnerDir).toBe(row.runnerDir);
      expect(layout.workDir).toBe(row.workDir);
      expect([...layout.hidden].sort()).toEqual([...row.hidden].sort());
      expect([...layout.masked].sort()).toEqual([...(row.masked ?? [])].sort());
      expect([...layout.visible].sort()).toEqual([...row.visible].sort());
      // Never shown: a whole home, the runner's directory, runners/, or anything that contains a hidden directory.
      for (const v of layout.visible) {
        expect(row.input.privateTargets).not.toContain(v);
        if (layout.runnerDir !== null) expect(v === layout.runnerDir || layout.runnerDir.startsWith(`${v}/`)).toBe(false);
        for (const h of layout.hidden) expect(h === v || h.startsWith(`${v}/`)).toBe(false);
      }
      // Hidden lists are parents first, as the jail mounts them.
      const depths = layout.hidden.map((h) => h.split("/").length);
      expect(depths).toEqual([...depths].sort((a, b) => a - b));
    });
  }
});
