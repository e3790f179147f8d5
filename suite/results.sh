# shellcheck shell=bash
# The results of a suite: charts, the HTML report and the submission bundle
# (results/clomp-results report, results/clomp_results/bundle.py). Sourced by run_clomp.sh; reads its
# plots setting (yes, no, auto) and here.
# shellcheck disable=SC2154  # plots: assigned by run_clomp.sh

# Charts need gnuplot: on by default when it is installed, a notice when not.
write_results() {  # write_results BASE: charts, <base>.html, <base>.tar.gz
    local chart_opt=--charts
    case $plots in
        no) chart_opt=--no-charts ;;
        auto)
            if ! command -v gnuplot >/dev/null 2>&1; then
                echo "run_clomp.sh: notice: gnuplot is not installed: no charts (install gnuplot-nox, then: make plots OUT=$1)" >&2
                chart_opt=--no-charts
            fi ;;
    esac
    if ! "$here/results/clomp-results" --help >/dev/null 2>&1; then
        echo "run_clomp.sh: notice: no Python 3.8+ on this node: every run is recorded, but the report and the bundle must be made on a machine with it: make plots OUT=$1 / ./run_clomp.sh --bundle --out $(dirname "$1")" >&2
        return 1
    fi
    "$here/results/clomp-results" report "$chart_opt" "$1" || return 1
    "$here/results/clomp-results" bundle "$1"
}

# --bundle [ID]: rewrites the results of the suite of that ID in DIR and
# exits: this host's, or the only one of that ID (results copied from a
# compute node); without an ID, the highest.
rewrite_results() {  # rewrite_results DIR ID HOST
    local out_dir=$1 bundle_id=$2 host=$3 envs base f
    envs=$(for f in "$out_dir"/CLOMP_*.env; do
        [[ $f =~ _([0-9]+)\.env$ ]] && [ "${bundle_id:-${BASH_REMATCH[1]}}" = "${BASH_REMATCH[1]}" ] && echo "${f%.env}"
    done |
        awk '{ id = $0; sub(/.*_/, "", id); print id "\t" $0 }' | sort -n | cut -f2)
    [ -n "$envs" ] || die_usage "--bundle: no suite${bundle_id:+ $bundle_id} in $out_dir"
    if [ -n "$bundle_id" ] && [ -f "$out_dir/CLOMP_${host}_${bundle_id}.env" ]; then
        base="$out_dir/CLOMP_${host}_${bundle_id}"
    elif [ -n "$bundle_id" ] && [ "$(grep -c . <<<"$envs")" -gt 1 ]; then
        die_usage "--bundle: several suites $bundle_id in $out_dir: $(tr '\n' ' ' <<<"$envs")"
    else
        base=$(tail -n 1 <<<"$envs")
    fi
    grep -q '^---- complete ' "$base.env" ||
        echo "run_clomp.sh: warning: $base is not complete; its bundle will not validate" >&2
    write_results "$base" || exit 1
    exit 0
}
