/**
 * What a proposal (`suggest`, the audit summary's suggestion, the App's envelope PR) never allows,
 * in one table, each row with the reason printed beside what it keeps apart:
 * - keys that name a credential, carry one (an askpass program, git's configuration from the
 *   environment, a credentials file), name the machine or the run, or control a program (what it
 *   loads or runs, whether it checks TLS), and keys outside printable ASCII;
 * - families (`PREFIX*`) that would cover a program-control key (their keys are proposed exactly);
 * - roots under the system's directories, a tool cache or another program's install directory,
 *   and the directories of writes the jail refused in a run that exited 0 (it did not need them).
 * A pattern or a set of an envelope never matches a key of the table either (envMatcher): such a
 * key is let in only by a reviewer who lists it exactly. Pure.
 */
import { PROXY_ENV_KEYS, RUN_IDENTITY_WRAPPER, isRunIdentityKey } from "./env-sets.js";
import { isInsideRoot } from "./paths.js";

/** Why a key or a root stands apart. */
export type ApartKind =
  | "not_printable"
  | "run_identity"
  | "machine_identity"
  | "credential_carrier"
  | "program_control"
  | "credential"
  | "system_directory"
  | "tool_cache"
  | "install_directory"
  | "refused_unneeded";

export interface Apart {
  kind: ApartKind;
  why: string;
}

/** An entry the runs needed (or seemed to) that a proposal leaves to a reviewer, with why. */
export interface NotProposed {
  key: "allowed_env" | "allowed_roots";
  /** The key or directory, in printable ASCII (anything else written `\u{XXXX}`). */
  entry: string;
  kind: ApartKind;
  why: string;
  /** The keys or paths seen (escaped as `entry`). */
  covers: string[];
  count: number;
  first: string;
  program?: string;
  /** A key that would have avoided the writes, where an ecosystem's table knows one. */
  avoidWith?: string;
}

/**
 * A key that names a credential. Besides the names that say so, the keys whose values are
 * credentials by convention: passphrases and short password names (`GPG_PASSPHRASE`, `MYSQL_PWD`,
 * `SMTP_PASS`), JWTs (GitLab's `CI_JOB_JWT`), DSNs, webhooks and connection strings, licence keys,
 * git's extra headers, logins (`SONAR_LOGIN` is SonarQube's token), and the URLs that carry a
 * password or a job token (`DATABASE_URL`, `REDIS_URL`, `MONGODB_URI`, GitLab's `CI_REPOSITORY_URL`).
 */
export const CREDENTIAL_KEY = new RegExp(
  [
    "SECRET|TOKEN|PASSW(?:OR)?D|PASSPHRASE|(?:^|_)PASS(?:_|$)|_PWD$|CREDENTIAL|(?:^|_)CREDS(?:_|$)|PRIVATE",
    "(?:^|_)(?:API_?)?KEYS?(?:_|$)|APIKEY|COOKIE|SESSION|(?:^|_)PAT(?:_|$)|(?:^|_)LOGIN(?:_|$)",
    "JWT|DSN|WEBHOOK(?:_?UR[LI])?$|CONN(?:ECTION)?_?STR|LICENSE|EXTRAHEADER",
    "(?:^|_)(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|RABBITMQ|POSTGRES(?:QL)?|MYSQL|CI_REPOSITORY)_UR[LI]$",
  ].join("|"),
  "i",
);

/**
 * Authentication, by name (`NPM_AUTH`, npm's `_auth`, `GOAUTH`, `OAUTH_*`, `AUTHORIZATION`), but
 * not a git author (`GIT_AUTHOR_NAME`) nor `UNAUTHORIZED` (NODE_TLS_REJECT_UNAUTHORIZED is a TLS
 * switch, kept apart for that).
 */
const AUTH_KEY = /(?<!UN)AUTH(?!ORS?(?:_|$))/i;

/**
 * A key that names the machine or the runner on it (the runner's name, its tracking id, the
 * image, the host name, a CI agent's name or id, systemd's per-invocation ids): PR code that could
 * read it could make a test fail on one runner's machine only, and so pick the verdicts of the two
 * runs a freeze compares. Inside the jail `HOSTNAME` and `HOST` carry the jail's fixed hostname.
 */
export const MACHINE_KEY =
  /^(?:RUNNER_(?:NAME|TRACKING_ID|ENVIRONMENT)|ImageOS|ImageVersion|HOSTNAME|HOST|COMPUTERNAME|NODE_NAME|AGENT_(?:NAME|MACHINENAME|ID)|CI_RUNNER_(?:ID|DESCRIPTION|TAGS|VERSION|REVISION|EXECUTABLE_ARCH)|BUILDKITE_AGENT_(?:NAME|ID)|INVOCATION_ID|JOURNAL_STREAM)$/;

/** Program-control keys by exact name: each makes a program load or run what its value names. */
const PROGRAM_CONTROL_KEYS = [
  "NODE_OPTIONS",
  "NODE_REPL_EXTERNAL_MODULE",
  "NODE_PATH",
  "NODE_ICU_DATA",
  "ELECTRON_RUN_AS_NODE",
  "PYTHONSTARTUP",
  "PYTHONINSPECT",
  "PYTHONBREAKPOINT",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONUSERBASE",
  "PYTHONEXECUTABLE",
  "PYTEST_ADDOPTS",
  "PYTEST_PLUGINS",
  "PERL5OPT",
  "PERL5DB",
  "PERL5LIB",
  "PERLLIB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "JAVA_OPTS",
  "MAVEN_OPTS",
  "MAVEN_ARGS",
  "GRADLE_OPTS",
  "SBT_OPTS",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "RUSTC_WRAPPER",
  "RUSTC_WORKSPACE_WRAPPER",
  "RUSTC",
  "RUSTDOC",
  "RUSTFLAGS",
  "RUSTDOCFLAGS",
  "GOFLAGS",
  "GOTOOLCHAIN",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_PROXY_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_EXEC_PATH",
  "GIT_TEMPLATE_DIR",
  "GIT_DIR",
  "GIT_COMMON_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_ALLOW_PROTOCOL",
  "GIT_PROTOCOL_FROM_USER",
  "YARN_YARN_PATH",
  "YARN_PLUGINS",
  "YARN_ENABLE_SCRIPTS",
  "GCONV_PATH",
  "OPENSSL_CONF",
  "OPENSSL_ENGINES",
  "OPENSSL_MODULES",
  "DOTNET_STARTUP_HOOKS",
  "DOTNET_ADDITIONAL_DEPS",
  "LUA_INIT",
  "LUA_PATH",
  "LUA_CPATH",
  "PHP_INI_SCAN_DIR",
  "PHPRC",
  "DOCKER_HOST",
  "DOCKER_CONTEXT",
  "UV_ENV_FILE",
  "UV_PYTHON",
  "PIP_PYTHON",
  "PIP_REQUIREMENT",
  "PIP_CONSTRAINT",
  "PIP_KEYRING_PROVIDER",
  "YARN_INJECT_ENVIRONMENT_FILES",
  "GIT_TRACE_REDACT",
  "GOPACKAGESDRIVER",
  "GODEBUG",
  "JAVACMD",
  "MAVEN_CONFIG",
  "MAVEN_DEBUG_OPTS",
  "GRADLE_USER_HOME",
  "HELM_PLUGINS",
  "NUGET_PLUGIN_PATHS",
  "TF_REATTACH_PROVIDERS",
  "KUBE_EDITOR",
  "KUBECTL_EXTERNAL_DIFF",
  "CLOUDSDK_PYTHON",
  "BUNDLE_GEMFILE",
  // npm reads its configuration from npm_config_<name>, in any case (npm_config_shell, NPM_CONFIG_SHELL).
  "npm_config_node_options",
  "npm_config_script_shell",
  "npm_config_shell",
  "npm_config_git",
  "npm_config_node_gyp",
  "npm_config_onload_script",
  "npm_config_editor",
  "npm_config_browser",
  "npm_config_viewer",
  "npm_config_ignore_scripts",
] as const;

/**
 * Program-control keys by prefix: the dynamic loader's, bash's exported functions (`BASH_FUNC_f%%`),
 * .NET's profilers, and cargo's compilers, wrappers, runners and linkers.
 */
const PROGRAM_CONTROL_PREFIXES = [
  "LD_",
  "DYLD_",
  "BASH_FUNC_",
  "CORECLR_PROFILER",
  "COR_PROFILER",
  "COMPlus_",
  "DOTNET_AltJit",
  "TF_CLI_ARGS",
] as const;
const CARGO_PROGRAM_KEY =
  /^CARGO_(?:BUILD_(?:RUSTC(?:_WRAPPER|_WORKSPACE_WRAPPER)?|RUSTDOC|RUSTFLAGS|RUSTDOCFLAGS)|ENCODED_RUSTFLAGS|ENCODED_RUSTDOCFLAGS|TARGET_[A-Za-z0-9_]+_(?:RUNNER|LINKER|RUSTFLAGS))$/;

/**
 * Keys that turn off a program's TLS certificate checks or name the certificates it trusts (a CA
 * of the writer's, a registry over plain HTTP, a checksum database turned off).
 */
const TLS_SWITCHES = [
  "NODE_TLS_REJECT_UNAUTHORIZED",
  "NODE_EXTRA_CA_CERTS",
  "GIT_SSL_NO_VERIFY",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
  "GIT_SSL_CERT",
  "PYTHONHTTPSVERIFY",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  "REQUESTS_CA_BUNDLE",
  "AWS_CA_BUNDLE",
  "PIP_TRUSTED_HOST",
  "PIP_CERT",
  "PIP_CLIENT_CERT",
  "UV_INSECURE_HOST",
  "YARN_ENABLE_STRICT_SSL",
  "YARN_CA_FILE_PATH",
  "YARN_HTTPS_CA_FILE_PATH",
  "YARN_UNSAFE_HTTP_WHITELIST",
  "CARGO_HTTP_CAINFO",
  "CARGO_HTTP_CHECK_REVOKE",
  "UV_INSECURE_NO_ZIP_VALIDATION",
  "UV_PYTHON_DOWNLOADS_JSON_URL",
  "YARN_CHECKSUM_BEHAVIOR",
  "HELM_KUBEINSECURE_SKIP_TLS_VERIFY",
  "HELM_KUBECAFILE",
  "CONDA_SSL_VERIFY",
  "BUNDLE_DISABLE_CHECKSUM_VALIDATION",
  "DOCKER_CONTENT_TRUST",
  "DOCKER_CERT_PATH",
  "DOCKER_TLS_VERIFY",
  "BUNDLE_SSL_CA_CERT",
  "BUNDLE_SSL_VERIFY_MODE",
  "GOINSECURE",
  "GOSUMDB",
  "GONOSUMDB",
  "GONOSUMCHECK",
  "GOPRIVATE",
  "npm_config_strict_ssl",
  "npm_config_cafile",
  "npm_config_ca",
  "npm_config_cert",
] as const;

/** A key that names the certificates a tool trusts, by its words (`HTTPLIB2_CA_CERTS`, `GRPC_DEFAULT_SSL_ROOTS_FILE_PATH`, `NIX_SSL_CERT_FILE`). */
const CA_KEY =
  /(?:^|_)(?:CA_(?:BUNDLE|CERTS?|FILE|INFO|PATH)|CAINFO|CAPATH|CAFILE|SSL_ROOTS_FILE_PATH|SSL_CERT_(?:FILE|DIR))(?:_|$)|(?:^|_)CA_CERTS?_FILE$|(?:^|_)KUBECAFILE$/i;

/** Credential carriers by exact name: a file, socket or agent credentials are read or used through. */
const CARRIER_KEYS = [
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "SSH_AUTH_SOCK",
  "GNUPGHOME",
  "GPG_AGENT_INFO",
  "NETRC",
  "DOCKER_CONFIG",
  "KUBECONFIG",
  "CLOUDSDK_CONFIG",
  "AWS_CONFIG_FILE",
  "AWS_PROFILE",
  "PIP_CONFIG_FILE",
  "UV_CONFIG_FILE",
  "YARN_RC_FILENAME",
  "TF_CLI_CONFIG_FILE",
  "CONDARC",
  "GEMRC",
  "BUNDLE_USER_CONFIG",
  "BUNDLE_APP_CONFIG",
  "GOENV",
  "PIP_FIND_LINKS",
  "UV_FIND_LINKS",
  "HELM_REPOSITORY_CONFIG",
  "AZURE_CLIENT_CERTIFICATE_PATH",
  "AZURE_CONFIG_DIR",
  "POETRY_CONFIG_DIR",
  "CONDA_CHANNEL_ALIAS",
  "npm_config_userconfig",
  "npm_config_globalconfig",
] as const;

/** Prefixes every key under which is a credential carrier: uv's named indexes, cargo's registries. */
const CARRIER_PREFIXES = [
  "UV_INDEX",
  "UV_DEFAULT_INDEX",
  "CARGO_REGISTRIES_",
  "POETRY_REPOSITORIES_",
  "POETRY_HTTP_BASIC_",
  "POETRY_CERTIFICATES_",
  "BUNDLE_MIRROR__",
  "AWS_ENDPOINT_URL",
  "CLOUDSDK_API_ENDPOINT_OVERRIDES_",
] as const;

/** Bundler's per-host credentials (`BUNDLE_GEMS__EXAMPLE__COM=user:password`): a host's dots written `__`. */
const BUNDLE_HOST_KEY = /^BUNDLE_[A-Z0-9_]*[A-Z0-9]__[A-Z0-9]/;

/**
 * Tools whose configuration lives in their environment keys under one prefix: a family over one
 * of them is never proposed (its keys are, exactly, each the table lets through), whatever the
 * table lists of it, since the table cannot list every key such a tool reads.
 */
const TOOL_NAMESPACES = [
  "npm_",
  "pnpm_",
  "YARN_",
  "PIP_",
  "UV_",
  "POETRY_",
  "CONDA",
  "BUNDLE_",
  "GEM_",
  "CARGO_",
  "RUST",
  "GO",
  "JAVA",
  "MAVEN_",
  "GRADLE_",
  "DOTNET_",
  "NUGET_",
  "DOCKER_",
  "HELM_",
  "KUBE",
  "TF_",
  "AWS_",
  "AZURE_",
  "GOOGLE_",
  "CLOUDSDK_",
  "GIT_",
  "SSH_",
  "GPG_",
  "GNUPG",
  "NODE",
  "PYTHON",
  "PERL",
  "RUBY",
  "PHP",
  "LUA_",
  "SSL_",
  "OPENSSL_",
  "CURL_",
  "REQUESTS_",
] as const;

/** `key` among `keys`; npm's keys in any case, as npm reads them. */
const listed = (keys: readonly string[], key: string): boolean => {
  if (keys.includes(key)) return true;
  // npm (and pnpm) read npm_config_<name> (pnpm_config_<name>) in any case, `-` and `_` alike.
  const m = /^(?:npm|pnpm)_config_(.*)$/i.exec(key);
  return m !== null && keys.includes(`npm_config_${(m[1] as string).toLowerCase().replace(/-/g, "_")}`);
};

const exact =
  (keys: readonly string[]) =>
  (key: string): boolean =>
    keys.includes(key);

/** The table, in order: a key takes the first row that matches it, and that row's reason. */
const KEY_TABLE: readonly { kind: ApartKind; test: (key: string) => boolean; why: string }[] = [
  {
    kind: "not_printable",
    test: (key) => /[^\x21-\x7e]/.test(key),
    why: "a character outside printable ASCII (shown escaped): it can render as another key (P\\u{0410}TH as PATH)",
  },
  {
    kind: "run_identity",
    test: exact(RUN_IDENTITY_WRAPPER),
    why: "run identity: names a file the run wrapper hides (the event payload, the file commands)",
  },
  {
    kind: "run_identity",
    test: (key) => key.startsWith("INPUT_"),
    why: "run identity: the Action's own input (runner B's dispatch has inputs runner A's run does not; the token among them)",
  },
  {
    kind: "run_identity",
    test: isRunIdentityKey,
    why: "run identity: differs between runner A and runner B (the run, job, workflow or actor), so a test reading it can manufacture a freeze",
  },
  {
    kind: "machine_identity",
    test: (key) => MACHINE_KEY.test(key),
    why: "machine identity: names the machine or its runner, so a test reading it can fail on one runner's machine only",
  },
  {
    kind: "credential_carrier",
    test: exact(["GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"]),
    why: "credential carrier: the program asked for a password or token (and program control: it runs it)",
  },
  {
    kind: "credential_carrier",
    test: (key) => /^GIT_CONFIG(?:_[A-Z0-9_]+)?$/.test(key),
    why: "credential carrier: git configuration from the environment (GIT_CONFIG_VALUE_<n> can carry an http.extraheader token, or a command to run)",
  },
  {
    kind: "credential_carrier",
    test: (key) => listed(CARRIER_KEYS, key) || CARRIER_PREFIXES.some((p) => key.startsWith(p)) || BUNDLE_HOST_KEY.test(key),
    why: "credential carrier: names the file, agent or index a tool reads its registry, cloud or signing credentials from (.npmrc, .netrc, pip.conf, kubeconfig, the ssh agent's socket, a keyring)",
  },
  {
    kind: "program_control",
    test: (key) => listed(TLS_SWITCHES, key) || CA_KEY.test(key),
    why: "program control: a security switch that turns off TLS certificate or checksum checks, or names the certificates trusted",
  },
  {
    kind: "program_control",
    test: (key) => PROGRAM_CONTROL_PREFIXES.some((p) => key.startsWith(p)),
    why: "program control: tells the dynamic loader, bash or the .NET runtime what to load into a program",
  },
  {
    kind: "program_control",
    test: (key) => listed(PROGRAM_CONTROL_KEYS, key) || CARGO_PROGRAM_KEY.test(key),
    why: "program control: makes a program load or run code its value names",
  },
  {
    kind: "credential",
    test: (key) => /(?:^|_)LOGIN(?:_|$)/i.test(key),
    why: "credential: names a login (SONAR_LOGIN is SonarQube's token)",
  },
  {
    kind: "credential",
    test: (key) => AUTH_KEY.test(key),
    why: "credential: names authentication (a token, or a command that gets one)",
  },
  {
    kind: "credential",
    test: (key) => CREDENTIAL_KEY.test(key),
    why: "credential: names a secret (a token, password, key, session, connection string or the like)",
  },
  {
    kind: "credential_carrier",
    test: (key) => /(?:^|_)(?:EXTRA_)?INDEX_URL$|REGISTR(?:Y|IES)/i.test(key),
    why: "credential carrier: a package index or registry, which carries the password where it has one and decides what is installed",
  },
  {
    kind: "credential_carrier",
    test: (key) => /PROXY$/i.test(key) && !/(?:^|_)NO_?PROXY$/i.test(key) && !PROXY_ENV_KEYS.has(key),
    why: "credential carrier: a tool's own proxy, which carries its password where it has one and sees or bypasses every request (not the standard HTTP_PROXY keys, the run wrapper's own under allowlist, nor a list of hosts that bypass a proxy)",
  },
];

/** Why `key` is never proposed (nor matched by a pattern or a set), or null for an ordinary key. */
export function keyApart(key: string): Apart | null {
  const row = KEY_TABLE.find((r) => r.test(key));
  return row === undefined ? null : { kind: row.kind, why: row.why };
}

/**
 * Why a family `prefix*` is never proposed: it would cover a key of the table's lists or a
 * namespace of them (NODE* covers NODE_OPTIONS, GIT_* GIT_SSH_COMMAND, npm_* npm_config_shell,
 * CARGO_* cargo's runners). Compared without case: npm reads its keys in any case. Its keys are
 * proposed exactly instead (each one the table lets through).
 */
export function familyApart(prefix: string): Apart | null {
  const head = prefix.toLowerCase();
  const overlaps = (p: string): boolean => p.toLowerCase().startsWith(head) || head.startsWith(p.toLowerCase());
  const covered = [
    ...[...PROGRAM_CONTROL_PREFIXES, ...CARRIER_PREFIXES, "CARGO_BUILD_", "CARGO_TARGET_", "CARGO_ENCODED_", "GIT_CONFIG"]
      .filter(overlaps)
      .map((p) => `${p}*`),
    ...[...PROGRAM_CONTROL_KEYS, ...TLS_SWITCHES, ...CARRIER_KEYS].filter((k) => k.toLowerCase().startsWith(head)),
    ...TOOL_NAMESPACES.filter(overlaps).map((p) => `${p}* (a tool's configuration)`),
  ];
  if (covered.length === 0) return null;
  return {
    kind: "program_control",
    why: `would cover ${covered.slice(0, 3).join(", ")}${covered.length > 3 ? ", …" : ""} (program control or credential carriers): its keys are proposed exactly`,
  };
}

/** The system's directories: never a root a proposal names (a write there outlives the run on a self-hosted runner). */
const SYSTEM_DIRECTORIES: readonly { test: RegExp; kind: ApartKind; why: string }[] = [
  {
    test: /^\/opt\/hostedtoolcache(?:\/|$)|\/_work\/_tool(?:\/|$)/,
    kind: "tool_cache",
    why: "the runner's tool cache (RUNNER_TOOL_CACHE): a write there changes the tools of later runs",
  },
  {
    test: /^\/(?:usr|etc|opt|bin|sbin|boot|snap|lib(?:32|64|x32)?)(?:\/|$)|^\/var\/lib(?:\/|$)/,
    kind: "system_directory",
    why: "the system's directories (/usr, /etc, /opt, /bin, /sbin, /lib*, /var/lib): a write there changes the machine for later runs",
  },
];

/** Where an installed program's packages live: a write there changes what that program runs. */
const PACKAGE_DIRECTORY = /\/(?:site-packages|dist-packages|lib\/node_modules)(?:\/|$)/;

/**
 * The install directory of the program at `execPath`: the directory above its `bin` or `sbin`
 * (`~/.nvm/versions/node/v20/bin/node` -> `~/.nvm/versions/node/v20`), at least three levels deep
 * (a home's own `bin` is no one program's); null otherwise.
 */
export function installDirOf(execPath: string): string | null {
  const parts = execPath.split("/");
  if (parts[0] !== "" || parts.length < 3) return null;
  const binDir = parts[parts.length - 2];
  if (binDir !== "bin" && binDir !== "sbin") return null;
  const install = parts.slice(0, -2);
  if (install.length - 1 < 3) return null;
  return install.join("/");
}

/**
 * Why no root may be proposed at `path` (a folded absolute path, or one written back as
 * `${WORKSPACE}`/`${SCRATCH}`, which is never apart): under the system's directories or a tool
 * cache, a package directory, or `installs` (install directories of programs the runs executed).
 */
export function rootApart(path: string, installs: readonly string[]): Apart | null {
  if (!path.startsWith("/")) return null;
  for (const row of SYSTEM_DIRECTORIES) if (row.test.test(path)) return { kind: row.kind, why: row.why };
  const install = installs.find((dir) => isInsideRoot(path, dir));
  if (install !== undefined) {
    return {
      kind: "install_directory",
      why: `another program's install directory (${shownAscii(install)}): a write there changes what that program runs`,
    };
  }
  if (PACKAGE_DIRECTORY.test(path)) {
    return {
      kind: "install_directory",
      why: "another program's install directory (site-packages, dist-packages or a global node_modules): a write there changes what it runs",
    };
  }
  return null;
}

/** Writes the jail refused (read-only there) in a run whose command exited 0. */
export function refusedUnneeded(): Apart {
  return {
    kind: "refused_unneeded",
    why: "the jail refused these writes and the command exited 0: it did not need them",
  };
}

/** Writes an ecosystem makes only when a key does not tell it not to. */
const AVOIDABLE_WRITES: readonly { test: RegExp; key: string }[] = [
  { test: /(?:^|\/)__pycache__(?:\/|$)|\.py[co]$/, key: "PYTHONDONTWRITEBYTECODE" },
];

/** The key that would have avoided every one of `paths` (Python's bytecode: PYTHONDONTWRITEBYTECODE). */
export function avoidingKey(paths: readonly string[]): string | undefined {
  return AVOIDABLE_WRITES.find((row) => paths.length > 0 && paths.every((p) => row.test.test(p)))?.key;
}

/** `s` in printable ASCII: every other code point written `\u{XXXX}`, so a key cannot pass as another. */
export function shownAscii(s: string): string {
  return Array.from(s, (ch) =>
    /^[\x21-\x7e]$/.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`,
  ).join("");
}
