# shellcheck shell=bash
# The suite inside a Slurm allocation (docs/slurm.md): the job facts for the
# .env file (and so the HTML report and the bundle), a warning when the node is
# shared, and the checks of an srun launcher. The job's cores on this node are
# clomp's count (count_cores, suite/common.sh: clomp --topology reads Slurm's
# allocation as Slurm describes it). Sourced by run_clomp.sh after suite/common.sh;
# adds to preflight (suite/env_file.sh). Reads run_clomp.sh's settings, declared
# here and assigned there before any function below runs:
declare -g mpi_given mpi_launcher dry_run
declare -ga preflight

in_slurm_job() { [ -n "${SLURM_JOB_ID:-}" ]; }

# The job's other facts, from squeue when it answers: "exclusive" is Slurm's
# OverSubscribe=NO (sbatch --exclusive, or a partition that never shares).
slurm_exclusive() {  # yes, no, or unknown
    local h
    h=$(squeue -h -j "$SLURM_JOB_ID" -o %h 2>/dev/null | head -n 1)
    case $h in NO) echo yes ;; '') echo unknown ;; *) echo "no (OverSubscribe=$h)" ;; esac
}
# Other jobs running on this node now, as "ID ID ...", or nothing.
slurm_other_jobs() {
    local node
    node=${SLURMD_NODENAME:-$(hostname -s)}
    squeue -h -w "$node" -t R -o %i 2>/dev/null | grep -vx "$SLURM_JOB_ID" | tr '\n' ' ' | sed 's/ $//'
}

# The .env lines (also shown by the HTML report and kept in the bundle).
slurm_env_lines() {
    if ! in_slurm_job; then
        echo "slurm job: none"
        return 0
    fi
    echo "slurm job: $SLURM_JOB_ID${SLURM_JOB_NAME:+ ($SLURM_JOB_NAME)}${SLURM_CLUSTER_NAME:+ on cluster $SLURM_CLUSTER_NAME}"
    echo "slurm nodes: ${SLURM_JOB_NODELIST:-${SLURM_NODELIST:-unknown}} (${SLURM_JOB_NUM_NODES:-?} node(s))"
    echo "slurm cpus: ${SLURM_CPUS_ON_NODE:-?} on this node${SLURM_CPUS_PER_TASK:+, $SLURM_CPUS_PER_TASK per task}${SLURM_NTASKS:+, $SLURM_NTASKS task(s)}; suite cores: $(count_cores)"
    echo "slurm exclusive: $(slurm_exclusive)"
    echo "slurm other jobs on node: $(slurm_other_jobs | grep . || echo none)"
}

# Preflight warnings (suite/env_file.sh's check_preflight adds them).
slurm_preflight() {
    local others exclusive
    in_slurm_job || return 0
    exclusive=$(slurm_exclusive)
    others=$(slurm_other_jobs)
    if [ -n "$others" ]; then
        preflight+=("Slurm job $SLURM_JOB_ID shares its node with job(s) $others: the node is not dedicated (submit with sbatch --exclusive)")
    elif [[ $exclusive == no* ]]; then
        preflight+=("Slurm job $SLURM_JOB_ID is not exclusive ($exclusive): other jobs may start on its node (submit with sbatch --exclusive)")
    fi
}

# --mpi "srun ...": srun starts job steps only inside an allocation (outside one
# every run would queue for its own job), and needs Slurm installed. Checked
# before anything runs, exit 2; a dry run only plans and is not checked.
check_srun_launcher() {
    local -a w
    [ "$mpi_given" = 1 ] && [ "$dry_run" = 0 ] || return 0
    read -r -a w <<<"$mpi_launcher"
    [ "${w[0]##*/}" = srun ] || return 0
    command -v "${w[0]}" >/dev/null 2>&1 ||
        die_usage "--mpi: '${w[0]}' not found: Slurm is not installed here (use mpirun, or run where Slurm is)"
    in_slurm_job ||
        die_usage "--mpi: \"$mpi_launcher\" outside a Slurm allocation: submit the suite with sbatch (slurm/clomp-suite.sbatch) or run it under salloc"
}

# The CPU binding of an srun launcher, for the .env: its --cpu-bind, else
# SLURM_CPU_BIND from the job, else Slurm's default (the task plugin's).
srun_cpu_binding() {
    local -a w
    local k
    read -r -a w <<<"$1"
    [ "${w[0]##*/}" = srun ] || return 0
    for ((k = 1; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            --cpu-bind=* | --cpu_bind=*) echo "${w[k]#*=}"; return ;;
            --cpu-bind | --cpu_bind) echo "${w[k + 1]-}"; return ;;
        esac
    done
    echo "${SLURM_CPU_BIND:-the default of the task plugin}"
}
