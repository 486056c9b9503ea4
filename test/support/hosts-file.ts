/**
 * What the processes a test starts see at /etc/hosts: a private mount namespace (`unshare -m`,
 * root) binds a file over it, so a test's names resolve for them (a container job's service
 * names, as Docker's DNS answers them; a name for a server of this machine). The machine's own
 * /etc/hosts is untouched.
 */

/** Whether the tests can give their processes an /etc/hosts of their own (unshare -m needs root). */
export const CAN_BIND_HOSTS = process.geteuid?.() === 0;

/**
 * `command` run with `hostsPath` bound over /etc/hosts: the argv to spawn. bash, not sh: dash drops
 * environment entries whose names are not shell identifiers, such as the runner's `INPUT_GITHUB-TOKEN`.
 */
export function withHostsFile(hostsPath: string, command: string[]): [string, ...string[]] {
  return [
    "unshare",
    "-m",
    "--propagation",
    "private",
    "/bin/bash",
    "-c",
    'mount --bind "$0" /etc/hosts && exec "$@"',
    hostsPath,
    ...command,
  ];
}
