#!/usr/bin/env bash
# Untrusted input (issue 45), the driver's side: links planted in a copied
# suite or a shared output directory are never written through (--resume
# refuses a suite whose files are links; a fresh suite takes an ID no link
# names; the writer, build/clomp-write, refuses to write through one, and
# --replicates auto's records in .env go through it: a link planted there
# during stage 2 stops the suite, exit 3, the victim untouched); the
# "Suite FAILED" line prints no control character a copied suite's files
# hold; --sign KEY signs the bundle (ssh-keygen itself verifies it).
# Victims sit outside the suite, mode 0600: their bytes and modes are
# compared after each case. A stand-in executable (every run OK at once);
# each suite is the quick 8-run plan at MAX_THREADS 2: one runs whole (in a
# directory with links at suite 1's names) and the copies of it are resumed,
# one more is --replicates auto's. The results
# package's side: tests/untrusted.t.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/stand_in.sh
. "$(dirname "$0")/lib/stand_in.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
driver=$top/run_clomp.sh
writer=${CLOMP_WRITE:-$top/build/clomp-write}
[ -x "$writer" ] || make -C "$top" -s --no-print-directory clomp-write >&2 || { echo "Bail out! make clomp-write failed"; exit 255; }
[ -x "$writer" ] || writer=$top/build/clomp-write
quick=(--quick --max-zone-scale 10 --replicates 1 --no-constructs --no-plots --calibrate=off)
host=$(uname -n)
host=${host%%.*}
ESC=$'\033'

root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { rm -rf "$root"; }
trap cleanup EXIT

drive() {  # drive ARGS...: the driver's exit status, stdout and stderr in rc, out and err
    out=$("$driver" "$@" </dev/null 2>"$root/drive.err")
    rc=$?
    err=$(<"$root/drive.err")
}

# A stand-in for clomp: every run prints a line and succeeds at once (no CSV, no record).
fake=$root/fakeclomp
plain_stand_in "$fake"   # tests/lib/stand_in.sh

# Victims: outside every suite, mode 0600; state = bytes and mode.
mkdir "$root/victims"
for v in 1 2 3 4 5; do printf 'victim %s\n' "$v" >"$root/victims/v$v"; chmod 600 "$root/victims/v$v"; done
victims_state() { for v in "$root"/victims/*; do printf '%s %s ' "$(stat -c %a "$v")" "$(cksum <"$v")"; done; }
before=$(victims_state)

# ---- 1. the writer itself ----------------------------------------------------------------
ln -s "$root/victims/v1" "$root/link"
printf 'x\n' | "$writer" replace "$root/link" 2>"$root/w.err"
ok $((! $?)) "clomp-write replace refuses a symbolic link"
like "$(cat "$root/w.err")" "^clomp-write: .*/link: a symbolic link: not replaced \(refused\)$" "and says so in one line"
printf 'x\n' | "$writer" append "$root/link" 2>"$root/w.err"
ok $((! $?)) "clomp-write append refuses a symbolic link (O_NOFOLLOW)"
ln -s "$root/victims/new" "$root/dangling"
printf 'x\n' | "$writer" append "$root/dangling" 2>/dev/null
ok $((! $?)) "clomp-write append refuses a dangling link too: nothing is created at its target"
[ ! -e "$root/victims/new" ]
ok $? "no file appeared at the dangling link's target"
printf 'a\n' >"$root/plain" && chmod 640 "$root/plain"
printf 'b\n' | "$writer" replace "$root/plain" && printf 'c\n' | "$writer" append "$root/plain"
is "$(cat "$root/plain") $(stat -c %a "$root/plain")" "b
c 640" "a regular file is replaced with its mode kept, then appended to"
is "$(find "$root" -maxdepth 1 -name '.plain.*' | wc -l)" 0 "no temporary name is left beside it"

# ---- 2. a fresh suite in a shared directory with links planted at its names ----------------
# (the one suite of this file that runs to its end: sections 3 and 4 resume copies of it, 5 bundles it)
mkdir "$root/a"
ln -s "$root/victims/v5" "$root/a/.CLOMP_${host}_1.driver"
ln -s "$root/victims/planted" "$root/a/CLOMP_${host}_1_key.full"
drive "${quick[@]}" --out "$root/a" "$fake" 2
is "$rc" 0 "a suite runs in a directory where links name suite 1's files"
[ -f "$root/a/CLOMP_${host}_2.env" ] && [ ! -e "$root/a/CLOMP_${host}_1.env" ]
ok $? "it takes suite ID 2: an ID is free only if no file of it exists, links included"
[ ! -e "$root/victims/planted" ]
ok $? "nothing was created at a dangling link's target"
is "$(victims_state)" "$before" "no victim was written, nor had its mode changed"
base=$root/a/CLOMP_${host}_2
is "$(wc -l <"$base.done" 2>/dev/null)" 8 "the suite of the stand-in marks its 8 runs done"

# ---- 3. a copy of that suite with links planted, resumed ------------------------------------
cp -a "$root/a" "$root/copy"
copy=$root/copy/CLOMP_${host}_2
# The names the driver writes on --resume: the tables' and .done's replacements, the lock note.
ln -s "$root/victims/v1" "$copy.runs.csv.new"
ln -s "$root/victims/v2" "${copy}_key.summary.new"
ln -s "$root/victims/v3" "$root/copy/.CLOMP_${host}_2.driver"
ln -s "$root/victims/v4" "$copy.done.new"
drive "${quick[@]}" --resume 2 --out "$root/copy" "$fake" 2
is "$rc" 2 "--resume of a copied suite with links planted among its files exits 2"
like "$err" "--resume: .* is a symbolic link or not a regular file: refused" "naming a link and the rule"
is "$(victims_state)" "$before" "no victim was written, nor had its mode changed"

# ---- 3b. --replicates auto's records in .env: a link planted there during stage 2 is not followed ----
# A stand-in clomp-stats that, once stage 2's last process is under way, moves the suite's .env aside
# and plants a link to a victim in its place, then runs the real one: the stop record that follows
# (its first call is the stop's) goes through the writer, which refuses it.
mkdir "$root/plant" "$root/victims6"
printf 'victim 6\n' >"$root/victims6/v6" && chmod 600 "$root/victims6/v6"
before6="$(stat -c %a "$root/victims6/v6") $(cksum <"$root/victims6/v6")"
stats_planter=$root/stats_planter
cat >"$stats_planter" <<STATS
#!/usr/bin/env bash
env=$root/plant/CLOMP_${host}_1.env
if [ ! -L "\$env" ] && grep -qs '^replicates auto: stage-2 process 2 of 2: ' "\$env"; then
    mv "\$env" "\$env.aside" && ln -s "$root/victims6/v6" "\$env"
fi
exec "${CLOMP_STATS:-$top/build/clomp-stats}" "\$@"
STATS
chmod +x "$stats_planter"
CLOMP_STATS=$stats_planter drive --quick --max-zone-scale 10 --replicates auto,10,2 --no-constructs --no-plots --calibrate=off \
    --out "$root/plant" "$fake" 2
[ -L "$root/plant/CLOMP_${host}_1.env" ]
ok $? "the stand-in planted its link at the suite's .env during stage 2"
is "$(stat -c %a "$root/victims6/v6") $(cksum <"$root/victims6/v6")" "$before6" \
    "--replicates auto's stop record is not written through the link: the victim is as it was"
is "$rc" 3 "the suite stops with exit status 3 when the stop cannot be recorded"
like "$out" "Suite FAILED: --replicates auto's stop could not be recorded: clomp-write: .*: a symbolic link: not written through \(refused\)" \
    "and says why in its Suite FAILED line"

# ---- 4. control characters a copied suite's files hold never reach the terminal ------------
# Run 3 recorded FAILED with an escape in its set (.runs.csv) and in its reason (the manifest's
# run entry, JSON-escaped as the driver writes it: the driver decodes it, then drops the controls).
cp -a "$root/a" "$root/esc"
esc=$root/esc/CLOMP_${host}_2
awk -F, -v OFS=, -v e="$ESC" 'NR > 1 && $1 == 3 { $2 = "key" e "[2J"; $4 = "FAILED"; $5 = 1 } { print }' "$esc.runs.csv" >"$root/runs.csv" &&
    cat "$root/runs.csv" >"$esc.runs.csv"
sed 's/^\(    {"run": 3, "status": \)"done"\(.*"reason": \)null/\1"failed"\2"boom \\u001b[2J\\u001b]0;title\\u0007"/' "$esc.suite.json" >"$root/m.json" &&
    cat "$root/m.json" >"$esc.suite.json"
drive "${quick[@]}" --resume 2 --out "$root/esc" "$fake" 2
is "$rc" 1 "--resume of a suite whose record says run 3 FAILED ends with exit status 1"
like "$out" "Suite FAILED: 1 of 8 runs FAILED; first: run 3 \(key\[2J, exit status 1\): boom \[2J\]0;title" \
    "the Suite FAILED line names the run and its reason"
case "$out$err" in *"$ESC"* | *$'\a'*) ok 1 "no escape or bell reaches the terminal" ;; *) ok 0 "no escape or bell reaches the terminal" ;; esac

# ---- 5. --sign KEY -----------------------------------------------------------------------------
if command -v ssh-keygen >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    ssh-keygen -q -t ed25519 -N '' -C vendor -f "$root/key" >/dev/null
    drive --sign "$root/nokey" --out "$root/a" --bundle 2
    is "$rc" 2 "--sign with no such key exits 2 before anything runs"
    drive --sign "$root/key" --out "$root/a" --bundle 2
    is "$rc" 0 "--bundle 2 --sign KEY rewrites and signs the bundle"
    printf 'vendor@example.com namespaces="clomp-submission" %s\n' "$(cat "$root/key.pub")" >"$root/allowed"
    ssh-keygen -Y verify -f "$root/allowed" -I vendor@example.com -n clomp-submission -s "$base.tar.gz.sig" <"$base.tar.gz" >/dev/null 2>&1
    ok $? "ssh-keygen -Y verify accepts the signature of the bundle (namespace clomp-submission)"
    drive --out "$root/a" --bundle 2
    [ ! -e "$base.tar.gz.sig" ]
    ok $? "a bundle rewritten without --sign removes the signature of the one it replaces"
else
    for d in "--sign with no such key exits 2" "--bundle --sign signs" "ssh-keygen verifies it" "a rewritten bundle drops the old signature"; do
        skip "$d" "no ssh-keygen or python3"
    done
fi

done_testing
