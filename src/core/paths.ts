/**
 * Lexical path handling. The checking machine's filesystem is never consulted: the observer
 * already resolved symlinks where the write happened, and the gate judges what was recorded.
 */

const NEEDS_FOLDING = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** Folds `.`, `..` and repeated or trailing slashes. Returns null for a relative path. */
export function foldPath(path: string): string | null {
  if (path.length === 0 || path.charCodeAt(0) !== 0x2f) return null;
  if (!NEEDS_FOLDING.test(path)) return path;
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return "/" + out.join("/");
}

/** Segment-wise containment: `/work/repo-evil` is not inside `/work/repo`. Both must be folded. */
export function isInsideRoot(foldedPath: string, foldedRoot: string): boolean {
  if (foldedRoot === "/") return true;
  if (!foldedPath.startsWith(foldedRoot)) return false;
  return foldedPath.length === foldedRoot.length || foldedPath.charCodeAt(foldedRoot.length) === 0x2f;
}

export function isInsideAnyRoot(foldedPath: string, foldedRoots: readonly string[]): boolean {
  for (const root of foldedRoots) {
    if (isInsideRoot(foldedPath, root)) return true;
  }
  return false;
}
