"""The words of one figure's paired comparison in run_clomp.sh --compare's report (compare_report.py),
from clomp-stats' answers, computing nothing: its interval (an end at 0 the test rejects said to be
excluded, none said so), what the pairs could detect and what that assumes, the pairs' serial
correlation, and the processes each side lost and why (issue 44)."""
from decimal import Decimal

from ..grain.grain_answers import outward


def dropped_text(fig, n):
    """"" when every pair gave the figure; else each side's processes left out and why, and the side that
    lost more named (the pairs kept may then favour it: its bad processes are gone, its partners' stay)."""
    lost = dict((side, sum(fig["dropped"][side].values())) for side in "AB")
    if not lost["A"] and not lost["B"]:
        return ""
    parts = []
    for side in "AB":
        why = ", ".join("%s %d" % (w, k) for w, k in sorted(fig["dropped"][side].items()))
        parts.append("%s lost %d%s" % (side, lost[side], " (%s)" % why if why else ""))
    text = "%d of %d pairs kept; %s" % (len(fig["a"]), n, "; ".join(parts))
    if lost["A"] != lost["B"]:
        more = "A" if lost["A"] > lost["B"] else "B"
        text += "; %s lost more: the pairs kept may favour %s" % (more, more)
    return text


def bound_text(value, text, up):
    """An interval's bound VALUE at the decimals clomp-stats printed it with (TEXT: to the precision the
    interval supports), rounded away from the interval's inside (UP: the upper bound), never into it."""
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    if value == 0:
        return "%.*f" % (decimals, 0.0)
    rounded = outward(value, up, Decimal(repr(value)).adjusted() + 1 + decimals) + 0.0   # + 0.0: no "-0.00"
    return "%.*f" % (decimals, rounded)


def interval_text(c):
    """The shift's interval as clomp-stats gives it, its bounds at its precision rounded outward; an end at 0
    that the test itself rejects is said to be excluded (the interval holds every shift just above it, but not
    0: "differs" stands beside it); None when there is none. (Elsewhere an open end differs from a closed one
    by one point: nothing to say.)"""
    if c["ci_low"] is None:
        return None
    low = bound_text(c["ci_low"], c["ci_low_text"], False) + (" (excluded)" if c.get("ci_low_open") and c["ci_low"] == 0 else "")
    high = bound_text(c["ci_high"], c["ci_high_text"], True) + (" (excluded)" if c.get("ci_high_open") and c["ci_high"] == 0 else "")
    return "%s..%s" % (low, high)


def power_text(c, unit, looks=None):
    """What these pairs could detect, with what it assumes: the shift found with 80% power if the
    differences are normal with the spread seen (with --until: by the whole plan, every look), and the
    pairs 5% of A's median needs planned on the spread's 80% upper bound."""
    if c["sd_difference"] == 0:
        return "every pair differs by the same amount (no spread to judge power by)"
    if c["detectable_80"] is None:
        text = "too few pairs for any shift to reach p <= %.2g" % c["nominal_alpha"]
    elif looks:
        text = ("the plan (looks after %s pairs) detects about %s %s with 80%% power if differences are normal with "
                "the spread seen (sd %s)" % (",".join(str(x) for x in looks), c["detectable_text"], unit, c["sd_text"]))
    else:
        text = ("80%% power at a shift of about %s %s if differences are normal with the spread seen (sd %s)"
                % (c["detectable_text"], unit, c["sd_text"]))
    if c["pairs_needed_5pct"] is not None:
        text += (", 5%% of A's median needs %s %d pairs (planned on the spread's 80%% upper bound, sd %.3g%s)" % (
            "at most about" if looks else "about", int(c["pairs_needed_5pct"]), c["sd_upper_80"],
            "; the last look alone at Pocock's level" if looks else ""))
    elif c["median_a"] == 0:
        text += " (A's median is 0: no 5% figure)"
    return text


def serial_text(c):
    """The pairs' serial correlation, checked (their order is a design choice, not a guarantee)."""
    if c["serial_p"] is None or c["n"] < 3:
        return None
    text = "pair differences in run order: lag-1 correlation %.2f (permutation p = %.2g)" % (c["serial_lag1"],
                                                                                         c["serial_p"])
    if c["serial"]:
        return text + ": correlated; the interval is widened to %.1f effective pairs" % c["effective_pairs"]
    return text + ": no sign of correlation"
