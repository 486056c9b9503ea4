/** Facts about the host's own paths that the jail and the protected paths both need. */
import { lstatSync } from "node:fs";
import { homedir, userInfo } from "node:os";

/** The wrapper's homes: `$HOME` and the passwd entry's, when they are absolute and not `/`. */
export function homes(): string[] {
  const out = new Set<string>();
  const fromEnv = homedir();
  if (fromEnv.startsWith("/") && fromEnv !== "/") out.add(fromEnv);
  try {
    const fromPasswd = userInfo().homedir;
    if (fromPasswd.startsWith("/") && fromPasswd !== "/") out.add(fromPasswd);
  } catch {
    // no passwd entry: only HOME
  }
  return [...out];
}

/** Whether anything (a dangling link too) is at the path. */
export function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
