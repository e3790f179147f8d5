#!/usr/bin/env bash
# A bundle's machine description (results/machine.sh: clomp-write machine, write/machine.c) against
# the oracle it replaces: results/machine.sh as it was in shell, kept below word for word, run on
# the same machine into a second directory. The files must be the same byte for byte (the free
# memory masked in meminfo and numactl -H: it moves between the two), on this node, with no EXE, with an EXE
# that fails, with OMP_NUM_THREADS set (nproc obeys it: the description must not), on fewer CPUs
# (taskset), and with a PATH whose lscpu fails, whose numactl is killed and which has lstopo
# without lstopo-no-graphics, or none of them. A DIR that exists is refused by both (exit 1).
# Then .env's sections (suite/env_file.sh take_env_sections, whose build, cores, CPU, memory, NUMA
# and state sections are clomp-write machine --sections and --state) against the function as it
# was, kept below too: the same sections, in the same order, in the same cases.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: results/machine.sh before it moved into C --------------------------------------
cat >"$root/oracle.sh" <<'ORACLE'
#!/usr/bin/env bash
# machine.sh DIR [EXE]: the machine description that goes into a submission
# bundle, one file per source, written into DIR (created; must not exist):
# CPUs and cores, NUMA layout, topology, kernel, frequency governors, and the
# binary's build facts. Taken when the suite starts, so that a bundle made
# later still describes the node the numbers came from.
set -u
dir=${1:?usage: machine.sh DIR [EXE]}
exe=${2-}
mkdir "$dir" || exit 1

# capture FILE CMD...: CMD's output in DIR/FILE, or why there is none.
capture() {
    local file=$1
    shift
    if command -v "$1" >/dev/null 2>&1; then
        "$@" >"$dir/$file" 2>&1 || echo "($* exited $?)" >>"$dir/$file"
    else
        echo "not available: $1 is not installed" >"$dir/$file"
    fi
}

capture lscpu.txt lscpu
# One line per CPU: the validator counts cores (unique core, socket pairs) from it.
capture lscpu-cores.csv lscpu -p=CPU,CORE,SOCKET,NODE
capture numactl-H.txt numactl -H
lstopo=lstopo
! command -v lstopo-no-graphics >/dev/null 2>&1 || lstopo='lstopo-no-graphics'
capture lstopo.txt "$lstopo" --of console
{
    echo "uname -a: $(uname -a)"
    echo "/proc/version: $(cat /proc/version 2>/dev/null || echo 'not available')"
    echo "/proc/cmdline: $(cat /proc/cmdline 2>/dev/null || echo 'not available')"
    echo "cpus allowed: $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)"
    echo "nproc: $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null)"
} >"$dir/kernel.txt"
{
    found=0
    for g in /sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor; do
        [ -r "$g" ] || continue
        found=1
        cpu=${g#/sys/devices/system/cpu/}
        echo "${cpu%%/*}: $(cat "$g")"
    done
    [ "$found" = 1 ] || echo "not available (no cpufreq in /sys)"
    echo "numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')"
    echo "transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')"
} >"$dir/governor.txt"
head -n 3 /proc/meminfo >"$dir/meminfo.txt" 2>/dev/null || echo "not available" >"$dir/meminfo.txt"
if [ -n "$exe" ]; then
    "$exe" --version >"$dir/build.txt" 2>&1 || echo "($exe --version exited $?)" >>"$dir/build.txt"
fi
exit 0
ORACLE

# same_description NAME PREFIX... -- ARGS...: the oracle and results/machine.sh, each run as
# PREFIX... bash SCRIPT DIR ARGS..., write the same files (the memory figures masked) and exit alike.
n=0
same_description() {
    local name=$1 old new rc_old rc_new f
    local -a prefix=()
    shift
    while [ "$1" != -- ]; do prefix+=("$1"); shift; done
    shift
    n=$((n + 1)) old=$root/old$n new=$root/new$n
    "${prefix[@]}" bash "$root/oracle.sh" "$old" "$@" 2>"$root/err_old$n"
    rc_old=$?
    "${prefix[@]}" env CLOMP_WRITE="$writer" bash "$top/results/machine.sh" "$new" "$@" 2>"$root/err_new$n"
    rc_new=$?
    for f in "$old"/meminfo.txt "$new"/meminfo.txt "$old"/numactl-H.txt "$new"/numactl-H.txt; do
        [ ! -f "$f" ] || sed -i 's/[0-9][0-9]* kB$/N kB/; s/free: [0-9]* MB$/free: N MB/' "$f"
    done
    is "$rc_new" "$rc_old" "$name: the same exit status ($rc_old)"
    ok "$(diff -r "$old" "$new" >"$root/diff$n" 2>&1; echo $?)" "$name: the same files$([ ! -s "$root/diff$n" ] || { echo; sed 's/^/# /' "$root/diff$n"; })"
}

exe=${CLOMP:-$top/clomp}
[ -x "$exe" ] || exe=$top/build/clomp-write   # any program that answers --version
same_description "this node, with EXE" -- "$exe"
same_description "this node, no EXE" --
same_description "OMP_NUM_THREADS and OMP_THREAD_LIMIT set" env OMP_NUM_THREADS=1 OMP_THREAD_LIMIT=1 -- "$exe"
printf '#!/bin/sh\necho "version? no" >&2\nexit 5\n' >"$root/failing-exe"
chmod +x "$root/failing-exe"
same_description "an EXE that fails" -- "$root/failing-exe"
if command -v taskset >/dev/null 2>&1; then
    same_description "on CPU 0 only" taskset -c 0 -- "$exe"
else
    skip "taskset is not installed" 2
fi

# A PATH of the tools both need, and stand-ins: lscpu fails, numactl is killed, lstopo only.
bin=$root/bin
mkdir "$bin"
for tool in bash env nproc uname sed cat head mkdir dirname sh grep sort tr diff cut; do
    ln -s "$(command -v "$tool")" "$bin/$tool" || echo "Bail out! $tool is not installed"
done
same_description "a PATH with no lscpu, numactl nor lstopo" env PATH="$bin" -- "$exe"
printf '#!/bin/sh\necho "lscpu: cannot read /sys"\necho "to stderr" >&2\nexit 3\n' >"$bin/lscpu"
printf '#!/bin/sh\necho "node 0"\nkill -TERM $$\n' >"$bin/numactl"
printf '#!/bin/sh\necho "lstopo $*"\n' >"$bin/lstopo"
chmod +x "$bin/lscpu" "$bin/numactl" "$bin/lstopo"
same_description "lscpu failing, numactl killed, lstopo without -no-graphics" env PATH="$bin" -- "$exe"
is "$(cat "$root/new$n/numactl-H.txt")" $'node 0\n(numactl -H exited 143)' "(the stand-ins ran: numactl's signal is its status)"

rc_old=$(bash "$root/oracle.sh" "$root/old$n" >/dev/null 2>&1; echo $?)
rc_new=$(CLOMP_WRITE=$writer bash "$top/results/machine.sh" "$root/new$n" >/dev/null 2>&1; echo $?)
is "$rc_new/$rc_old" "1/1" "a DIR that exists: both exit 1"

# ---- .env's sections: take_env_sections before and after -----------------------------------------
slurm_env_lines() { echo "slurm: none"; }
offload_env_lines() { echo "offload: none"; }
take_env_sections() {
    local var vars
    env_slurm_lines=$(slurm_env_lines) env_offload_line=$(offload_env_lines)   # suite/slurm.sh, suite/offload.sh
    env_sections=("build facts ($exe --version)" "$("$exe" --version 2>&1 || echo "not available")")
    env_sections+=("cores and domains ($exe --topology)" "$("$exe" --topology 2>&1 </dev/null || echo "not available")")
    env_sections+=("CPU (lscpu)" "$(lscpu 2>/dev/null || echo "not available")")
    env_sections+=("memory (/proc/meminfo)" "$(head -n 3 /proc/meminfo 2>/dev/null || echo "not available")")
    if command -v numactl >/dev/null 2>&1; then
        env_sections+=("NUMA layout" "$(numactl --hardware 2>&1)")
    elif command -v lstopo-no-graphics >/dev/null 2>&1; then
        env_sections+=("NUMA layout" "$(lstopo-no-graphics 2>&1)")
    else
        env_sections+=("NUMA layout" "not available (install numactl or hwloc)")
    fi
    vars=$(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort)
    env_sections+=("OpenMP and launcher environment" "$([ -n "$vars" ] || echo "none set"
        while IFS= read -r var; do
            [ -z "$var" ] || printf '%s=%q\n' "$var" "${!var}"
        done <<<"$vars")")
    env_sections+=("ulimit -a" "$(ulimit -a)")
    env_sections+=("load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')" '')
    env_sections+=("cpu frequency governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not available')" '')
    env_sections+=("numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')" '')
    env_sections+=("transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')" '')
    env_sections+=("preflight warnings" "$(if [ ${#preflight[@]} -eq 0 ]; then echo "none"; else printf 'WARNING: %s\n' "${preflight[@]}"; fi)")
}
sections_of() {  # sections_of: env_sections, one a line (NULs and newlines shown), the moving figures masked
    take_env_sections
    printf '%s\0' "${env_sections[@]}" | sed -z 's/[0-9]\+ kB/N kB/g; s/free: [0-9]\+ MB/free: N MB/g; s/^load average: .*/load average: L/;
        s/load:\? [0-9.]\+/load L/g' | sed -z 's/\n/\\n/g' | tr '\0' '\n'
}
# shellcheck disable=SC2034  # read by take_env_sections
preflight=("the node is busy" "two")
same_sections() {  # same_sections NAME EXE: both functions, with this PATH and environment
    exe=$2
    eval "$oracle_take"
    sections_of >"$root/sections_old"
    # shellcheck source=../suite/env_file.sh
    . "$top/suite/env_file.sh"
    preflight=("the node is busy" "two")
    sections_of >"$root/sections_new"
    ok "$(diff "$root/sections_old" "$root/sections_new" >"$root/sections_diff"; echo $?)" \
        "$1: .env's sections are the same$([ ! -s "$root/sections_diff" ] || { echo; cut -c1-200 "$root/sections_diff" | sed 's/^/# /'; })"
}
oracle_take=$(declare -f take_env_sections)
same_sections "this node" "$exe"
OMP_NUM_THREADS=3 GOMP_SPINCOUNT='1 2' same_sections "OpenMP variables set" "$exe"
same_sections "an EXE that fails" "$root/failing-exe"
PATH=$bin same_sections "a PATH whose lscpu fails and whose numactl is killed" "$exe"
rm "$bin/numactl"
printf '#!/bin/sh\necho "topology"\n' >"$bin/lstopo-no-graphics"
chmod +x "$bin/lstopo-no-graphics"
PATH=$bin same_sections "lstopo-no-graphics without numactl" "$exe"
rm "$bin/lscpu" "$bin/lstopo-no-graphics"
PATH=$bin same_sections "no lscpu, numactl nor lstopo" "$exe"
done_testing
