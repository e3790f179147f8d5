#!/usr/bin/env bash
# Every parallel region a construct row opens takes the work (`w`) by value:
# `firstprivate(w ...)` on each `parallel` of the host rows' sources. Taken by
# reference, clang hands the team the address of the caller's stack slot, and
# a region opened per instance (PARALLEL, PARALLEL FOR, REDUCTION, the array
# clauses) then makes every other thread read the cache line the master has
# just written at its fork call: PARALLEL measured 0.64 or 1.0 us by where
# the stack fell (kernels/construct.h; bench/region_capture.sh shows it).
# The sources are read, not timed; a directive split over lines counts as one.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
files=()
for f in "$top"/kernels/*_constructs.c; do
    case $f in */target_*) ;; *) files+=("$f") ;; esac   # the target rows' regions are the device's
done
[ "${#files[@]}" -gt 0 ] || { echo "Bail out! no kernels/*_constructs.c under $top"; exit 255; }

# One line per parallel directive without the clause: FILE:LINE: DIRECTIVE
# (a directive continued over lines is joined first).
by_reference() {
    perl -ne '
        if ($cont) { $d .= " $_"; } elsif (/(?:#\s*pragma\s+omp|_Pragma\("omp|PRAGMA\(omp)\s+parallel\b/) { $d = $_; $at = "$ARGV:$."; }
        else { $. = 0 if eof; next; }
        $cont = /\\\s*$/ && !/PRAGMA\(/ && !/_Pragma/;
        unless ($cont) { $d =~ s/\s+/ /g; $n++; print "$at: $d\n" unless $d =~ /firstprivate\(w[,)]/; }
        $. = 0 if eof;
        END { print STDERR "$n\n"; }' "$@"
}
count=$(by_reference "${files[@]}" 2>&1 >/dev/null)
note "$count parallel directives in ${#files[@]} files"
[ "$count" -ge 30 ]
ok $? "the host rows' sources open at least 30 parallel regions (found $count)"
# Any other spelling (`_Pragma( "omp`, another macro's name) would escape the
# scan: every line that says "omp parallel" at all must be one it read.
mentions=$(cat "${files[@]}" | grep -v -E '^\s*(//|/?\*)' | grep -c -E '\bomp\s+parallel\b')
is "$mentions" "$count" "every line naming omp parallel outside a comment is a directive the scan read"
is "$(by_reference "${files[@]}" 2>/dev/null)" "" "every one of them takes w by value (firstprivate(w ...))"

# The scan can fail: regions that take w by reference, on one line or
# continued in a macro, are reported; one that takes it by value is not.
sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
cat >"$sample" <<'SAMPLE'
#pragma omp parallel num_threads(w->threads)
{ }
#pragma omp parallel num_threads(w->threads) firstprivate(w, p)
{ }
    _Pragma("omp parallel num_threads(w->threads)") \
    { } \
SAMPLE
found=$(by_reference "$sample" 2>/dev/null)
note "$found"
is "$(printf '%s\n' "$found" | grep -c .)" 2 "two regions that take w by reference are found in a sample of three"
like "$found" ':1: #pragma omp parallel num_threads' "the first is named by its line"

done_testing
