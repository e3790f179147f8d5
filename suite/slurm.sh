# shellcheck shell=bash
# The suite inside a Slurm allocation (docs/slurm.md): the job facts for the
# .env file (and so the HTML report and the bundle), a warning when the node is
# shared, and the checks of an srun launcher. The job's cores on this node are
# clomp's count (count_cores, suite/common.sh: clomp --topology reads Slurm's
# allocation as Slurm describes it). Sourced by run_clomp.sh after suite/common.sh.
# Reads run_clomp.sh's settings, declared here and assigned there before any
# function below runs:
declare -g mpi_given mpi_launcher dry_run writer

in_slurm_job() { [ -n "${SLURM_JOB_ID:-}" ]; }

# The .env lines (also shown by the HTML report and kept in the bundle): clomp-write
# slurm (write/slurm_facts.c, from Slurm's environment and squeue; its warning when
# the node is shared is the preflight's, write/preflight.c).
slurm_env_lines() { "$writer" slurm lines "$(count_cores)"; }

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
