import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { Refusal } from "../core/errors.js";

/**
 * Where the App's private key is read each time a JWT is signed: a file, a secret-manager
 * command (src/app/secrets.ts) or, outside production, the value itself. `read` returns a fresh
 * buffer the caller zeroes after use, or throws SECRET_UNAVAILABLE.
 */
export interface PrivateKeySource {
  /** The variable (and file) the key comes from, for messages; never the key. */
  readonly origin: string;
  read(): Promise<Buffer>;
}

const KEY_HINT = "Use the .pem file GitHub generated for the App (App settings > Private keys), unchanged.";

/**
 * Parses a PEM RSA private key (GitHub issues RSA keys); anything else is PRIVATE_KEY_INVALID
 * naming where it came from. The caller zeroes `pem` afterwards.
 */
export function parsePrivateKey(pem: Buffer, origin: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch (err) {
    throw new Refusal("PRIVATE_KEY_INVALID", `${origin} is not a PEM private key (${(err as Error).message})`, {
      hint: KEY_HINT,
      cause: err,
    });
  }
  if (key.asymmetricKeyType !== "rsa") {
    throw new Refusal("PRIVATE_KEY_INVALID", `${origin} is a ${key.asymmetricKeyType ?? "?"} key; GitHub Apps sign with RSA keys`, {
      hint: KEY_HINT,
    });
  }
  return key;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * The App's JWT (RS256, valid 10 minutes, issued 30 s in the past against clock drift: what
 * `universal-github-app-jwt` makes for @octokit/auth-app), signed with the key read now. The
 * key's bytes are zeroed as soon as they are parsed; the parsed key is dropped when this returns.
 * `timeDifference` is the correction @octokit/auth-app passes after GitHub said our clock is off.
 */
export async function createAppJwt(
  source: PrivateKeySource,
  appId: string | number,
  timeDifference = 0,
): Promise<{ jwt: string; expiresAt: string }> {
  const pem = await source.read();
  let key: KeyObject;
  try {
    key = parsePrivateKey(pem, source.origin);
  } finally {
    pem.fill(0);
  }
  const iat = Math.floor(Date.now() / 1000) + timeDifference - 30;
  const exp = iat + 600;
  const unsigned = `${b64url({ alg: "RS256", typ: "JWT" })}.${b64url({ iat, exp, iss: appId })}`;
  const signature = sign("sha256", Buffer.from(unsigned), key).toString("base64url");
  return { jwt: `${unsigned}.${signature}`, expiresAt: new Date(exp * 1000).toISOString() };
}
