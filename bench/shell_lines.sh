#!/usr/bin/env bash
# bench/shell_lines.sh [BASELINE]: issue 29's count of the product's shell and
# awk lines on the suite's side (suite/, results/, compare/: *.sh and *.awk,
# every line as wc -l counts it, comments included) at BASELINE (default
# 988e473, the tree the issue counted 2,608 lines in) and in the working tree,
# file by file; then the totals two ways: every such file, and only the files
# that existed at BASELINE (the ones added since, for other issues' concerns,
# listed apart). The issue asks for at least half fewer lines.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-988e473}
cd "$top" || exit 2
git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "bench/shell_lines.sh: no commit $base here" >&2; exit 2; }
pattern='^(suite|results|compare)/[^/]*\.(sh|awk)$'
then_files=$(git ls-tree -r --name-only "$base" | grep -E "$pattern")
now_files=$(git ls-files --cached --others --exclude-standard | grep -E "$pattern" | while read -r f; do [ -f "$f" ] && echo "$f"; done)
printf '%-28s %8s %8s\n' file "$base" now
then_total=0 now_total=0 kept_total=0
for f in $(printf '%s\n' "$then_files" "$now_files" | sort -u); do
    a=- b=-
    grep -qx "$f" <<<"$then_files" && a=$(git show "$base:$f" | wc -l) && then_total=$((then_total + a))
    if grep -qx "$f" <<<"$now_files"; then
        b=$(wc -l <"$f")
        now_total=$((now_total + b))
        [ "$a" = - ] || kept_total=$((kept_total + b))
    fi
    printf '%-28s %8s %8s%s\n' "$f" "$a" "$b" "$([ "$a" != - ] || echo '  (added since)')"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%% fewer", 100 * (1 - b / a) }'; }
echo "every file:                  $then_total -> $now_total ($(ratio "$then_total" "$now_total"))"
echo "files there at the baseline: $then_total -> $kept_total ($(ratio "$then_total" "$kept_total"))"
