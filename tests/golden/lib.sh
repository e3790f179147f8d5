# shellcheck shell=bash
# Shared by tests/golden.t and tests/golden/regenerate.sh: the cases and how
# one is run, so the expected files and the test see the same runs.

GOLDEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# golden_cases: "NAME ARGS..." per case, from tests/golden/cases.
golden_cases() {
    grep -v -e '^#' -e '^[[:space:]]*$' "$GOLDEN_DIR/cases"
}

# golden_run BIN WORKDIR NAME ARGS...: runs BIN ARGS --json=NAME.json --csv=NAME.csv
# inside WORKDIR (relative file names keep paths out of the Invocation line),
# stdout to NAME.out, stderr to NAME.err; returns clomp's exit status. The
# OpenMP environment is the test's own: every OMP_/GOMP_/KMP_ variable and
# XLSMPOPTS of the caller is removed (the report prints them), and
# OMP_WAIT_POLICY=passive keeps oversubscribed runs quick.
golden_run() {
    local bin=$1 dir=$2 name=$3
    shift 3
    local -a unset_args=()
    local var
    for var in $(compgen -e); do
        case $var in OMP_* | GOMP_* | KMP_* | XLSMPOPTS) unset_args+=(-u "$var") ;; esac
    done
    (cd "$dir" && env "${unset_args[@]}" OMP_WAIT_POLICY=passive \
        "$bin" "$@" --json="$name.json" --csv="$name.csv" </dev/null >"$name.out" 2>"$name.err")
}

# golden_masked KIND BIN WORKDIR NAME: the masked form of one output of a run
# (KIND: txt, json-keys, json-values, csv), as the expected files hold it.
golden_masked() {
    local kind=$1 bin=$2 dir=$3 name=$4
    case $kind in
        txt) python3 "$GOLDEN_DIR/golden.py" text "$dir/$name.out" --exe "$bin" ;;
        json-keys | json-values) python3 "$GOLDEN_DIR/golden.py" "$kind" "$dir/$name.json" ;;
        csv) python3 "$GOLDEN_DIR/golden.py" csv "$dir/$name.csv" ;;
    esac
}

# The expected files of a case: tests/golden/NAME.KIND.
# shellcheck disable=SC2034  # used by the scripts that source this file
GOLDEN_KINDS=(txt json-keys json-values csv)

# golden_files: the expected files' names (NAME.KIND), in the cases' order.
golden_files() {
    local name kind
    while read -r name _; do
        for kind in "${GOLDEN_KINDS[@]}"; do
            echo "$name.$kind"
        done
    done < <(golden_cases)
}

# golden_fingerprint: one SHA-256 over the expected files' names and contents,
# as tests/golden/REASONS records it after each regeneration.
golden_fingerprint() {
    local file
    for file in $(golden_files); do
        echo "== $file"
        cat "$GOLDEN_DIR/$file" 2>/dev/null || echo "(missing)"
    done | sha256sum | cut -d' ' -f1
}

# golden_recorded_fingerprint: the fingerprint of the last regeneration
# tests/golden/REASONS records (empty when it records none).
golden_recorded_fingerprint() {
    [ -r "$GOLDEN_DIR/REASONS" ] || return 0
    sed -n 's/^fingerprint: //p' "$GOLDEN_DIR/REASONS" | tail -1
}
