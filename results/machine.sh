#!/usr/bin/env bash
# machine.sh DIR [EXE]: the machine description that goes into a submission
# bundle, one file per source, written into DIR (created; must not exist):
# CPUs and cores, NUMA layout, topology, kernel, frequency governors, and the
# binary's build facts (clomp-write machine: write/machine.c). Taken when the
# suite starts, so that a bundle made later still describes the node the
# numbers came from. Run by the driver (which names its writer in CLOMP_WRITE)
# and by the results package's bundle (this tree's writer, made if need be).
set -u
dir=${1:?usage: machine.sh DIR [EXE]}
top=$(cd "$(dirname "$0")/.." && pwd)
writer=${CLOMP_WRITE:-$top/build/clomp-write}
[ -x "$writer" ] || make -s --no-print-directory -C "$top" clomp-write >&2 || exit 1
mkdir "$dir" || exit 1
exec "$writer" machine "$dir" "${2-}"
