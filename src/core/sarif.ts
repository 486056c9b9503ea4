/**
 * The run's violations as SARIF 2.1.0 (`envelope-gate.sarif`), for code scanning and any other
 * SARIF reader: one rule per violation rule, one result per distinct violation. Pure.
 *
 * Locations: a violation whose subject is a path inside the workspace (a protected path written)
 * is located at that path, relative to the repository root; every other one (a write outside the
 * repository, a key, a host, a command, a tool) at the envelope file's line that the rule's key is
 * on, as the check run's annotations are, with the subject as a logical location.
 */
import { describeViolation, envelopeSays, RULE_ENVELOPE_KEY } from "./annotations.js";
import { sha256Hex } from "./envelope.js";
import type { Violation } from "./log-reader.js";
import { DOCKER_HINT, type ViolationRule } from "./rules.js";
import { plainText } from "./markdown.js";
import { isInsideRoot } from "./paths.js";

export const SARIF_FILE = "envelope-gate.sarif";
const SARIF_VERSION = "2.1.0";
const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
export const SARIF_TOOL_NAME = "envelope-gate";
/** The key of each result's partialFingerprints: the violation id's hash, stable across runs. */
const SARIF_FINGERPRINT_KEY = "envelopeGateViolation/v1";

/** Where the rules are documented: the release branch's docs, each rule under its own heading. */
const RULES_DOC = "https://github.com/envelope-gate/envelope-gate/blob/v1/docs/formats.md";

/**
 * GitHub code scanning's `security-severity` per rule (a number 0.0 to 10.0 as a string: over 9.0
 * critical, 7.0 to 8.9 high, 4.0 to 6.9 medium; docs/formats.md, SARIF, has the table and why).
 */
export const SECURITY_SEVERITY: Record<ViolationRule, string> = {
  forbidden_syscall: "9.5",
  docker_refused: "9.0",
  write_protected: "8.5",
  write_outside_root: "8.0",
  network_denied: "8.0",
  undeclared_host: "7.5",
  undeclared_command: "7.0",
  undeclared_env: "6.0",
  undeclared_tool: "5.5",
};

/** The rule's documentation: its heading `Rule \`<rule>\`` in docs/formats.md, as GitHub anchors it. */
export function ruleHelpUri(rule: ViolationRule): string {
  return `${RULES_DOC}#rule-${rule}`;
}

const RULE_TEXT: Record<ViolationRule, { name: string; short: string; help: string }> = {
  write_outside_root: {
    name: "WriteOutsideRoot",
    short: "A write outside every allowed root",
    help: "The run created, changed or deleted a file outside every root in allowed_roots. Either the patch should not write there, or the envelope (reviewed, re-pinned) adds a root that covers it.",
  },
  undeclared_tool: {
    name: "UndeclaredTool",
    short: "An agent tool not in allowed_tools",
    help: "The agent dispatched a tool that allowed_tools does not list. Remove the call, or add the tool to the envelope in a reviewed change.",
  },
  undeclared_env: {
    name: "UndeclaredEnv",
    short: "An environment key not in allowed_env",
    help: "The run read an environment key that allowed_env does not list (the key was not in its environment: the run only asked). Stop reading it, or add it to allowed_env in a reviewed change.",
  },
  network_denied: {
    name: "NetworkDenied",
    short: 'A network connection while network is "deny"',
    help: 'The run reached for a host while the envelope says network "deny" (the jail refused it). Remove the connection, or make the envelope an allowlist naming the host.',
  },
  undeclared_host: {
    name: "UndeclaredHost",
    short: "A host not in allowed_hosts",
    help: "The run connected to a host that allowed_hosts does not list (the egress proxy refused it). Remove the connection, or add the host in a reviewed change.",
  },
  undeclared_command: {
    name: "UndeclaredCommand",
    short: "A program not in allowed_commands",
    help: "The run executed a program that allowed_commands does not list. Remove the call, or add the program (by path or bare name) in a reviewed change.",
  },
  forbidden_syscall: {
    name: "ForbiddenSyscall",
    short: "A system call that would blind or escape the observer",
    help: "The run called something the jail refuses because it would blind the observer or escape the jail. No envelope allows it: remove the call.",
  },
  write_protected: {
    name: "WriteProtected",
    short: "A write to a protected path inside an allowed root",
    help: "The run wrote a protected path (.git, .github, the Action's own files) inside an allowed root; later steps of the job act on those unjailed. Remove the write, or list the path in writable_protected in a reviewed change.",
  },
  docker_refused: {
    name: "DockerRefused",
    short: "A container engine's socket or port (Docker, Podman, containerd, BuildKit)",
    help: `The run reached for a container engine: a socket named docker.sock, podman.sock, containerd.sock, buildkitd.sock or docker_engine, or TCP port 2375 or 2376 on any host. No envelope allows it. ${DOCKER_HINT}`,
  },
};

export const SARIF_RULES = Object.keys(RULE_TEXT) as ViolationRule[];

interface SarifInput {
  violations: readonly Violation[];
  /** The check run's name: SARIF's automationDetails.id, one analysis per check. */
  checkName: string;
  /** The envelope judged against: its repository path, lines by JSON pointer, id and hash. */
  envelope: { file: string; lines: ReadonlyMap<string, number>; id: string; hash: string } | null;
  /** The workspace (the repository's checkout), folded: paths under it are located relative to it. */
  workspace: string;
  /** Name of the log the line numbers count in. */
  logName: string;
  /** Violations counted in another log (a property command's own run), with that log's name. */
  otherLogs?: ReadonlyMap<Violation, string>;
  /** The release that judged the run (src/core/version.ts): `tool.driver.version`. */
  toolVersion: string;
}

/** Relative repository path of a path under the workspace, or null. */
function inWorkspace(path: string, workspace: string): string | null {
  if (!path.startsWith("/") || !isInsideRoot(path, workspace) || path === workspace) return null;
  return path.slice(workspace === "/" ? 1 : workspace.length + 1);
}

/**
 * A SARIF plain-text message that shows exactly its characters (SARIF 2.1.0 §3.11.6): `[text](target)`
 * in a message is an embedded link, which code scanning renders, so `\`, `[` and `]` are
 * backslash-escaped; invisible characters (bidi controls, zero-width, controls) are shown as
 * `\u{XXXX}` and newlines flattened, as everywhere a reviewer reads a subject the run chose.
 */
function sarifMessageText(s: string): string {
  return plainText(s).replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** URI-encodes a relative path segment by segment (SARIF's artifactLocation.uri is a URI reference). */
function uriOf(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

export function buildSarif(input: SarifInput): Record<string, unknown> {
  const rules = SARIF_RULES.map((id) => {
    const t = RULE_TEXT[id];
    return {
      id,
      name: t.name,
      shortDescription: { text: t.short },
      fullDescription: { text: t.help },
      helpUri: ruleHelpUri(id),
      help: { text: t.help, markdown: t.help },
      defaultConfiguration: { level: "error" },
      properties: {
        tags: ["security", "envelope-gate"],
        "security-severity": SECURITY_SEVERITY[id],
        envelope_key: RULE_ENVELOPE_KEY[id],
      },
    };
  });
  const results = input.violations.map((v) => {
    const relative = v.rule === "write_outside_root" || v.rule === "write_protected" ? inWorkspace(v.subject, input.workspace) : null;
    const times = `${v.count} time${v.count === 1 ? "" : "s"}`;
    const key = RULE_ENVELOPE_KEY[v.rule];
    const physicalLocation =
      relative !== null
        ? { artifactLocation: { uri: uriOf(relative), uriBaseId: "%SRCROOT%" } }
        : input.envelope !== null
          ? {
              artifactLocation: { uri: uriOf(input.envelope.file), uriBaseId: "%SRCROOT%" },
              region: { startLine: Math.max(1, input.envelope.lines.get(`/${key}`) ?? 1) },
            }
          : null;
    const location: Record<string, unknown> = {
      ...(physicalLocation !== null ? { physicalLocation } : {}),
      logicalLocations: [{ name: v.subject, fullyQualifiedName: v.id, kind: "resource" }],
    };
    return {
      ruleId: v.rule,
      ruleIndex: SARIF_RULES.indexOf(v.rule),
      level: "error",
      message: {
        // Every part escaped: the subject is the run's, the log and envelope names the repository's.
        text: sarifMessageText(
          `${describeViolation(v)} (first at ${input.otherLogs?.get(v) ?? input.logName} line ${v.first_line}, ${times})${input.envelope !== null ? `. ${envelopeSays(v.rule, input.envelope)}` : "."}`,
        ),
      },
      locations: [location],
      partialFingerprints: { [SARIF_FINGERPRINT_KEY]: sha256Hex(v.id) },
      properties: { violation_id: v.id, subject: v.subject, first_line: v.first_line, count: v.count },
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: SARIF_TOOL_NAME,
            informationUri: "https://github.com/envelope-gate/envelope-gate",
            version: input.toolVersion,
            rules,
          },
        },
        automationDetails: { id: input.checkName },
        originalUriBaseIds: { "%SRCROOT%": { description: { text: "The repository's root (the Action's workspace)." } } },
        results,
        ...(input.envelope !== null ? { properties: { envelope_id: input.envelope.id, envelope_hash: input.envelope.hash } } : {}),
      },
    ],
  };
}

/** The SARIF file's bytes: two-space JSON and a final newline. */
export function sarifText(sarif: Record<string, unknown>): string {
  return JSON.stringify(sarif, null, 2) + "\n";
}
