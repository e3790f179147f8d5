#!/usr/bin/env bash
# make runtimes: every runtime profile with an `unpack` field (env/runtimes/*.tsv) gets its
# Debian package's files privately in build/runtimes/<profile>/: apt-get download and
# dpkg-deb -x, never installed (Debian 12's libomp5-16 and libomp5-19 conflict with the
# libomp-dev that CI needs). The directory's file `package` says "PACKAGE VERSION" (what
# --compare reports for a library under it). A profile already unpacked is left as it is.
# Exit status: 0 every one unpacked, 1 a package could not be downloaded or unpacked.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env/runtime.sh
. "$here/env/runtime.sh" --functions
status=0
for name in $(runtime_names); do
    pkg=$(runtime_value "$name" unpack) || continue
    [ -n "$pkg" ] || continue
    if ! [[ $pkg =~ ^[a-z0-9][a-z0-9.+-]*$ ]]; then
        printf 'env/unpack_runtimes.sh: %s.tsv: unpack: not a Debian package name\n' "$name" >&2
        status=1
        continue
    fi
    dir=$here/build/runtimes/$name
    if [ -s "$dir/package" ] && [ ! -L "$dir" ]; then
        printf '%s: %s, unpacked in build/runtimes/%s\n' "$name" "$(head -c 200 "$dir/package")" "$name"
        continue
    fi
    work=$(mktemp -d) || exit 1
    if ! (cd "$work" && apt-get download "$pkg") >"$work/log" 2>&1; then
        printf 'env/unpack_runtimes.sh: %s: apt-get download %s failed: %s\n' "$name" "$pkg" "$(grep -m1 -E '^E:' "$work/log" || tail -n 1 "$work/log")" >&2
        rm -rf "$work"
        status=1
        continue
    fi
    debs=("$work"/*.deb)
    mkdir -p "$work/files"
    if [ "${#debs[@]}" = 1 ] && [ -f "${debs[0]}" ] && dpkg-deb -x "${debs[0]}" "$work/files" &&
        printf '%s %s\n' "$(dpkg-deb -f "${debs[0]}" Package)" "$(dpkg-deb -f "${debs[0]}" Version)" >"$work/files/package"; then
        mkdir -p "$here/build/runtimes"
        rm -rf "$dir" && mv "$work/files" "$dir"
        printf '%s: %s, unpacked in build/runtimes/%s\n' "$name" "$(cat "$dir/package")" "$name"
    else
        printf 'env/unpack_runtimes.sh: %s: could not unpack %s\n' "$name" "$pkg" >&2
        status=1
    fi
    rm -rf "$work"
done
exit "$status"
