# shellcheck shell=bash
# The suite's tables from clomp's own --csv rows (one per measurement), read
# by column name: adding a measurement or a column to clomp never means
# editing column numbers here. Sourced by run_clomp.sh.

# The .summary columns, per measurement key: us/Loop, speedup, efficacy, overhead.
summary_keys=(calc_deposit barrier serial bestcase static dynamic manual nested)
summary_names=(calc_deposit omp_barrier serial_ref bestcase_omp static_omp dynamic_omp manual_omp nested_omp)

summary_header() {
    local cols='run,set,status,exit_code,seconds,numThreads,allocThreads,numParts,zonesPerPart,zoneSize,flopScale,timeScale'
    local s
    for s in "${summary_names[@]}"; do
        cols="$cols,${s}_us_per_loop,${s}_speedup,${s}_efficacy_percent,${s}_overhead_us"
    done
    # clomp's OMP Parallel (fork/join) probe and the process's CPU seconds (getrusage):
    # appended after numa, so earlier columns keep their places.
    printf '%s\n' "$cols,numa,omp_parallel_us_per_loop,user_cpu_seconds,system_cpu_seconds"
}

# csv_cells RUN_CSV KEY COLUMN...: the cells of measurement KEY's row, comma-
# joined; a cell that is not a plain number is empty, so nothing can break
# the summary CSV. No such file, row or column: empty cells.
csv_cells() {
    local file=$1 key=$2
    shift 2
    awk -F, -v key="$key" -v cols="$*" '
        FNR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $1 == key { row = $0; split(row, cell, ",") }
        END { n = split(cols, c, " ")
            for (i = 1; i <= n; i++) {
                v = (c[i] in at) ? cell[at[c[i]]] : ""
                if (v !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) v = ""
                printf "%s%s", (i > 1 ? "," : ""), v } }' "$file" 2>/dev/null ||
        { local i; for ((i = 1; i < $#; i++)); do printf ','; done; }
}

# summary_row RUN SET STATUS RC SECONDS ARGS RUN_CSV NUMA_POLICY: the run's
# .summary row. A failed run's figures are left empty (what it measured
# before failing is in .full and in the suite's .csv).
summary_row() {
    local run=$1 set_name=$2 status=$3 rc=$4 seconds=$5 args=$6 csv=$7 policy=$8
    local row="$run,$set_name,$status,$rc,$seconds,${args// /,}" key cells fork_join cpu
    [ "$status" = OK ] || csv=/dev/null
    for key in "${summary_keys[@]}"; do
        # CLOMP 1.2's figures, from Runtime: what the run's own summary prints.
        cells=$(csv_cells "$csv" "$key" runtime_us_per_loop runtime_speedup runtime_efficacy_percent runtime_overhead_us)
        row="$row,$cells"
    done
    fork_join=$(csv_cells "$csv" parallel runtime_us_per_loop)
    # The process's CPU seconds are on every row of its CSV: Serial Ref's always exists.
    cpu=$(csv_cells "$csv" serial user_cpu_seconds system_cpu_seconds)
    printf '%s\n' "$row,$policy,$fork_join,$cpu"
}

# suite_csv_rows RUN SET STATUS RC SECONDS RUN_CSV SUITE_CSV: appends the
# run's rows to SUITE_CSV (<base>.csv for a mesh run's measurements,
# <base>.constructs.csv for a construct run's table), each prefixed with the
# run's index, set, status, exit code and seconds; writes the header (the run's
# own CSV header after those five) first when SUITE_CSV is new. A run that left
# no CSV (killed, crashed) adds no row.
suite_csv_rows() {
    local prefix="$1,$2,$3,$4,$5" csv=$6 suite=$7
    [ -s "$csv" ] || return 0
    [ -s "$suite" ] || printf 'run,set,run_status,run_exit_code,run_seconds,%s\n' "$(head -n 1 "$csv")" >>"$suite"
    tail -n +2 "$csv" | sed "s/^/$prefix,/" >>"$suite"
}

# static_speedup RUN_CSV: Static OMP's speedup (CLOMP 1.2's, from Runtime: the
# run's Speedup line), or empty.
static_speedup() {
    csv_cells "$1" static runtime_speedup
}
