#!/usr/bin/env bash
# clomp-write manifest (write/manifest_writer.c), the suite manifest's JSON, against two oracles.
# The driver's shell as it made the manifest before (tests/lib/manifest_oracle.sh, kept verbatim) writes
# the same bytes from the same facts at every write of a suite's life (fresh, a run running, done, failed
# with its reason, a status line, stage-2 runs added, a stop), under LC_ALL=C and C.UTF-8, with hostile
# strings wherever a string goes (quotes, backslashes, every control byte, UTF-8, invalid UTF-8 as the
# shell left it); so does the plan with its launch words (the estimate's input). Python's json.loads reads
# each manifest, and each hostile string back as it was given. Numbers: a plain decimal as it is, anything
# else null, as the shell judged them; a leading zero, which the shell left in (007: not JSON), dropped.
# --replicates auto's settings.replicates_asked is auto,PCT,CAP,MINUTES (the shell appended PCT again).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
writer=${CLOMP_WRITE:-$top/build/clomp-write}
[ -x "$writer" ] || { echo "Bail out! no $writer (make clomp-write)"; exit 255; }
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap '[ -n "${KEEP-}" ] || rm -rf "$root"' EXIT; [ -z "${KEEP-}" ] || echo "# kept $root"

controls=$(printf '%b' "$(printf '\\x%02x' {1..31} 127)")   # every control byte, newline and tab too
hostile=(plain 'say "hi"' $'back\\slash\\\\' "$controls" 'a	tab' $'new\nline\n' $'cr\rlf' 'é ü 日本 🙂' $'\xff\xfe bad'
    $'\xc3 lone lead' $'\xed\xa0\x80 surrogate' $'mix "\x01\\\xff\x7f"' '' ' ')
printf '%s\0' "${hostile[@]}" >"$root/hostile"

# suite_life LIB DIR: the manifest after each write of a suite's life, as LIB (the oracle or suite/manifest.sh)
# writes it, in DIR/1.json ...; DIR/launch.txt: manifest_plan --launch.
suite_life() {
    local lib=$1 dir=$2
    mkdir -p "$dir"
    # shellcheck disable=SC2317,SC2030  # stand-ins the sourced library calls; the suite's settings, its subshell's own
    (
        here=$top
        # shellcheck disable=SC1090
        . "$lib"
        table_rows() { [ ! -e "$1" ] || awk -F, -f "$here/results/csv_columns.awk" -f <(printf '%s\n' "$2") "$1"; }   # suite/common.sh's
        put_file() { "$writer" replace "$1"; }
        add_to_file() { "$writer" append "$1"; }
        plan_signature() { printf '%s;' "exe=$exe" "${plan[@]}"; }
        construct_options() { [[ $1 != constructs* ]] || printf '%s ' --constructs=all "--tag=\"$2\"\\"; }
        is_construct_set() { [[ $1 == constructs* ]]; }
        is_offload_set() { [[ $1 == offload* ]]; }
        mpi_launcher_for() { echo "$mpi_launcher -c $1"; }
        grain_setting() { echo coarse; }
        date() { echo 'Sun Nov 29 12:00:00 UTC 2026'; }
        export OMP_HOSTILE="${hostile[11]}" SLURM_HOSTILE="${hostile[3]}" KMP_UTF8="${hostile[7]}"
        base=$dir/CLOMP_h_1 exe=$'/opt/clomp "x"\x01\\' max_threads=4 time_scale=1 env_preset='' launcher=''
        suite_binding=${hostile[3]} mpi_launcher='srun -n 2' mpi_given=1 launcher_words=(numactl -l) replicates=3
        auto_pct=10 auto_cap=20 auto_minutes=5 auto_n=2 auto_inserted=1 auto_replayed=0 auto_at=(3 7) auto_stop=''
        plan=('key||2 -1 64 100 32 1 1' 'constructs_outer2|interleave|2 -1 64 100 32 1 1' 'offload_zpp|local|1 2 3'
            '640zones||1 -1 64 10 32 1 2' 'packed4||4 1 64 100 32 1 1' 'cliff||9 -1 64 100 32 1 1' $'q"\xff\xc3é\\||x -1')
        total_runs=${#plan[@]} OVERSUBSCRIBED_SET=cliff preflight=("${hostile[@]}") calibration_note=${hostile[*]}
        env_sections=($'head\x01"' "${hostile[*]}" empty '' lines $'a\nb\n') env_slurm_lines=$'slurm job: 42 "x"\nnodes: 2'
        env_offload_line='offload device: gpu "0"' run='' reason=''
        : >"$base.done"
        write_manifest && cp "$base.suite.json" "$dir/1.json"
        write_manifest 1 && cp "$base.suite.json" "$dir/2.json"
        echo 1 >>"$base.done"
        printf '%s\n' run,set,numa,status,exit_code,seconds 1,key,first-touch,OK,0,1.25 >"$base.runs.csv"
        : >"${base}_key.run1.json"
        run=1
        write_manifest && cp "$base.suite.json" "$dir/3.json"
        echo 2 >>"$base.done"
        echo '2,"constructs_outer2",interleave,FAILED,3,0.5' >>"$base.runs.csv"
        run=2 reason=${hostile[*]}
        write_manifest && cp "$base.suite.json" "$dir/4.json"
        write_manifest '' running "${hostile[5]} resumed ${hostile[8]}" && cp "$base.suite.json" "$dir/5.json"
        plan+=('key||2 -1 64 100 32 1 1') total_runs=$((total_runs + 1)) auto_inserted=2 auto_stop=${hostile[*]} run=''
        write_manifest 8 && cp "$base.suite.json" "$dir/6.json"
        write_manifest '' stopped "stopped: ${hostile[3]}" && cp "$base.suite.json" "$dir/7.json"
        manifest_plan --launch >"$dir/launch.txt"
    )
}

for locale in C C.UTF-8; do
    export LC_ALL=$locale
    suite_life "$top/tests/lib/manifest_oracle.sh" "$root/$locale/shell"
    suite_life "$top/suite/manifest.sh" "$root/$locale/c"
    unset LC_ALL
    same=0 differ=''
    for k in 1 2 3 4 5 6 7; do
        # The one value the old shell got wrong: --replicates auto,PCT,CAP,MINUTES as auto,PCT,CAP,MINUTESPCT.
        sed -i 's/"replicates_asked": "auto,10,20,510"/"replicates_asked": "auto,10,20,5"/' "$root/$locale/shell/$k.json"
        if cmp -s "$root/$locale/shell/$k.json" "$root/$locale/c/$k.json"; then same=$((same + 1)); else differ+=" $k"; fi
    done
    is "$same${differ:+ (differ:$differ)}" 7 "LC_ALL=$locale: each of a suite's 7 manifests, hostile strings everywhere, is the old shell's byte for byte"
    ok "$(cmp -s "$root/$locale/shell/launch.txt" "$root/$locale/c/launch.txt"; echo $?)" \
        "LC_ALL=$locale: the plan with its launch words (the estimate's input) is the old shell's byte for byte"
done

if command -v python3 >/dev/null 2>&1; then
    # Each manifest read by json.loads (bytes that are not UTF-8 kept as surrogates), its strings as given.
    is "$(python3 - "$root/C/c" "$root/hostile" <<'PY'
import json, sys
d, hostile = sys.argv[1], open(sys.argv[2], "rb").read().decode("utf-8", "surrogateescape").split("\0")[:-1]
said = []
for k in range(1, 8):
    m = json.loads(open("%s/%d.json" % (d, k), "rb").read().decode("utf-8", "surrogateescape"))
    said.append(m["settings"]["preflight_warnings"] == hostile and m["settings"]["model"] == " ".join(hostile)
                and m["machine"][0]["lines"] == " ".join(hostile).split("\n") and m["machine"][1]["lines"] == []
                and m["machine"][2]["lines"] == ["a", "b", ""] and m["settings"]["openmp_environment"]["OMP_HOSTILE"] == hostile[11]
                and m["settings"]["slurm_job"] == '42 "x"' and m["plan"][6]["set"] == 'q"\udcff\udcc3\u00e9\\')
said.append(json.loads(open(d + "/4.json", "rb").read().decode("utf-8", "surrogateescape"))["runs"][1]["reason"] == " ".join(hostile))
last = json.loads(open(d + "/7.json", "rb").read().decode("utf-8", "surrogateescape"))
said.append(last["replicates"]["stop"] == " ".join(hostile) and last["history"] == [hostile[5] + " resumed " + hostile[8], "stopped: " + hostile[3]]
            and last["replicates"]["stage2_runs"] == [3, 7] and [r["status"] for r in last["runs"]] == ["done", "failed"] + ["planned"] * 6)
print(" ".join("ok" if s else "bad" for s in said))
PY
)" "ok ok ok ok ok ok ok ok ok" "json.loads reads each manifest, and every hostile string (each control byte, UTF-8, invalid UTF-8) back as given"
else
    skip "json.loads reads each manifest, and every hostile string back as given" "no python3"
fi

# Numbers: the old shell's json_num on a grid, through a plan entry's threads (its first CLOMP word).
# shellcheck source=lib/manifest_oracle.sh
. "$top/tests/lib/manifest_oracle.sh"
grid=(0 7 -1 1.5 -0.25 12345678901234567890 '' 1e3 1. .5 - '1,5' ' 1' 0x10 $'1\n' 1.5.5)
want='' got='' j=''
for v in "${grid[@]}"; do
    json_num_in j "$v"
    want+="$j;"
    got+=$(printf 'plan\tx\0arg\t%s\0' "$v" | "$writer" manifest --plan | sed 's/.*"threads": \([^,]*\),.*/\1/');
    got+=';'
done
is "$got" "$want" "a number is the old shell's json_num on a grid: plain decimals as they are, anything else null"
is "$(printf 'plan\tx\0arg\t007\0arg\t-00.5\0' | "$writer" manifest --plan | sed 's/.*"threads": \([^,]*\),.*/\1/')" 7 \
    "a leading zero is dropped (the shell wrote 007, which no JSON reader reads)"

# The writer's own refusals: a manifest that is a link is not written through; an unreadable old one stops the write.
mkdir -p "$root/link"
echo secret >"$root/link/target"
ln -s "$root/link/target" "$root/link/CLOMP_h_1.suite.json"
err=$(printf 'base\t%s\0plan_signature\tx\0' "$root/link/CLOMP_h_1" | "$writer" manifest "$root/link/CLOMP_h_1.suite.json" 2>&1)
is "$?:$(cat "$root/link/target")" "1:secret" "a manifest that is a symbolic link is refused (exit 1), its target untouched"
like "$err" '^clomp-write: .*CLOMP_h_1.suite.json: a symbolic link: not replaced \(refused\)$' "in one line naming it"
echo '{"schema": ' >"$root/bad.suite.json"
err=$(printf 'base\t%s\0' "$root/bad" | "$writer" manifest "$root/bad.suite.json" 2>&1)
is "$?:$(cat "$root/bad.suite.json")" '1:{"schema": ' "a manifest that is not JSON stops the write (exit 1), the file as it was"
like "$err" '^clomp-write: .*bad.suite.json: not a JSON document' "in the reader's one line"
err=$("$writer" manifest "$root/none.suite.json" </tmp 2>&1)
is "$?:$(printf '%s\n' "$err" | wc -l):$([ -e "$root/none.suite.json" ] && echo written)" "1:1:" \
    "facts that cannot be read (standard input a directory) stop the write (exit 1) in one line, nothing written"
err=$({ printf 'base\t%s\0' "$root/none"; head -c $((64 * 1024 * 1024)) /dev/zero; } |
    "$writer" manifest "$root/none.suite.json" 2>&1)
is "$?:$(printf '%s\n' "$err" | wc -l):$([ -e "$root/none.suite.json" ] && echo written)" "1:1:" \
    "and so do facts of more than 64 MiB (the cap was 128 MiB)"
printf 'x' | "$writer" manifest >/dev/null 2>&1
is "$?" 2 "no FILE is a usage error (exit 2)"

done_testing
