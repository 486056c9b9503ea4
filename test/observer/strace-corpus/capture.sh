#!/usr/bin/env bash
# Regenerates this corpus: every program here (C, Python) run under the installed strace with the
# arguments the wrapper uses (straceArgs of src/observer/strace.ts, this machine's architecture),
# one NAME.trace per program. The programs live in /tmp/eg-strace-corpus while they run, and the
# traces name that directory. Needs cc, python3 and strace; runs as any user, outside the jail.
# Timing-dependent forms (which line cuts which short) are checked by the corpus test: rerun a
# capture whose form came out otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work=/tmp/eg-strace-corpus
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

(cd "$root" && npx tsc -p tsconfig.json --noEmit false --outDir "$build")
cat >"$build/args.mjs" <<'JS'
import { straceArgs } from "./src/observer/strace.js";
import { jailArch } from "./src/observer/seccomp.js";
process.stdout.write(straceArgs(process.argv[2], jailArch()).join("\0") + "\0");
JS

rm -rf "$work"
mkdir -p "$work"
for src in "$here"/*.c; do
  cc -O1 -pthread -o "$work/$(basename "$src" .c)" "$src"
done
cp "$here"/*.py "$work/"

# capture NAME [extra strace args...] -- command...
capture() {
  local name="$1"
  shift
  local extra=()
  while [ "$1" != "--" ]; do
    extra+=("$1")
    shift
  done
  shift
  local out="$build/$name.out"
  local args=()
  mapfile -d '' args < <(node "$build/args.mjs" "$out")
  rm -rf "$work"/fifo* "$work"/sub "$work"/made "$work"/*-after "$work"/after-* "$work"/thread-[0-9] "$work"/before-term
  local status=0
  (cd "$work" && strace "${args[@]}" "${extra[@]}" -- "$@") || status=$?
  {
    echo "# $(strace -V | head -1); Linux $(uname -r) $(uname -m); exit status $status"
    echo "# strace ${args[*]//$out/TRACE} ${extra[*]} -- $*"
    cat "$out"
  } >"$here/$name.trace"
  echo "$name: exit $status, $(wc -l <"$out") lines"
}

capture thread-exec -- ./thread-exec
capture thread-exec-leader-writing -- ./thread-exec-leader-writing
capture main-exec-thread-writing -- ./main-exec-thread-writing
capture leader-exited -- ./leader-exited
capture thread-exec-enoent -- ./thread-exec-enoent
capture thread-execveat -- ./thread-execveat
capture vfork-exec -- ./vfork-exec
capture threads-interleaved -- ./threads-interleaved
capture killed-in-call -- ./killed-in-call
# With signals printed: the `+++ killed by SIG... +++` lines, which `-e signal=none` leaves out.
capture killed-in-call.signals-shown -e signal=all -- ./killed-in-call
capture signal-in-call -- ./signal-in-call
# The same with signals printed (the wrapper prints none): `---` lines between unfinished and resumed.
capture signal-in-call.signals-shown -e signal=all -- ./signal-in-call
capture thread-execv-python -- /usr/bin/python3 -B thread-execv.py
