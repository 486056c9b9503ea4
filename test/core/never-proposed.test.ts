/**
 * Issue 31, item 3: what a proposal never allows, in one table (src/core/never-proposed.ts): keys
 * that name a credential, a credential carrier, the machine, the run, or control a program; keys
 * outside printable ASCII; families that would cover a program-control key; roots under the
 * system's directories, a tool cache or another program's install directory.
 */
import { describe, expect, it } from "vitest";
import { envMatcher, type Envelope } from "../../src/core/envelope.js";
import { ENV_SETS } from "../../src/core/env-sets.js";
import { avoidingKey, familyApart, installDirOf, keyApart, refusedUnneeded, rootApart, shownAscii } from "../../src/core/never-proposed.js";

describe("keys never proposed, each with its reason", () => {
  it("credentials, machine identity and run identity (the keys the App proposed from audit runs)", () => {
    expect(keyApart("AWS_SECRET_ACCESS_KEY")?.kind).toBe("credential");
    expect(keyApart("GITHUB_TOKEN")?.kind).toBe("credential");
    expect(keyApart("RUNNER_NAME")?.kind).toBe("machine_identity");
    expect(keyApart("HOSTNAME")?.kind).toBe("machine_identity");
    expect(keyApart("RUNNER_ENVIRONMENT")?.kind).toBe("machine_identity");
    expect(keyApart("GITHUB_RUN_ID")?.kind).toBe("run_identity");
    expect(keyApart("GITHUB_ACTOR")?.kind).toBe("run_identity");
    expect(keyApart("INPUT_GITHUB-TOKEN")?.kind).toBe("run_identity");
    expect(keyApart("GITHUB_EVENT_PATH")?.kind).toBe("run_identity");
    for (const key of ["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "GITHUB_ACTOR"]) {
      expect(keyApart(key)?.why, key).toMatch(/\w{8,}/);
    }
    expect(keyApart("RUNNER_NAME")?.why).toContain("machine");
    expect(keyApart("GITHUB_RUN_ID")?.why).toContain("runner A");
  });

  it("SONAR_LOGIN and the other logins are credentials (the old pattern let them pass)", () => {
    expect(keyApart("SONAR_LOGIN")).toMatchObject({ kind: "credential" });
    expect(keyApart("SONAR_LOGIN")?.why).toContain("login");
    expect(keyApart("DOCKER_LOGIN")?.kind).toBe("credential");
  });

  it("NODE_TLS_REJECT_UNAUTHORIZED stands apart as a security switch, not as a credential by its 'AUTH'", () => {
    const apart = keyApart("NODE_TLS_REJECT_UNAUTHORIZED");
    expect(apart?.kind).toBe("program_control");
    expect(apart?.why).toContain("TLS");
    expect(apart?.why).not.toContain("credential");
    // AUTH as authentication still is one; a git author is not.
    expect(keyApart("NPM_AUTH")?.kind).toBe("credential");
    expect(keyApart("npm_config__auth")?.kind).toBe("credential");
    expect(keyApart("GOAUTH")?.kind).toBe("credential");
    expect(keyApart("GIT_AUTHOR_NAME")).toBeNull();
  });

  it("known credential carriers: askpass programs, git's configuration from the environment, credential files", () => {
    for (const key of [
      "GIT_ASKPASS",
      "SSH_ASKPASS",
      "GIT_CONFIG_VALUE_0",
      "GIT_CONFIG_KEY_0",
      "GIT_CONFIG_COUNT",
      "GIT_CONFIG_PARAMETERS",
    ]) {
      expect(keyApart(key)?.kind, key).toBe("credential_carrier");
    }
    expect(keyApart("GIT_CONFIG_VALUE_0")?.why).toContain("extraheader");
    for (const key of ["npm_config_userconfig", "NPM_CONFIG_USERCONFIG", "NETRC", "DOCKER_CONFIG", "KUBECONFIG", "PIP_INDEX_URL"]) {
      expect(keyApart(key)?.kind, key).toBe("credential_carrier");
    }
  });

  it("program-control keys: what a program loads or runs, or whether it checks TLS", () => {
    for (const key of [
      "NODE_OPTIONS",
      "PYTHONSTARTUP",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "DYLD_INSERT_LIBRARIES",
      "GIT_SSH_COMMAND",
      "BASH_ENV",
    ]) {
      expect(keyApart(key)?.kind, key).toBe("program_control");
    }
    expect(keyApart("LD_PRELOAD")?.why).toContain("loader");
  });

  /** The keys an attacker's review found a family or a set let through (issue 31's table, then). */
  const REVIEWED: Record<"credential_carrier" | "program_control", string[]> = {
    credential_carrier: [
      "UV_INDEX",
      "UV_DEFAULT_INDEX",
      "UV_INDEX_INTERNAL_USERNAME",
      "UV_EXTRA_INDEX_URL",
      "PIP_CONFIG_FILE",
      "UV_CONFIG_FILE",
      "YARN_RC_FILENAME",
      "TF_CLI_CONFIG_FILE",
      "HELM_REGISTRY_CONFIG",
      "npm_config_registry",
      "npm_config_@acme:registry",
      "npm_config_proxy",
      "npm_config_https_proxy",
      "PIP_PROXY",
      "CARGO_HTTP_PROXY",
      "GOPROXY",
      "CARGO_REGISTRIES_ACME_INDEX",
      "GNUPGHOME",
      "GPG_AGENT_INFO",
      "SSH_AUTH_SOCK",
    ],
    program_control: [
      "npm_config_node_options",
      "NPM_CONFIG_NODE_OPTIONS",
      "npm_config_script_shell",
      "npm_config_git",
      "npm_config_shell",
      "npm_config_ignore_scripts",
      "CARGO_BUILD_RUSTC_WRAPPER",
      "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
      "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER",
      "BASH_FUNC_make%%",
      "SHELLOPTS",
      "PS4",
      "GIT_TEMPLATE_DIR",
      "GIT_DIR",
      "GIT_COMMON_DIR",
      "GIT_EDITOR",
      "GIT_PAGER",
      "GIT_SEQUENCE_EDITOR",
      "GIT_ALLOW_PROTOCOL",
      "PYTHONPATH",
      "PYTHONHOME",
      "PYTHONUSERBASE",
      "PERL5LIB",
      "PERLLIB",
      "RUBYLIB",
      "NODE_PATH",
      "NODE_ICU_DATA",
      "JAVA_OPTS",
      "MAVEN_OPTS",
      "GRADLE_OPTS",
      "GOFLAGS",
      "YARN_YARN_PATH",
      "GCONV_PATH",
      "OPENSSL_CONF",
      "OPENSSL_ENGINES",
      "DOTNET_STARTUP_HOOKS",
      "CORECLR_PROFILER_PATH",
      "LUA_INIT",
      "PHP_INI_SCAN_DIR",
      "ELECTRON_RUN_AS_NODE",
      // TLS and trust
      "npm_config_strict_ssl",
      "npm_config_cafile",
      "PIP_TRUSTED_HOST",
      "UV_INSECURE_HOST",
      "YARN_ENABLE_STRICT_SSL",
      "NODE_EXTRA_CA_CERTS",
      "SSL_CERT_FILE",
      "CURL_CA_BUNDLE",
      "REQUESTS_CA_BUNDLE",
      "GIT_SSL_CAINFO",
      "GIT_SSL_CERT",
      "CARGO_HTTP_CAINFO",
      "DOCKER_CERT_PATH",
      "GOSUMDB",
      "CLOUDSDK_CORE_CUSTOM_CA_CERTS_FILE",
      "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH",
      "HTTPLIB2_CA_CERTS",
      "NIX_SSL_CERT_FILE",
      "AWS_CA_BUNDLE",
    ],
  };

  it("the keys a family or a set let through before: registries, indexes, proxies, config files, agents, loaders, TLS", () => {
    for (const [kind, keys] of Object.entries(REVIEWED)) for (const key of keys) expect(keyApart(key)?.kind, key).toBe(kind);
    expect(keyApart("GOSUMDB")?.why).toContain("checksum");
    expect(keyApart("npm_config_https_proxy")?.why).toContain("proxy");
  });

  it("an envelope's family does not let them in (the families that covered them), listed exactly it does", () => {
    const families = [
      "UV_*",
      "PIP_*",
      "YARN_*",
      "TF_*",
      "HELM_*",
      "npm_*",
      "NPM_*",
      "CARGO_*",
      "GO*",
      "GNUPG*",
      "GPG_*",
      "SSH_*",
      "BASH_*",
      "SHELL*",
      "PS*",
      "GIT_*",
    ];
    const more = [
      "PYTHON*",
      "PERL*",
      "RUBY*",
      "NODE*",
      "JAVA_*",
      "MAVEN_*",
      "GRADLE_*",
      "GCONV_*",
      "OPENSSL_*",
      "DOTNET_*",
      "CORECLR_*",
      "LUA_*",
      "PHP_*",
      "ELECTRON_*",
    ];
    const tls = ["SSL_*", "CURL_*", "REQUESTS_*", "DOCKER_*"];
    const envelope: Envelope = {
      envelope_id: "e",
      allowed_roots: [],
      allowed_tools: [],
      allowed_env: [...families, ...more, ...tls, "PYTHONPATH"],
      allowed_hosts: [],
      network: "deny",
    };
    const allowed = envMatcher(envelope);
    for (const key of [...REVIEWED.credential_carrier, ...REVIEWED.program_control]) {
      if (key === "PYTHONPATH") expect(allowed(key), key).toBe(true);
      else expect(allowed(key), key).toBe(false);
    }
    for (const key of [
      "UV_CACHE_DIR",
      "npm_config_cache",
      "npm_lifecycle_event",
      "CARGO_TERM_COLOR",
      "GOPATH",
      "PYTHONUNBUFFERED",
      "GIT_AUTHOR_NAME",
    ])
      expect(allowed(key), key).toBe(true);
  });

  it("a second review's keys: npm's dashed and pnpm's forms, dotenv files, interpreters, plugins, per-host credentials, endpoints", () => {
    for (const key of [
      "npm_config_script-shell",
      "npm_config_node-options",
      "NPM_CONFIG_IGNORE-SCRIPTS",
      "pnpm_config_script_shell",
      "UV_ENV_FILE",
      "PIP_PYTHON",
      "GOPACKAGESDRIVER",
      "JAVACMD",
      "GRADLE_USER_HOME",
      "DOTNET_AltJitName",
      "TF_CLI_ARGS_plan",
      "KUBE_EDITOR",
      "BUNDLE_GEMFILE",
    ])
      expect(keyApart(key)?.kind, key).toBe("program_control");
    expect(keyApart("npm_config_strict-ssl")?.kind).toBe("program_control");
    expect(keyApart("HELM_KUBECAFILE")?.kind).toBe("program_control");
    for (const key of [
      "BUNDLE_GEMS__CONTRIBSYS__COM",
      "AWS_ENDPOINT_URL_S3",
      "CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE",
      "AZURE_CONFIG_DIR",
      "HELM_REPOSITORY_CONFIG",
    ])
      expect(keyApart(key)?.kind, key).toBe("credential_carrier");
    expect(keyApart("GOOGLE_GHA_CREDS_PATH")?.kind).toBe("credential");
    // A tool's namespace is never a proposed family, whatever the table lists of it.
    for (const prefix of ["HELM_", "NUGET_", "AZURE_", "GOOGLE_", "KUBE_", "CONDA_", "PNPM_", "pnpm_", "POETRY_", "GRADLE_"])
      expect(familyApart(prefix), prefix).not.toBeNull();
    expect(familyApart("GITHUB_")).toBeNull();
  });

  it("the standard proxy keys stay proposable: the run wrapper's own under allowlist (a tool's own proxy key does not)", () => {
    for (const key of ["HTTPS_PROXY", "http_proxy", "NO_PROXY", "ALL_PROXY", "NOPROXY", "npm_config_noproxy"])
      expect(keyApart(key), key).toBeNull();
    expect(keyApart("npm_config_proxy")?.kind).toBe("credential_carrier");
    // Words that only look like a CA key.
    for (const key of ["LOCAL_PATH", "CACHE_DIR", "NPM_CONFIG_CACHE", "CARGO_HOME", "SCALA_HOME", "CAPTCHA_MODE"])
      expect(keyApart(key), key).toBeNull();
  });

  it("a key outside printable ASCII is never proposed and is shown escaped", () => {
    const cyrillic = "P\u0410TH";
    expect(keyApart(cyrillic)?.kind).toBe("not_printable");
    expect(shownAscii(cyrillic)).toBe("P\\u{0410}TH");
    expect(keyApart("A B")?.kind).toBe("not_printable");
    expect(keyApart("X\u0007")?.kind).toBe("not_printable");
    expect(shownAscii("PATH")).toBe("PATH");
  });

  it("ordinary keys are proposable", () => {
    for (const key of [
      "PATH",
      "HOME",
      "CI",
      "NODE_ENV",
      "PYTHONUNBUFFERED",
      "GIT_AUTHOR_EMAIL",
      "TSC_WATCHFILE",
      "VITEST_POOL_ID",
      "AWS_REGION",
    ]) {
      expect(keyApart(key), key).toBeNull();
    }
  });

  it("no named set holds a key of the table", () => {
    for (const [name, keys] of ENV_SETS) for (const key of keys) expect(keyApart(key), `${name} ${key}`).toBeNull();
  });

  it("a pattern or a set never matches a key of the table; listed exactly it is the envelope's", () => {
    const envelope: Envelope = {
      envelope_id: "e",
      allowed_roots: [],
      allowed_tools: [],
      allowed_env: ["GIT_*", "NODE*", "SONAR_*", "LD_*", "P*", "GIT_SSH_COMMAND"],
      allowed_hosts: [],
      network: "deny",
    };
    const allowed = envMatcher(envelope);
    for (const key of [
      "GIT_ASKPASS",
      "GIT_CONFIG_VALUE_0",
      "NODE_OPTIONS",
      "NODE_TLS_REJECT_UNAUTHORIZED",
      "SONAR_LOGIN",
      "LD_PRELOAD",
      "P\u0410TH",
    ]) {
      expect(allowed(key), key).toBe(false);
    }
    expect(allowed("GIT_SSH_COMMAND")).toBe(true);
    expect(allowed("GIT_AUTHOR_NAME")).toBe(true);
    expect(allowed("NODE_ENV")).toBe(true);
  });
});

describe("families never proposed", () => {
  it("a family that would cover a program-control key", () => {
    expect(familyApart("NODE")?.why).toContain("NODE_OPTIONS");
    expect(familyApart("GIT_")?.why).toContain("GIT_SSH_COMMAND");
    expect(familyApart("PYTHON")?.why).toContain("PYTHONSTARTUP");
    expect(familyApart("LD_")?.why).toContain("LD_");
    expect(familyApart("L")?.why).toContain("LD_");
    for (const prefix of ["npm_", "NPM_", "npm_config_", "UV_", "CARGO_", "CARGO_TARGET_", "BASH_", "PIP_", "YARN_", "OPENSSL_", "SSL_"])
      expect(familyApart(prefix), prefix).not.toBeNull();
    expect(familyApart("npm_")?.why).toContain("npm_config_");
    expect(familyApart("TSC_")).toBeNull();
    expect(familyApart("VITEST")).toBeNull();
    expect(familyApart("AWS_")?.why).toContain("AWS_CONFIG_FILE");
    expect(familyApart("SENTRY_")).toBeNull();
  });
});

describe("roots never proposed", () => {
  it("the system's directories and the tool cache", () => {
    for (const path of [
      "/usr/share/x",
      "/usr/lib/x",
      "/usr/lib/python3/dist-packages/xdist/__pycache__",
      "/etc/x",
      "/opt/x",
      "/bin",
      "/sbin/x",
      "/lib/x",
      "/lib64/x",
      "/libx32/y",
      "/var/lib/dpkg/x",
    ]) {
      expect(rootApart(path, [])?.kind, path).toBe("system_directory");
    }
    expect(rootApart("/opt/hostedtoolcache/Python/3.12/x", [])?.kind).toBe("tool_cache");
    expect(rootApart("/home/runner/actions-runner/_work/_tool/node/20/x", [])?.kind).toBe("tool_cache");
    expect(rootApart("/usr/share/x", [])?.why).toContain("/usr");
    for (const path of ["/var/cache/tool/x", "/home/runner/.cache/widgets", "/tmp/x", "${WORKSPACE}/x", "/usrx/y", "/library/x"]) {
      expect(rootApart(path, []), path).toBeNull();
    }
  });

  it("another program's install directory: the one that holds an executed program's bin", () => {
    expect(installDirOf("/home/runner/.nvm/versions/node/v20.1.0/bin/node")).toBe("/home/runner/.nvm/versions/node/v20.1.0");
    expect(installDirOf("/home/runner/.local/bin/pytest")).toBe("/home/runner/.local");
    // Too shallow to be one program's (a home's bin), or no bin directory.
    expect(installDirOf("/home/runner/bin/x")).toBeNull();
    expect(installDirOf("/usr/bin/node")).toBeNull();
    expect(installDirOf("/home/runner/tools/x")).toBeNull();
    const installs = ["/home/runner/.nvm/versions/node/v20.1.0"];
    const apart = rootApart("/home/runner/.nvm/versions/node/v20.1.0/lib/node_modules/x", installs);
    expect(apart?.kind).toBe("install_directory");
    expect(apart?.why).toContain("/home/runner/.nvm/versions/node/v20.1.0");
    expect(rootApart("/home/runner/.cache/x", installs)).toBeNull();
    // A site-packages or a global node_modules outside the roots is a program's install directory too.
    expect(rootApart("/home/runner/.venv/lib/python3.12/site-packages/x/__pycache__", [])?.kind).toBe("install_directory");
  });

  it("writes the jail refused in a run that exited 0, with the key that would have avoided them", () => {
    expect(refusedUnneeded().kind).toBe("refused_unneeded");
    expect(refusedUnneeded().why).toContain("exited 0");
    expect(avoidingKey(["/usr/lib/x/y.pyc"])).toBe("PYTHONDONTWRITEBYTECODE");
    expect(avoidingKey(["/srv/app/__pycache__/m.cpython-312.pyc"])).toBe("PYTHONDONTWRITEBYTECODE");
    expect(avoidingKey(["/usr/share/x"])).toBeUndefined();
  });
});
