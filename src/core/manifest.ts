/** The App manifest (app.yml), as GitHub's manifest flow takes it. A test keeps the two equal. */
export const APP_PERMISSIONS = {
  actions: "write",
  checks: "write",
  contents: "write",
  pull_requests: "write",
  metadata: "read",
} as const;

export const APP_EVENTS = ["workflow_run", "push", "pull_request", "pull_request_review"] as const;

export function appManifest(baseUrl: string, name = "envelope-gate"): Record<string, unknown> {
  const root = baseUrl.replace(/\/+$/, "");
  return {
    name,
    url: "https://github.com/envelope-gate/envelope-gate",
    description:
      "Runs a failing non-envelope property again on a second machine and proposes a reviewed, expiring freeze when the runs disagree.",
    public: false,
    hook_attributes: { url: `${root}/webhook`, active: true },
    redirect_url: `${root}/status`,
    default_permissions: { ...APP_PERMISSIONS },
    default_events: [...APP_EVENTS],
  };
}
