#!/usr/bin/env bash
# bundle.sh BASE: the submission bundle <base>.tar.gz. One directory named
# after the suite holding every file of that ID (.env, .done, .csv, the
# construct table .constructs.csv, every .full and .summary, the HTML report,
# the charts), the machine description
# (<base>_machine/: lscpu, numactl -H, lstopo, kernel, governors, build
# facts) and a MANIFEST with the SHA-256 of every other file, in the format
# of `sha256sum` (so `sha256sum -c MANIFEST` checks it too). Check a bundle
# with ./clomp_validate. Prints the bundle's name; exit 0, 1 on failure,
# 2 when BASE is not a suite.
set -u
base=${1:?usage: bundle.sh BASE}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$base.env" ] || { echo "bundle.sh: no suite at $base ($base.env is missing)" >&2; exit 2; }
name=$(basename "$base")
stage=$(mktemp -d) || exit 1
trap 'rm -rf "$stage"' EXIT
dir=$stage/$name
mkdir "$dir" || exit 1

for f in "$base".* "$base"_*; do
    [ -e "$f" ] || continue
    case $f in *.tar.gz | *.tmp.* | *.tar.gz.tmp) continue ;; esac
    cp -R "$f" "$dir/" || exit 1
done
# A suite started before machine descriptions were taken gets one now, marked as such.
if [ ! -d "$dir/${name}_machine" ]; then
    "$here/machine.sh" "$dir/${name}_machine" || exit 1
    echo "taken when the bundle was made ($(date)), not when the suite ran" >"$dir/${name}_machine/NOTE.txt"
fi

(cd "$dir" && find . -type f ! -name MANIFEST | sed 's|^\./||' | LC_ALL=C sort | while IFS= read -r f; do
    sha256sum -- "$f"
done) >"$dir/MANIFEST" || exit 1

out=$base.tar.gz
if ! tar --sort=name --owner=0 --group=0 --numeric-owner -czf "$out.tmp" -C "$stage" "$name" || ! mv "$out.tmp" "$out"; then
    rm -f "$out.tmp"
    echo "bundle.sh: could not write $out" >&2
    exit 1
fi
echo "$out"
