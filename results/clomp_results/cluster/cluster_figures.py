"""The cluster report's key figures (issue 50): what each node is judged on,
how it is named and where a clomp JSON record holds it - the catalogue's
"cluster" set (`clomp --list-figures`, catalogue.py): its keys, labels,
units and record members. Nothing else in the cluster report names a figure.

Each figure is judged by the outlier rule (timing/outlier_rule.h) within its
group of comparable nodes, two-sided (a node faster than its peers is as odd
as a slower one: a different BIOS setting, a different turbo state). The
floor says what difference is too small to matter: a share of the group's
median of the figure itself, or - for an overhead, which is a difference of
two loop times - of the group's median Serial Ref us/Loop (the set's figure
of the reference measurement), as the MPI rank table does
(RANK_OUTLIER_FLOOR in measure/record.h).
"""
from __future__ import annotations

from collections import namedtuple
from typing import Dict, List, Optional, Tuple

from ..core import catalogue

FLOOR_SHARE = 0.01
# key, label, unit: the catalogue's; measurement and member: where one clomp JSON record has it (mpi.per_rank's
# measurements, or the record's own measurements); interval: the member of its 95% interval; speedup: a
# speedup over the reference figure (REFERENCE: its key), which mpi.per_rank has no member of; floor: (share,
# key of the figure whose group median it is a share of: the figure's own or the reference's).
Figure = namedtuple("Figure", "key label unit measurement member interval speedup floor")
_FIGURES: List[Figure] = []


def figures() -> List[Figure]:
    """The catalogue's cluster set, in catalogue order (asked once per process)."""
    if _FIGURES:
        return _FIGURES
    cat = catalogue.load()
    chosen = cat.in_set("cluster")
    reference = next(f for f in chosen if f.get("role") == "reference")
    for f in chosen:
        speedup = "speedup" in (f.get("kind") or "")
        of = reference.key if "overhead" in (f.get("kind") or "") else f.key
        _FIGURES.append(Figure(f.key, f.label, f.unit, f.get("measurement"), None if speedup else f.get("json"),
                               f.get("interval"), reference.key if speedup else None, (FLOOR_SHARE, of)))
    return _FIGURES


def keys() -> List[str]:
    return [f.key for f in figures()]


def by_key() -> Dict[str, Figure]:
    return dict((f.key, f) for f in figures())


# What makes two nodes comparable: they are judged against each other only when all of these agree.
FACTS = ("cpu_model", "cores", "memory_gib", "runtime", "plan")
FACT_LABELS = {"cpu_model": "CPU", "cores": "cores", "memory_gib": "memory GiB", "runtime": "runtime",
               "plan": "plan"}


def _interval_half(ci) -> Optional[float]:
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(v, (int, float)) for v in ci):
        return 0.5 * (float(ci[1]) - float(ci[0]))
    return None


def _number(v) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def rank_figures(measurements) -> Dict[str, Tuple[Optional[float], Optional[float]]]:
    """One rank's key figures from its mpi.per_rank measurements: key -> (value, half-width of its own
    95% interval, within the rank's process: its chunks). A measurement its record marks not a result
    (valid false) or did not complete gives no figure (None). mpi.per_rank holds a us/Loop's interval as
    <member>_ci_95 where the record's measurements hold it under statistics; a speedup is the reference's
    us/Loop over the measurement's, as the catalogue's median speedup is."""
    by_measurement = {}
    for m in measurements if isinstance(measurements, list) else []:
        if isinstance(m, dict) and isinstance(m.get("key"), str):
            by_measurement[m["key"]] = m
    chosen = figures()
    measured = dict((f.key, by_measurement.get(f.measurement)) for f in chosen)
    valid = dict((k, m) for k, m in measured.items() if m is not None and m.get("valid") is not False)
    out: Dict[str, Tuple[Optional[float], Optional[float]]] = {}
    for f in chosen:
        m = valid.get(f.key)
        if f.speedup is not None:
            ref = by_key()[f.speedup]
            s = _number(catalogue.value(valid.get(ref.key), ref.member))
            t = _number(catalogue.value(m, ref.member)) if m is not None else None
            out[f.key] = (s / t if s is not None and t else None, None)
            continue
        if m is None:
            out[f.key] = (None, None)
            continue
        ci = catalogue.value(m, f.interval)
        if ci is None:
            ci = m.get("%s_ci_95" % f.member)
        out[f.key] = (_number(catalogue.value(m, f.member)), _interval_half(ci))
    return out
