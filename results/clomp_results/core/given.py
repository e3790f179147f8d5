"""Which processes gave a figure as a result, and why the others did not
(issue 43, items 4 and 6): the one rule the suite's closing lines (the
between-process table), the HTML headline, the buyer's table and
--compare's last line follow, and the one place their reasons are printed.

A process gives a figure as a result when its run ended OK, the noise
census did not find the machine busy (its figures then measure the
contention: docs/noise.md), the measurement is not marked invalid (valid:
false, docs/statistics.md) and the figure has a value. A median is given
only from at least MIN_PROCESSES processes and at least half of them
(``summarised``); with fewer: "no result (1 of 3 processes gave one: 2
busy)". A submission of one process (CLOMP 1.2's text, a suite without
--replicates) gives that process's value, said to be one process's.
"""
from __future__ import annotations

from collections import Counter
from typing import List, Optional, Tuple

from . import catalogue
from .view import num

MIN_PROCESSES = 3
# The reasons a process gave no figure, in the order they are named.
BUSY, INVALID, FAILED, NOT_MEASURED = "busy", "invalid", "failed", "not measured"
REASONS = (BUSY, INVALID, FAILED, NOT_MEASURED)


def ordered(why) -> List[str]:
    """The reasons of Counter WHY in the order they are named: REASONS', then any finer one (--compare's
    'mean and median chunk apart', compare_figures.missing_reasons) by name."""
    return [r for r in REASONS if why.get(r)] + sorted(r for r in why if r not in REASONS and why[r])


# clomp's busy-machine rule (measure/noise_record.h NOISE_BUSY_LOST_SHARE, docs/noise.md): a thread of the team
# that lost this share of the probe's time or more.
BUSY_LOST_SHARE = 0.25
LOAD_NOT_RECORDED = "load not recorded"


def census_busy(doc) -> Tuple[Optional[bool], str]:
    """(busy, why) of a process's record DOC: the noise census's own verdict (schema minor 7 on: busy true or
    false, its busy_reason); for an older record, which carries the probe's per-thread figures but no verdict,
    clomp's rule applied here to those figures, said so; (None, "load not recorded: ...") when the record has
    neither (no census, a probe that did not run)."""
    census = doc.get("noise_census") if isinstance(doc, dict) else None
    if not isinstance(census, dict):
        return None, LOAD_NOT_RECORDED + ": the record has no noise census"
    if census.get("busy") in (True, False):
        return census["busy"], str(census.get("busy_reason") or "busy") if census["busy"] else ""
    if "busy" in census or not census.get("probed"):
        return None, LOAD_NOT_RECORDED + ": the noise census did not probe the team%s" % (
            " (%s)" % census["note"] if isinstance(census.get("note"), str) else "")
    threads = [t for t in census.get("threads") or [] if isinstance(t, dict) and num(t.get("lost_fraction")) is not None]
    if not threads:
        return None, LOAD_NOT_RECORDED + ": the noise census has no per-thread figures"
    worst = max(threads, key=lambda t: num(t.get("lost_fraction")))   # the first of equals, as clomp's judge_busy
    lost = num(worst.get("lost_fraction"))
    if lost < BUSY_LOST_SHARE:
        return False, ""
    detour = num(worst.get("largest_detour_us"))
    return True, ("the noise census's probe: thread %s (CPU %s) lost %.1f%% of its time to other work%s; busy: a thread "
                  "lost %.0f%% or more (clomp's rule applied to a record of schema minor %s, which predates the verdict)"
                  % (worst.get("thread", "?"), worst.get("cpu", "?"), 100 * lost,
                     ", largest detour %.1f ms" % (detour * 1e-3) if detour is not None else "", 100 * BUSY_LOST_SHARE,
                     doc.get("schema_minor", "?")))


def busy(doc) -> bool:
    """Whether the process's census found the machine busy (census_busy: its verdict, or clomp's rule on an older
    record's figures)."""
    return census_busy(doc)[0] is True


def measurement(doc, key):
    for m in (doc or {}).get("measurements") or []:
        if isinstance(m, dict) and m.get("key") == key:
            return m
    return None


def invalid_bestcase(doc):
    """The record's Bestcase measurement when its run marked it invalid (every overhead is then void), else None."""
    bestcase = next((m for m in (doc or {}).get("measurements") or [] if isinstance(m, dict) and m.get("role") == "bestcase"), None)
    return bestcase if bestcase is not None and bestcase.get("valid") is False else None


def of_process(doc, fig, ok=True) -> Tuple[Optional[float], Optional[str]]:
    """(value, None) when the process (its record DOC, OK: its run ended OK) gave catalogue figure FIG as a
    result, else (None, reason)."""
    if not ok or not isinstance(doc, dict):
        return None, FAILED
    key = fig.get("measurement")
    m = measurement(doc, key) if key else None
    if key and m is None:
        return None, NOT_MEASURED
    return of_measurement(doc, m, fig)


def of_measurement(doc, m, fig) -> Tuple[Optional[float], Optional[str]]:
    """of_process's rule for figure FIG of record measurement M of record DOC (None: a figure of the process
    itself, its CPU seconds), M given: --compare's figures of a record's measurement, which need no key."""
    if m is not None and (not m.get("selected", True) or m.get("unavailable")):
        return None, NOT_MEASURED   # not asked for, or not possible here (Nested OMP below 2x2 threads)
    if busy(doc):
        return None, BUSY
    if m is not None:
        if m.get("valid") is False or (invalid_bestcase(doc) is not None and "overhead" in (fig.get("kind") or "")):
            return None, INVALID   # an overhead against a Bestcase that is not a result is none either
        v = num(catalogue.value(doc if fig.get("kind") == "llnl_target_cycles" else m, fig.get("json")))
    else:
        v = num(catalogue.value(doc, fig.get("json")))
    return (v, None) if v is not None else (None, NOT_MEASURED)


class Given(object):
    """One figure over the processes of one input (or submission): the values given and why the rest
    gave none."""

    def __init__(self, values=None, total=0, why=None):
        self.values: List[float] = list(values or [])
        self.total = total
        self.why = Counter(why or {})

    def add(self, value, reason):
        self.total += 1
        if reason is None:
            self.values.append(value)
        else:
            self.why[reason] += 1

    @property
    def k(self) -> int:
        return len(self.values)

    @property
    def summarised(self) -> bool:
        """A median may be given: at least MIN_PROCESSES processes gave the figure, and at least half."""
        return self.k >= MIN_PROCESSES and 2 * self.k >= self.total

    @property
    def single(self) -> bool:
        """One process in all, and it gave the figure: its value, said to be one process's."""
        return self.total == 1 and self.k == 1

    def reasons(self) -> str:
        """'2 busy, 1 invalid' ('' when every process gave it)."""
        return ", ".join("%d %s" % (self.why[r], r) for r in ordered(self.why))

    def count_text(self) -> str:
        """'3 of 3 processes', '2 of 3 processes (1 busy)'."""
        why = self.reasons()
        return "%d of %d process%s%s" % (self.k, self.total, "" if self.total == 1 else "es", " (%s)" % why if why else "")

    def no_result_text(self) -> str:
        """Why there is no median: 'no result (1 of 3 processes gave one: 2 busy)'; with every process but
        too few of them: 'no result (2 of 2 processes gave one; a median needs 3)'."""
        why = self.reasons()
        said = "%d of %d process%s gave one" % (self.k, self.total, "" if self.total == 1 else "es")
        if why:
            return "no result (%s: %s)" % (said, why)
        return "no result (%s; a median needs %d)" % (said, MIN_PROCESSES)


def over(records, fig) -> Given:
    """Given of catalogue figure FIG over RECORDS: [(record doc or None, run ended OK)]."""
    g = Given()
    for doc, ok in records:
        g.add(*of_process(doc, fig, ok))
    return g


def side_reason(sides) -> str:
    """The last line's reason when a comparison cannot decide (item 6): which reason holds and on which side,
    from SIDES [(label, Given)]: 'side B: 3 of 6 processes busy; side A: 1 invalid'. '' when every
    process of every side gave the figure."""
    out = []
    for label, g in sides:
        why = ["%d of %d process%s %s" % (g.why[r], g.total, "" if g.total == 1 else "es", r)
               for r in ordered(g.why)]
        if why:
            out.append("%s: %s" % (label, ", ".join(why)))
    return "; ".join(out)
