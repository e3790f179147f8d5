# shellcheck shell=bash
# The suite's offload runs (docs/offload.md, "In the suite": the sets offload, offload_zpp<Z> and
# offload_probes, their settings and why). Only with an offload build (make OFFLOAD=host|nvptx|amdgcn)
# whose device opens; otherwise none, and the dry run and the header say why. Sourced by run_clomp.sh;
# appends to plan; sets offload_state (device, none, missing), offload_device_text and offload_why.
# Reads run_clomp.sh's settings (offload 0: --no-offload), assigned there before any function runs:
declare -g exe max_threads target_zones time_scale mpi_given offload writer

offload_state=none offload_device_text='' offload_why=''

is_offload_set() { [[ $1 == offload || $1 == offload_zpp* || $1 == offload_probes ]]; }

# Asks the binary about its device: an offload build opens it in a dry run
# of one part (clomp exits 3, one line, when the device is missing).
probe_offload() {
    local kind out
    offload_state=none offload_device_text='' offload_why=''
    if [ "${offload:-1}" = 0 ]; then offload_why="--no-offload"; return 0; fi
    if [ "$mpi_given" = 1 ]; then offload_why="not with --mpi (an offload run is one process)"; return 0; fi
    if [ ! -x "$exe" ]; then offload_why="$exe is not built yet (the default build has no offload)"; return 0; fi
    kind=$("$exe" --version 2>/dev/null | sed -n 's/^offload: \([a-z0-9]*\).*/\1/p')
    if [ -z "$kind" ] || [ "$kind" = no ]; then
        offload_why="this binary has no offload (make OFFLOAD=host|nvptx|amdgcn builds one)"
        return 0
    fi
    if ! out=$("$exe" 1 1 1 2 32 1 1 --dry-run 2>&1); then
        offload_state=missing
        offload_why="the $kind build's device is missing: $(tail -n 1 <<<"$out")"
        return 0
    fi
    offload_device_text=$(sed -n 's/^ *Offload device: //p' <<<"$out" | head -n 1)
    offload_state=device
}

# The dry run's and the header's line.
offload_plan_line() {
    local n=0 set
    [ "$offload_state" = device ] || { echo "Offload: no offload runs: $offload_why"; return 0; }
    for set in ${plan[@]+"${plan[@]%%|*}"}; do ! is_offload_set "$set" || n=$((n + 1)); done
    echo "Offload: $n runs added (Offload OMP, the crossover sweep, the target probes) on $offload_device_text"
}

# The offload runs: Offload OMP on the target input, the crossover sweep (zones per part as the target
# input's times 4^k, k = -2..3, each at a timeScale that gives every median an interval: clomp-write sets
# offload-sweep, write/suite_sets.c) and the target probes (their options: construct_options).
add_offload_runs() {
    local parts zpp z sweep_scale
    [ "$offload_state" = device ] || return 0
    read -r parts zpp <<<"$(sweep_shape "$max_threads" "$target_zones")"   # parts follow the team (suite/plan.sh)
    plan+=("offload||$max_threads -1 $parts $zpp 32 1 $time_scale")
    while read -r z sweep_scale; do
        plan+=("offload_zpp$z||$max_threads -1 $parts $z 32 1 $sweep_scale")
    done < <("$writer" sets offload-sweep "$parts" "$zpp" "$time_scale")
    plan+=("offload_probes||$max_threads -1 $parts $zpp 32 1 $time_scale")
}

# The .env's record of the device (the bundle carries it): what the runtime
# reported when the suite started, the host plugin marked as no accelerator.
offload_env_lines() {
    case $offload_state in
        device) echo "offload device: $offload_device_text" ;;
        *) echo "offload device: none ($offload_why)" ;;
    esac
}
