"""run_clomp.sh --compare's statistical options checked before anything runs
(compare/compare.sh; docs/compare.md):

    compare-options --until SPEC     the planned looks of --until decided[,MAX]: N1,N2,...
    compare-options --primary KEY    KEY checked against side A's clomp --list-schedules (standard input)

Exit 0 (the looks printed, or KEY can name a figure), 2 with one line on
stderr naming what is wrong. --primary checks what the names allow: KEY's
form, its figure, and (a measurement's figure) that side A's clomp has that
measurement; a construct's KEY is checked against the first pair's records
(compare-report --look)."""
from __future__ import annotations

import re
import sys
from typing import List

from .estimate import listing_rows
from .safe_io import for_terminal


class Refused(Exception):
    pass


def plan_looks(spec: str) -> List[int]:
    """--until decided[,MAX]: from 6 to MAX [20] pairs, at most 5 looks, evenly spaced."""
    m = re.fullmatch(r"decided(,([0-9]+))?", spec)
    if not m:
        raise Refused("--until: '%s' is not decided[,MAX] (MAX: the most pairs, 6 to 1000)" % spec)
    most = int(m.group(2)) if m.group(2) else 20
    if most < 6 or most > 1000:
        raise Refused("--until: MAX '%d' must be 6 to 1000 pairs (the exact test needs 6)" % most)
    k = min(most - 5, 5)
    if k == 1:
        return [most]
    looks: List[int] = []
    for j in range(k):
        at = 6 + (2 * (most - 6) * j + k - 1) // (2 * (k - 1))
        if not looks or at > looks[-1]:
            looks.append(at)
    return looks


def check_primary(key: str, listing: str) -> None:
    if not re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", key):
        raise Refused("--primary: '%s' is not a figure KEY (a measurement key and a figure joined by '_', e.g. "
                      "static_overhead; --compare --list-figures prints them)" % key)
    if key in ("user_cpu_seconds", "system_cpu_seconds") or re.fullmatch(r".*_level[0-9].*_overhead", key):
        return
    for ending in ("_us_per_loop", "_overhead"):
        if key.endswith(ending):
            measurement = key[:-len(ending)]
            break
    else:
        raise Refused("--primary: '%s' names no figure (KEY ends in _us_per_loop or _overhead, or is "
                      "user_cpu_seconds/system_cpu_seconds; --compare --list-figures prints them)" % key)
    keys = {re.sub(r"[^a-z0-9]", "_", row.get("key", "").lower()) for row in listing_rows(listing)}
    if measurement not in keys:
        raise Refused("--primary: '%s': side A's clomp has no measurement '%s' (clomp --list-schedules prints "
                      "the keys)" % (key, measurement))
    if key == "bestcase_overhead":
        raise Refused("--primary: 'bestcase_overhead' is 0 by definition (never counted): name another")


def main(argv: List[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("--until", "--primary"):
        sys.stderr.write("usage: compare-options --until SPEC | --primary KEY <LISTING\n")
        return 2
    try:
        if argv[0] == "--until":
            print(",".join(str(n) for n in plan_looks(argv[1])))
        else:
            check_primary(argv[1], sys.stdin.read())
        return 0
    except Refused as e:
        sys.stderr.write("run_clomp.sh: %s\n" % for_terminal(str(e)))
        return 2
