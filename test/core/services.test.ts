import { describe, expect, it } from "vitest";
import { envelopeSchema, loadEnvelope, type Envelope } from "../../src/core/envelope.js";
import { envelopeJson } from "../../src/core/suggest.js";
import { Refusal } from "../../src/core/errors.js";
import { judgeHost, ruleContext } from "../../src/core/rules.js";
import { isDeclaredService, parseService, servicesOf } from "../../src/core/services.js";

const BASE: Envelope = {
  envelope_id: "services-test",
  allowed_roots: ["/work"],
  allowed_tools: [],
  allowed_env: [],
  allowed_hosts: [],
  network: "deny",
};

function envelopeBytes(extra: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ ...BASE, ...extra }, null, 2) + "\n");
}

describe("a services entry", () => {
  it.each([
    ["127.0.0.1:5432", { kind: "tcp", host: "127.0.0.1", port: 5432 }],
    ["127.0.0.2:6379", { kind: "tcp", host: "127.0.0.2", port: 6379 }],
    ["[::1]:6379", { kind: "tcp", host: "::1", port: 6379 }],
    ["localhost:5432", { kind: "tcp", host: "localhost", port: 5432 }],
    ["postgres:5432", { kind: "tcp", host: "postgres", port: 5432 }],
    ["db.internal.example:3306", { kind: "tcp", host: "db.internal.example", port: 3306 }],
    ["/var/run/mysqld/mysqld.sock", { kind: "unix", path: "/var/run/mysqld/mysqld.sock" }],
  ])("%s is a service", (entry, expected) => {
    expect(parseService(entry)).toMatchObject({ ...expected, source: entry });
  });

  it.each([
    ["169.254.169.254:80", /link-local/],
    ["[fe80::1]:80", /link-local/],
    ["10.0.0.5:5432", /not a loopback address/],
    ["192.168.1.2:6379", /not a loopback address/],
    ["[2001:db8::1]:6379", /not a loopback address/],
    ["metadata.google.internal:80", /metadata/],
    ["instance-data:80", /metadata/],
    ["127.0.0.1:22", /SSH/],
    ["127.0.0.1:53", /resolver/],
    ["127.0.0.1:2375", /Docker daemon/],
    ["postgres:2376", /Docker daemon/],
    ["127.0.0.1:70000", /outside 1-65535/],
    ["/var/run/docker.sock", /Docker daemon/],
    ["/home/runner/.docker/run/docker.sock", /Docker daemon/],
    ["/run/podman/podman.sock", /Docker daemon|\/run\/podman/],
    ["/tmp/ssh-XXXX/agent.1234", /credential agent/],
    ["/run/user/1001/gnupg/S.gpg-agent", /credential agent|\/run\/user/],
    ["/run/dbus/system_bus_socket", /\/run\/dbus/],
    ["/run/systemd/journal/socket", /\/run\/systemd/],
    ["/var/lib/../run/docker.sock", /without \. or \.\./],
  ])("%s can never be a service (%s)", (entry, why) => {
    const parsed = parseService(entry);
    expect("refused" in parsed ? parsed.refused : "accepted").toMatch(why);
  });
});

describe("the envelope's services", () => {
  it("load, and a refused one is SERVICE_NOT_ALLOWED naming the file and the entry's line", () => {
    expect(loadEnvelope(envelopeBytes({ services: ["127.0.0.1:5432", "/run/mysqld/mysqld.sock"] }), "e.json").envelope.services).toEqual([
      "127.0.0.1:5432",
      "/run/mysqld/mysqld.sock",
    ]);
    let caught: unknown = null;
    try {
      loadEnvelope(envelopeBytes({ services: ["127.0.0.1:5432", "169.254.169.254:80"] }), "e.json");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Refusal);
    const refusal = caught as Refusal;
    expect(refusal.code).toBe("SERVICE_NOT_ALLOWED");
    // The second entry of the services array, the last key (line 10 opens it).
    expect(refusal.message).toMatch(/^e\.json:\d+: services entry "169\.254\.169\.254:80" can never be a service: .*link-local/);
    expect(refusal.line).toBe(12);
  });

  it("of the wrong form are ENVELOPE_INVALID (the schema), not a service", () => {
    for (const entry of ["127.0.0.1", "Postgres:5432", "relative/path.sock", "http://db:5432", "*.example:5432"]) {
      expect(() => loadEnvelope(envelopeBytes({ services: [entry] }), "e.json"), entry).toThrow(/ENVELOPE_INVALID|services/);
      try {
        loadEnvelope(envelopeBytes({ services: [entry] }), "e.json");
      } catch (err) {
        expect((err as Refusal).code, entry).toBe("ENVELOPE_INVALID");
      }
    }
  });
});

describe("judging a connection to a declared service", () => {
  const services = servicesOf(["127.0.0.1:5432", "postgres:5432", "/run/mysqld/mysqld.sock"]);

  it("matches the address and port, a lookup of a service's name, and the socket path", () => {
    expect(isDeclaredService(services, "127.0.0.1", 5432)).toBe(true);
    expect(isDeclaredService(services, "127.0.0.1", 5433)).toBe(false);
    expect(isDeclaredService(services, "postgres", 5432)).toBe(true);
    expect(isDeclaredService(services, "postgres", null)).toBe(true);
    expect(isDeclaredService(services, "postgres", 5433)).toBe(false);
    expect(isDeclaredService(services, "127.0.0.1", null)).toBe(false);
    expect(isDeclaredService(services, "unix:/run/mysqld/mysqld.sock", null)).toBe(true);
    expect(isDeclaredService(services, "unix:/run/mysqld/other.sock", null)).toBe(false);
  });

  it("is allowed under deny and allowlist alike; anything else is judged as before", () => {
    for (const network of ["deny", "allowlist"] as const) {
      const ctx = ruleContext({ ...BASE, network, services: ["127.0.0.1:5432", "postgres:5432"] }, ["/work"], {
        logPath: null,
        protectedSet: ruleContext(BASE, []).protectedSet,
        ownNetwork: true,
      });
      expect(judgeHost(ctx, "127.0.0.1", 5432, undefined)).toBeNull();
      expect(judgeHost(ctx, "postgres", 5432, undefined)).toBeNull();
      expect(judgeHost(ctx, "postgres", null, undefined)).toBeNull();
      expect(judgeHost(ctx, "db.example", 5432, undefined)).toBe(network === "deny" ? "network_denied" : "undeclared_host");
      expect(judgeHost(ctx, "postgres", 5433, undefined)).toBe(network === "deny" ? "network_denied" : "undeclared_host");
    }
  });
});

describe("an envelope written back by suggest or an envelope PR", () => {
  it("keeps services and writable_protected: nothing the base declared is dropped", () => {
    const envelope: Envelope = {
      ...BASE,
      allowed_roots: ["${WORKSPACE}"],
      services: ["127.0.0.1:5432", "postgres:5432"],
      writable_protected: ["${WORKSPACE}/.github/generated"],
    };
    const text = envelopeJson(envelope);
    expect(loadEnvelope(new TextEncoder().encode(text), "e.json").envelope).toEqual(envelope);
    // Every key the schema knows is written (a new key must be added to envelopeJson's order).
    const schemaKeys = Object.keys((envelopeSchema as { properties: Record<string, unknown> }).properties).filter((k) => k !== "$schema");
    const full = Object.fromEntries(schemaKeys.map((k) => [k, (envelope as unknown as Record<string, unknown>)[k] ?? "x"]));
    expect(Object.keys(JSON.parse(envelopeJson(full as unknown as Envelope)) as object).sort()).toEqual(schemaKeys.sort());
  });
});
