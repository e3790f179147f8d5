# shellcheck shell=bash
# What the driver tests share (tests/compare.t, sweep.t, grain.t): run_clomp.sh run
# in a scratch directory that is removed at exit. Source it after lib/tap.sh.
#   drive ARGS...            runs run_clomp.sh ARGS; sets rc, out and err (its stdout and stderr)
#   refuse DESC ERE ARGS...  a bad command line: two tests, exit 2 with one line on stderr and no
#                            output nor files in $bad_dir, and that line matching ERE
# Sets top, driver, host (as the file names carry it), root and bad_dir.
# shellcheck disable=SC2034  # top, host, rc, out and err are the sourcing test's
rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
host=$(uname -n)
host=${host%%.*}
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT
bad_dir=$root/bad

drive() {
    "$driver" "$@" </dev/null >"$root/drive.out" 2>"$root/drive.err"
    rc=$?
    out=$(cat "$root/drive.out")
    err=$(cat "$root/drive.err")
}

refuse() {
    local desc=$1 ere=$2
    shift 2
    drive --out "$bad_dir" "$@"
    [ "$rc" -eq 2 ] && [ "$(line_count "$err")" -eq 1 ] && [ -z "$out" ] && [ ! -e "$bad_dir" ]
    ok $? "$desc: exit 2 with one line on stderr, no output and no files"
    like "$err" "$ere" "$desc: the line says what is wrong"
}
