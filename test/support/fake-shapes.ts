/**
 * The fake GitHub's JSON objects in the shapes GitHub's API description gives them (every
 * required field, nothing it does not describe): users, repositories, pull requests, check
 * runs, workflow runs, artifacts, git objects, contents. test/support/openapi.ts holds the
 * fake to them; the fake's routes (fake-github.ts, fake-github-app.ts) build their answers here.
 */

export const FAKE_CREATED_AT = "2026-01-01T00:00:00Z";

export interface UserLike {
  login: string;
  type?: "User" | "Bot" | "Organization";
}

export interface RepoLike {
  owner: string;
  name: string;
  id: number;
  default_branch: string;
  private: boolean;
  fork?: boolean;
}

export function hashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** A positive id derived from a name, for objects the fake does not store (users, workflows). */
export function idOf(name: string): number {
  return Math.abs(hashCode(name)) || 1;
}

function nodeId(kind: string, id: number | string): string {
  return `${kind}_${Buffer.from(String(id)).toString("base64url")}`;
}

/** `simple-user` (and the collaborator form with `role_name`). */
export function userJson(user: UserLike, baseUrl: string): Record<string, unknown> {
  const id = idOf(user.login);
  const type = user.type ?? (user.login.endsWith("[bot]") ? "Bot" : "User");
  const url = `${baseUrl}/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id,
    node_id: nodeId(type === "Bot" ? "BOT" : type === "Organization" ? "O" : "U", id),
    avatar_url: `${baseUrl}/avatars/u/${id}`,
    gravatar_id: "",
    url,
    html_url: `${baseUrl}/${encodeURIComponent(user.login)}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    site_admin: false,
  };
}

/**
 * `repository` (pull request heads and bases; it satisfies `minimal-repository` too), or with
 * `full` the `full-repository` of GET /repos/{owner}/{repo}.
 */
export function repoJson(repo: RepoLike, baseUrl: string, full = false): Record<string, unknown> {
  const fullName = `${repo.owner}/${repo.name}`;
  const url = `${baseUrl}/repos/${fullName}`;
  const html = `${baseUrl}/${fullName}`;
  return {
    id: repo.id,
    node_id: nodeId("R", repo.id),
    name: repo.name,
    full_name: fullName,
    owner: userJson({ login: repo.owner, type: "Organization" }, baseUrl),
    private: repo.private,
    html_url: html,
    description: null,
    fork: repo.fork ?? false,
    url,
    archive_url: `${url}/{archive_format}{/ref}`,
    assignees_url: `${url}/assignees{/user}`,
    blobs_url: `${url}/git/blobs{/sha}`,
    branches_url: `${url}/branches{/branch}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    comments_url: `${url}/comments{/number}`,
    commits_url: `${url}/commits{/sha}`,
    compare_url: `${url}/compare/{base}...{head}`,
    contents_url: `${url}/contents/{+path}`,
    contributors_url: `${url}/contributors`,
    deployments_url: `${url}/deployments`,
    downloads_url: `${url}/downloads`,
    events_url: `${url}/events`,
    forks_url: `${url}/forks`,
    git_commits_url: `${url}/git/commits{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_url: `git://127.0.0.1/${fullName}.git`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    issue_events_url: `${url}/issues/events{/number}`,
    issues_url: `${url}/issues{/number}`,
    keys_url: `${url}/keys{/key_id}`,
    labels_url: `${url}/labels{/name}`,
    languages_url: `${url}/languages`,
    merges_url: `${url}/merges`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    pulls_url: `${url}/pulls{/number}`,
    releases_url: `${url}/releases{/id}`,
    ssh_url: `git@127.0.0.1:${fullName}.git`,
    stargazers_url: `${url}/stargazers`,
    statuses_url: `${url}/statuses/{sha}`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    tags_url: `${url}/tags`,
    teams_url: `${url}/teams`,
    trees_url: `${url}/git/trees{/sha}`,
    clone_url: `${html}.git`,
    mirror_url: null,
    hooks_url: `${url}/hooks`,
    svn_url: html,
    homepage: null,
    language: null,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    size: 0,
    default_branch: repo.default_branch,
    open_issues_count: 0,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    archived: false,
    disabled: false,
    visibility: repo.private ? "private" : "public",
    pushed_at: FAKE_CREATED_AT,
    created_at: FAKE_CREATED_AT,
    updated_at: FAKE_CREATED_AT,
    license: null,
    forks: 0,
    open_issues: 0,
    watchers: 0,
    ...(full ? { has_discussions: false, subscribers_count: 0, network_count: 0 } : {}),
  };
}

/** The repository the `workflow_run` webhook's run carries: `repository` without its counts, flags and clone URLs. */
export function repoLiteJson(repo: RepoLike, baseUrl: string): Record<string, unknown> {
  const full = repoJson(repo, baseUrl);
  for (const key of LITE_OMITS) delete full[key];
  return full;
}

const LITE_OMITS = [
  "git_url",
  "ssh_url",
  "clone_url",
  "mirror_url",
  "svn_url",
  "homepage",
  "language",
  "forks_count",
  "stargazers_count",
  "watchers_count",
  "size",
  "default_branch",
  "open_issues_count",
  "has_issues",
  "has_projects",
  "has_wiki",
  "has_pages",
  "has_downloads",
  "archived",
  "disabled",
  "visibility",
  "pushed_at",
  "created_at",
  "updated_at",
  "license",
  "forks",
  "open_issues",
  "watchers",
];

/** `integration`: the GitHub App that owns check runs, and GET /app. */
export function appJson(app: { id: number; slug: string; name: string; owner: string }, baseUrl: string): Record<string, unknown> {
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId("A", app.id),
    owner: userJson({ login: app.owner, type: "Organization" }, baseUrl),
    name: app.name,
    description: null,
    external_url: `${baseUrl}/apps/${app.slug}`,
    html_url: `${baseUrl}/apps/${app.slug}`,
    created_at: FAKE_CREATED_AT,
    updated_at: FAKE_CREATED_AT,
    permissions: { actions: "write", checks: "write", contents: "write", metadata: "read", pull_requests: "write" },
    events: ["pull_request", "push", "workflow_run"],
  };
}

/** The App the fake says made check runs when nothing else is known. */
export const FAKE_APP = { id: 4242, slug: "envelope-gate", name: "envelope-gate", owner: "envelope-gate" };

export function labelJson(repo: RepoLike, name: string, i: number, baseUrl: string): Record<string, unknown> {
  const id = idOf(`${repo.owner}/${repo.name}#${name}`) + i;
  return {
    id,
    node_id: nodeId("LA", id),
    url: `${baseUrl}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(name)}`,
    name,
    // Not null: GitHub's pull-request-simple (the pulls lists) requires a string here.
    description: `the ${name} label`,
    color: "ededed",
    default: false,
  };
}

export function teamJson(org: string, slug: string, baseUrl: string): Record<string, unknown> {
  const id = idOf(`${org}/${slug}`);
  return {
    id,
    node_id: nodeId("T", id),
    url: `${baseUrl}/organizations/${idOf(org)}/team/${id}`,
    members_url: `${baseUrl}/organizations/${idOf(org)}/team/${id}/members{/member}`,
    name: slug,
    description: null,
    permission: "pull",
    html_url: `${baseUrl}/orgs/${org}/teams/${slug}`,
    repositories_url: `${baseUrl}/organizations/${idOf(org)}/team/${id}/repos`,
    slug,
    type: "organization",
  };
}

/** A git identity with a date, as in git commits. */
export function gitActor(date = FAKE_CREATED_AT): Record<string, unknown> {
  return { name: "envelope-gate test", email: "test@example.invalid", date };
}

export const UNSIGNED = { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };

/** `git-commit`. */
export function gitCommitJson(
  repo: RepoLike,
  commit: { sha: string; tree: string; parents: string[]; message: string },
  baseUrl: string,
): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  return {
    sha: commit.sha,
    node_id: nodeId("C", commit.sha),
    url: `${url}/git/commits/${commit.sha}`,
    html_url: `${baseUrl}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    author: gitActor(),
    committer: gitActor(),
    tree: { sha: commit.tree, url: `${url}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${url}/git/commits/${sha}`,
      html_url: `${baseUrl}/${repo.owner}/${repo.name}/commit/${sha}`,
    })),
    verification: UNSIGNED,
  };
}

/** `commit` as the commits list (GET /repos/{owner}/{repo}/commits) gives it: no stats, no files. */
export function commitJson(
  repo: RepoLike,
  commit: { sha: string; tree: string; parents: string[]; message: string },
  baseUrl: string,
): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  const html = `${baseUrl}/${repo.owner}/${repo.name}/commit`;
  return {
    url: `${url}/commits/${commit.sha}`,
    sha: commit.sha,
    node_id: nodeId("C", commit.sha),
    html_url: `${html}/${commit.sha}`,
    comments_url: `${url}/commits/${commit.sha}/comments`,
    commit: {
      url: `${url}/git/commits/${commit.sha}`,
      author: gitActor(),
      committer: gitActor(),
      message: commit.message,
      comment_count: 0,
      tree: { sha: commit.tree, url: `${url}/git/trees/${commit.tree}` },
      verification: UNSIGNED,
    },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({ sha, url: `${url}/commits/${sha}`, html_url: `${html}/${sha}` })),
  };
}

/** `git-ref`; `name` without the leading "refs/". */
export function gitRefJson(repo: RepoLike, name: string, sha: string, baseUrl: string): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  return {
    ref: `refs/${name}`,
    node_id: nodeId("REF", `${repo.id}:${name}`),
    url: `${url}/git/refs/${name}`,
    object: { type: "commit", sha, url: `${url}/git/commits/${sha}` },
  };
}

/** `content-file` and the entries of `content-directory`. */
export function contentJson(
  repo: RepoLike,
  entry: { type: "file" | "dir"; path: string; sha: string; size: number; ref: string },
  baseUrl: string,
): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  const self = `${url}/contents/${entry.path}?ref=${encodeURIComponent(entry.ref)}`;
  const git = `${url}/git/${entry.type === "dir" ? "trees" : "blobs"}/${entry.sha}`;
  const html = `${baseUrl}/${repo.owner}/${repo.name}/${entry.type === "dir" ? "tree" : "blob"}/${encodeURIComponent(entry.ref)}/${entry.path}`;
  return {
    type: entry.type,
    size: entry.size,
    name: entry.path.split("/").at(-1),
    path: entry.path,
    sha: entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url:
      entry.type === "dir" ? null : `${baseUrl}/_fake_raw/${repo.owner}/${repo.name}/${encodeURIComponent(entry.ref)}/${entry.path}`,
    _links: { self, git, html },
  };
}
