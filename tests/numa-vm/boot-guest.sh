#!/usr/bin/env bash
# Boots a throwaway Linux guest with an emulated NUMA topology under QEMU's
# software emulation (TCG) and runs a shell script in it: the only way to see
# clomp's placement on several nodes from a single-node machine.
#
# usage: boot-guest.sh --nodes N --script FILE --out FILE [--cpus-per-node C]
#                      [--sockets S] [--threads-per-core T] [--mem-per-node MIB]
#                      [--program PATH]... [--tools] [--tree DIR] [--log FILE]
#
# The guest is a Debian kernel (downloaded with `apt-get download` and
# unpacked with dpkg-deb into the cache, never installed on this machine)
# with a busybox initramfs holding each --program, numactl when present, and
# exactly the shared libraries ldd lists for them. NUMA node i gets CPUs
# i*C..i*C+C-1 and MIB MiB of memory. The CPUs are S sockets (default: one
# per node) of cores with T hardware threads each (default 1; with T > 1 the
# CPU model is qemu64 with an Intel vendor, which shows the guest its SMT
# siblings): QEMU numbers them socket by socket, core by core, thread by
# thread (CPUs 0 and 1 are siblings). --tools adds the host's bash, coreutils,
# awk, sed, grep, find, lscpu, flock and setsid (before busybox on PATH:
# /usr/bin); --tree DIR adds the suite's driver from the source tree DIR
# (run_clomp.sh, suite/, env/, results/machine.sh and csv_columns.awk) in
# /clomp. The script runs under busybox sh with PATH=/usr/bin:/bin, its
# standard output and error going to --out; it may call `run_case NAME
# COMMAND...`, which frames the command's output between "@@@ begin NAME"
# and "@@@ end NAME rc=STATUS" lines.
#
# Exit status: the script's own status in the guest (carried out through
# QEMU's isa-debug-exit device and cross-checked against the last line it
# wrote); 77 when the guest cannot run here (the reason on stderr: no qemu,
# no kernel package); 98 when the guest gave no clean exit (crash, timeout:
# the kernel console is in --log).
#
# Environment: NUMA_VM_CACHE (where the kernel is kept; default
# build/numa-vm), NUMA_VM_KERNEL (a vmlinuz to use instead), NUMA_VM_TIMEOUT
# (seconds per boot, default 600).
set -u

nodes=2 cpus_per_node=1 mem_per_node=512 script='' out='' log='' sockets='' threads_per_core=1 tools=0 tree=''
programs=()
here=$(cd "$(dirname "$0")" && pwd)
cache=${NUMA_VM_CACHE:-$here/../../build/numa-vm}
timeout_s=${NUMA_VM_TIMEOUT:-600}

cannot_run() {
    echo "boot-guest: $*" >&2
    exit 77
}

usage() {
    echo "boot-guest: $*" >&2
    echo "usage: boot-guest.sh --nodes N --script FILE --out FILE [--cpus-per-node C] [--mem-per-node MIB] [--program PATH]... [--log FILE]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --nodes) nodes=${2:-}; shift 2 || usage "--nodes needs a value" ;;
    --cpus-per-node) cpus_per_node=${2:-}; shift 2 || usage "--cpus-per-node needs a value" ;;
    --sockets) sockets=${2:-}; shift 2 || usage "--sockets needs a value" ;;
    --threads-per-core) threads_per_core=${2:-}; shift 2 || usage "--threads-per-core needs a value" ;;
    --tools) tools=1; shift ;;
    --tree) tree=${2:-}; shift 2 || usage "--tree needs a directory" ;;
    --mem-per-node) mem_per_node=${2:-}; shift 2 || usage "--mem-per-node needs a value" ;;
    --script) script=${2:-}; shift 2 || usage "--script needs a file" ;;
    --out) out=${2:-}; shift 2 || usage "--out needs a file" ;;
    --log) log=${2:-}; shift 2 || usage "--log needs a file" ;;
    --program) programs+=("${2:-}"); shift 2 || usage "--program needs a path" ;;
    *) usage "unknown argument '$1'" ;;
    esac
done
sockets=${sockets:-$nodes}
for n in "$nodes" "$cpus_per_node" "$mem_per_node" "$sockets" "$threads_per_core"; do
    [[ $n =~ ^[1-9][0-9]{0,3}$ ]] || usage "'$n' is not a count from 1 to 9999"
done
[ $((nodes * cpus_per_node % (sockets * threads_per_core))) = 0 ] ||
    usage "$((nodes * cpus_per_node)) CPUs are not $sockets sockets of cores with $threads_per_core threads each"
[ -z "$tree" ] || [ -f "$tree/run_clomp.sh" ] || usage "--tree '$tree' is not a clomp source tree"
if [ -z "$script" ] || [ ! -f "$script" ]; then
    usage "--script FILE is required and must exist"
fi
[ -n "$out" ] || usage "--out FILE is required"
for p in "${programs[@]}"; do
    [ -x "$p" ] || usage "--program '$p' is not an executable file"
done

[ "$(uname -m)" = x86_64 ] || cannot_run "the guest is an amd64 kernel and this machine is $(uname -m)"
command -v qemu-system-x86_64 >/dev/null 2>&1 || cannot_run "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
busybox=$(command -v busybox 2>/dev/null) || cannot_run "busybox not installed (apt-get install busybox-static)"

# The kernel: one amd64 image, unpacked (never installed) into the cache.
find_kernel() {
    local found pkg work
    if [ -n "${NUMA_VM_KERNEL:-}" ]; then
        [ -f "$NUMA_VM_KERNEL" ] || cannot_run "NUMA_VM_KERNEL=$NUMA_VM_KERNEL does not exist"
        kernel=$NUMA_VM_KERNEL
        return
    fi
    found=$(find "$cache/kernel/boot" -maxdepth 1 -name 'vmlinuz-*' 2>/dev/null | sort | tail -n 1)
    if [ -n "$found" ]; then
        kernel=$found
        return
    fi
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
        cannot_run "no guest kernel cached in $cache and no apt-get/dpkg-deb to fetch one"
    fi
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
    [ -n "$pkg" ] || cannot_run "apt-cache knows no linux-image-*-amd64 package (run apt-get update?)"
    mkdir -p "$cache" || cannot_run "cannot create the cache $cache"
    work=$(mktemp -d "$cache/download.XXXXXX") || cannot_run "cannot write to the cache $cache"
    echo "boot-guest: downloading $pkg (once; cached in $cache)" >&2
    if ! (cd "$work" && apt-get download -q "$pkg" >/dev/null 2>&1); then
        rm -rf "$work"
        cannot_run "apt-get download $pkg failed (offline?)"
    fi
    mkdir -p "$work/unpacked"
    if ! dpkg-deb --fsys-tarfile "$work"/"$pkg"_*.deb | tar -x -C "$work/unpacked" --wildcards './boot/vmlinuz-*'; then
        rm -rf "$work"
        cannot_run "could not unpack the kernel from $pkg"
    fi
    mkdir -p "$cache/kernel"
    # Another run may have won the race; either copy is the same kernel.
    mv -n "$work/unpacked/boot" "$cache/kernel/" 2>/dev/null
    rm -rf "$work"
    kernel=$(find "$cache/kernel/boot" -maxdepth 1 -name 'vmlinuz-*' | sort | tail -n 1)
    [ -n "$kernel" ] || cannot_run "no vmlinuz in $pkg"
}
kernel=''
find_kernel

tmp=$(mktemp -d) || cannot_run "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/bin" "$root/usr/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp "$busybox" "$root/bin/busybox"
binaries=("$root/bin/busybox")
if [ "$tools" = 1 ]; then
    # The host's own: GNU behaviour where the driver needs it (date +%N, awk, sed -E, flock).
    for tool in bash $(dpkg -L coreutils 2>/dev/null | grep -E '^/(usr/)?bin/' | xargs -n1 basename) \
        awk mawk gawk sed grep find xargs lscpu flock setsid; do
        path=$(command -v "$tool" 2>/dev/null) || continue
        [ -f "$path" ] || continue
        cp -L "$path" "$root/usr/bin/$tool"
        binaries+=("$root/usr/bin/$tool")
    done
    if [ ! -x "$root/usr/bin/bash" ] || [ ! -x "$root/usr/bin/lscpu" ]; then
        cannot_run "--tools: bash or lscpu not found on this machine"
    fi
fi
if [ -n "$tree" ]; then
    mkdir -p "$root/clomp/results"
    cp -r "$tree/run_clomp.sh" "$tree/suite" "$tree/env" "$root/clomp/"
    cp "$tree/results/machine.sh" "$tree/results/csv_columns.awk" "$root/clomp/results/"
fi
numactl=$(command -v numactl 2>/dev/null) && programs+=("$numactl")
for p in "${programs[@]}"; do
    cp "$p" "$root/bin/"
    binaries+=("$root/bin/$(basename "$p")")
done
# Exactly the libraries the binaries load, at the paths the loader expects.
for b in "${binaries[@]}"; do
    ldd "$b" 2>/dev/null
done | grep -o '/[^ ]*' | sort -u | while read -r lib; do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
done
cp "$here/guest-init" "$root/init"
cp "$script" "$root/guest-script"
chmod +x "$root/init"
(cd "$root" && find . | "$busybox" cpio -o -H newc 2>/dev/null | gzip -1) >"$tmp/initrd.gz" ||
    cannot_run "could not pack the initramfs"

cpu_model=()
# shellcheck disable=SC2054  # one -cpu argument: QEMU's commas
[ "$threads_per_core" = 1 ] || cpu_model=(-cpu qemu64,vendor=GenuineIntel)
numa=()
for ((i = 0; i < nodes; i++)); do
    first=$((i * cpus_per_node))
    numa+=(-object "memory-backend-ram,size=${mem_per_node}M,id=mem$i"
        -numa "node,nodeid=$i,cpus=$first-$((first + cpus_per_node - 1)),memdev=mem$i")
done
cpus=$((nodes * cpus_per_node))
raw=$tmp/serial1
console=${log:-$tmp/console.log}
# ttyS0: the kernel console (--log); ttyS1: the script's output. Hardware
# virtualisation is not used: a stock kernel hangs under the KVM these
# machines offer, and TCG boots in seconds.
timeout "$timeout_s" qemu-system-x86_64 -accel tcg -nodefaults -display none -no-reboot \
    -smp "$cpus,sockets=$sockets,cores=$((cpus / sockets / threads_per_core)),threads=$threads_per_core" \
    ${cpu_model[@]+"${cpu_model[@]}"} -m "$((nodes * mem_per_node))M" "${numa[@]}" \
    -kernel "$kernel" -initrd "$tmp/initrd.gz" -append 'console=ttyS0 quiet panic=-1' \
    -device isa-debug-exit,iobase=0xf4,iosize=4 \
    -serial "file:$console" -serial "file:$raw" </dev/null
qemu_status=$?
# The serial line turns \n into \r\n.
tr -d '\r' <"$raw" >"$out"

guest_status=$(sed -n 's/^@@@ guest exit \([0-9]*\)$/\1/p' "$out" | tail -n 1)
# isa-debug-exit: the guest's byte v makes QEMU exit with (v << 1) | 1.
if [ -z "$guest_status" ] || [ "$qemu_status" -ne $(((guest_status * 2 + 1) & 255)) ]; then
    echo "boot-guest: no clean exit from the guest (qemu status $qemu_status${guest_status:+, guest said $guest_status}); kernel console: ${log:-not kept}" >&2
    exit 98
fi
exit "$guest_status"
