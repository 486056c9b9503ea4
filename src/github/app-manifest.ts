/**
 * The last step of GitHub's App manifest flow: the temporary code GitHub gave the redirect is
 * converted into the new App's id, private key and webhook secret (POST
 * /app-manifests/{code}/conversions, no authentication; the code is good once, for an hour).
 */
import { Refusal } from "../core/errors.js";
import { GuardedOctokit, gitHubFailure, guardedOctokitOptions, hasStatus } from "./client.js";

/** What GitHub answers for the new App; the client secret is not kept (the App signs in with its key). */
export interface ConvertedApp {
  id: number;
  slug: string;
  name: string;
  htmlUrl: string;
  /** Who owns the App: the organization or user whose settings page created it. */
  owner: { login: string; type: string };
  pem: string;
  webhookSecret: string | null;
}

export async function convertManifestCode(apiUrl: string, code: string, timeoutMs = 30_000): Promise<ConvertedApp> {
  const octokit = new GuardedOctokit(guardedOctokitOptions({ baseUrl: apiUrl, retry: { retries: 2, timeoutMs }, throttle: false }));
  let data: Record<string, unknown>;
  try {
    const answer = await octokit.request("POST /app-manifests/{code}/conversions", { code });
    data = answer.data as Record<string, unknown>;
  } catch (err) {
    const failure = gitHubFailure(
      "convert the App manifest's code",
      err,
      `Check that ${apiUrl} is GitHub's API and reachable, then run app setup again.`,
    );
    if (hasStatus(failure, 404) || hasStatus(failure, 422)) {
      throw new Refusal("APP_SETUP_CONVERSION_FAILED", `GitHub refused the code it redirected with: ${failure.message}`, {
        cause: err,
        hint: "The code is good once and for one hour. Run `envelope-gate app setup` again; if GitHub created the App, delete it on its settings page first (or choose another --name).",
      });
    }
    throw failure;
  }
  const { id, slug, name, html_url: htmlUrl, pem, webhook_secret: webhookSecret, owner } = data;
  const { login, type } = (typeof owner === "object" && owner !== null ? owner : {}) as Record<string, unknown>;
  if (
    typeof id !== "number" ||
    typeof pem !== "string" ||
    typeof slug !== "string" ||
    typeof htmlUrl !== "string" ||
    typeof login !== "string" ||
    typeof type !== "string"
  ) {
    throw new Refusal(
      "APP_SETUP_CONVERSION_FAILED",
      "GitHub's answer to the code conversion has no App id, slug, page, owner or private key",
    );
  }
  return {
    id,
    slug,
    name: typeof name === "string" ? name : slug,
    htmlUrl,
    owner: { login, type },
    pem,
    webhookSecret: typeof webhookSecret === "string" ? webhookSecret : null,
  };
}
