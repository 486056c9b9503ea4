/**
 * Just enough of systemd's unit-file syntax and of the Dockerfile syntax to run what
 * deploy/envelope-gate.service and deploy/Dockerfile describe, as they describe it.
 */

/** Joins backslash-continued lines and drops comments (`#`, and `;` for unit files). */
function logicalLines(text: string, comment: RegExp): string[] {
  const out: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    if (comment.test(raw)) continue;
    if (raw.endsWith("\\")) {
      pending += raw.slice(0, -1) + " ";
      continue;
    }
    const line = (pending + raw).trim();
    pending = "";
    if (line !== "") out.push(line);
  }
  return out;
}

/** Splits on whitespace; double or single quotes group words (systemd's and the shell's basic rule). */
export function words(value: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : ((m[2] ?? m[3]) as string));
  return out;
}

export type Unit = Map<string, [string, string][]>;

export function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section = "";
  for (const line of logicalLines(text, /^\s*[#;]/)) {
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1] as string;
      unit.set(section, unit.get(section) ?? []);
      continue;
    }
    const eq = line.indexOf("=");
    unit.get(section)?.push([line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
  }
  return unit;
}

/** Every value of `key` in `section`, in order (systemd's list settings accumulate). */
export function unitValues(unit: Unit, section: string, key: string): string[] {
  return (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
}

/** Replaces the %-specifiers a system service's lines use. */
export function specifiers(value: string, values: Record<string, string>): string {
  return value.replace(/%(.)/g, (all, c: string) => {
    if (c === "%") return "%";
    const v = values[c];
    if (v === undefined) throw new Error(`unit specifier ${all} is not handled by the test`);
    return v;
  });
}

/** `Environment=` lines: space-separated assignments, each optionally quoted. */
export function unitEnvironment(lines: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    for (const assignment of words(line)) {
      const eq = assignment.indexOf("=");
      env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
    }
  }
  return env;
}

/** An `EnvironmentFile=`: VAR=value lines, `#`/`;` comments, optional quotes around the value. */
export function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of logicalLines(text, /^\s*[#;]/)) {
    const eq = line.indexOf("=");
    const value = line.slice(eq + 1).trim();
    env[line.slice(0, eq).trim()] = /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

export interface DockerStage {
  from: string;
  name: string | null;
  instructions: { op: string; args: string }[];
}

export function parseDockerfile(text: string): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const line of logicalLines(text, /^\s*#/)) {
    const m = /^(\S+)\s+([\s\S]*)$/.exec(line);
    if (!m) throw new Error(`unparsable Dockerfile line: ${line}`);
    const op = (m[1] as string).toUpperCase();
    const args = m[2] as string;
    if (op === "FROM") {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ from: from?.[1] as string, name: from?.[2] ?? null, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op, args });
    }
  }
  return stages;
}

export function stageValues(stage: DockerStage, op: string): string[] {
  return stage.instructions.filter((i) => i.op === op).map((i) => i.args);
}

/** `ENV a=b c="d e"` (the key=value form; the legacy `ENV a b` form is refused). */
export function dockerEnv(stage: DockerStage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of stageValues(stage, "ENV")) {
    for (const assignment of words(line)) {
      const eq = assignment.indexOf("=");
      if (eq < 1) throw new Error(`ENV without key=value: ${line}`);
      env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
    }
  }
  return env;
}

/** The exec (JSON) form of ENTRYPOINT, CMD and HEALTHCHECK CMD; the shell form is refused. */
export function execForm(args: string): string[] {
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw new Error(`not an exec form: ${args}`);
  return parsed as string[];
}

export function healthcheck(stage: DockerStage): { options: Record<string, string>; command: string[] } {
  const [line] = stageValues(stage, "HEALTHCHECK");
  if (line === undefined) throw new Error("no HEALTHCHECK");
  const m = /^((?:--\S+\s+)*)CMD\s+(.*)$/s.exec(line);
  if (!m) throw new Error(`HEALTHCHECK without CMD: ${line}`);
  const options = Object.fromEntries(
    words(m[1] as string).map((o) => {
      const [k, v] = o.replace(/^--/, "").split("=");
      return [k as string, v as string];
    }),
  );
  return { options, command: execForm(m[2] as string) };
}
