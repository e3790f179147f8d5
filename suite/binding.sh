# shellcheck shell=bash
# The suite's thread binding (issue 43, item 5; docs/suite.md, "Thread binding": the rules and why):
# OMP_PROC_BIND=close OMP_PLACES=cores as `make run` binds, each only where the environment (or --env's
# preset) left it unset, neither where GOMP_CPU_AFFINITY or KMP_AFFINITY places the threads; the nesting
# construct runs spread,close where the suite chose OMP_PROC_BIND (with close alone their inner teams
# share CPUs). Sourced by run_clomp.sh; sets suite_binding (the header's and .env's line) and suite_chose_bind.
suite_binding='' suite_chose_bind=0

choose_binding() {
    local set_by_suite=()
    if [ -n "${GOMP_CPU_AFFINITY:-}${KMP_AFFINITY:-}" ]; then
        suite_binding="from the environment: ${GOMP_CPU_AFFINITY:+GOMP_CPU_AFFINITY=$GOMP_CPU_AFFINITY }${KMP_AFFINITY:+KMP_AFFINITY=$KMP_AFFINITY}"
        suite_binding=${suite_binding% }
        return 0
    fi
    [ -n "${OMP_PROC_BIND:-}" ] || { export OMP_PROC_BIND=close; suite_chose_bind=1; set_by_suite+=(OMP_PROC_BIND); }
    [ -n "${OMP_PLACES:-}" ] || { export OMP_PLACES=cores; set_by_suite+=(OMP_PLACES); }
    suite_binding="OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
    if [ ${#set_by_suite[@]} -eq 0 ]; then
        suite_binding+=" (from the environment)"
    else
        suite_binding+=" (${set_by_suite[*]} set by the suite, as make run does; export them to choose)"
    fi
    [ "${OMP_PROC_BIND,,}" != false ] || suite_binding="threads not bound: $suite_binding"
    [ "$suite_chose_bind" = 0 ] || suite_binding+="; the construct runs, which nest: OMP_PROC_BIND=spread,close"
}

# The environment a run of SET gets on top of the suite's: the construct runs'
# spread,close where the suite chose OMP_PROC_BIND; nothing otherwise.
run_binding() {  # run_binding SET
    [ "$suite_chose_bind" = 1 ] && is_construct_set "$1" || return 0   # suite/constructs.sh
    echo OMP_PROC_BIND=spread,close
}
