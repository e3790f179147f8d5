#!/usr/bin/env bash
# report.sh [--charts | --no-charts] BASE|DIR: the suite's charts (gnuplot)
# and its HTML report <base>.html. DIR stands for its latest suite (highest
# ID). `make plots OUT=...` runs this. Without an option, charts are drawn
# when gnuplot is installed, with a notice when it is not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
charts=auto
case ${1-} in
    --charts) charts=yes; shift ;;
    --no-charts) charts=no; shift ;;
esac
target=${1:?usage: report.sh [--charts | --no-charts] BASE|DIR}
if [ -d "$target" ]; then
    env=$(for f in "$target"/CLOMP_*.env; do [ -e "$f" ] && echo "$f"; done |
        awk '{ id = $0; sub(/\.env$/, "", id); sub(/.*_/, "", id); print id "\t" $0 }' | sort -n | tail -n 1 | cut -f2)
    [ -n "$env" ] || { echo "report.sh: no suite (CLOMP_*.env) in $target" >&2; exit 2; }
    base=${env%.env}
else
    base=${target%.env}
fi
[ -f "$base.env" ] || { echo "report.sh: no suite at $base ($base.env is missing)" >&2; exit 2; }
if [ "$charts" = yes ] && ! command -v gnuplot >/dev/null 2>&1; then
    echo "report.sh: gnuplot is not installed: no charts can be drawn (apt-get install gnuplot-nox)" >&2
    exit 2
fi
if [ "$charts" = auto ]; then
    if command -v gnuplot >/dev/null 2>&1; then
        charts=yes
    else
        echo "report.sh: notice: gnuplot is not installed: the report has no charts (apt-get install gnuplot-nox)" >&2
        charts=no
    fi
fi
status=0 why=''
if [ "$charts" = yes ] && [ ! -s "$base.csv" ]; then
    why='no run gave figures to draw'
elif [ "$charts" = yes ]; then
    "$here/plots.sh" "$base" || status=1
elif command -v gnuplot >/dev/null 2>&1; then
    why='charts were not asked for (--no-plots); <code>make plots OUT=...</code> draws them'
else
    why='gnuplot was not installed when this report was made (install gnuplot-nox, then <code>make plots OUT=...</code>)'
fi
"$here/html.sh" "$base" "$why" || exit 1
exit "$status"
