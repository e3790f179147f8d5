"""The offload measurements (docs/offload.md), from clomp's JSON records
only: the device the runtime reported, Offload OMP's figures on the target
input, the target probe rows, and the crossover: the smallest zones per
part at which Offload OMP beats Static OMP on the host for the same mesh.

Each swept mesh is compared by clomp-stats (timing/'s tested statistics,
as --compare does): Offload OMP's chunk us/Loop against Static OMP's, a
ratio with its 95% interval and a rank test. Offload OMP beats Static OMP
at a mesh when that interval lies wholly below 1 (clomp-stats' "detected",
in that direction). The crossover lies between the largest swept size
below it where Offload OMP did not win and the size where it did: that
bracket is its interval. This module computes no statistic of its own.

``clomp-results offload RECORD.json ...`` prints the same text that the
suite's HTML section shows (bench/device_check.sh uses it)."""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List, Optional

from ..core import safe_io, stats_helper
from ..core.safe_io import for_terminal

MAIN_SET, SWEEP_PREFIX, PROBE_SET = "offload", "offload_zpp", "offload_probes"
LEVEL = "0.95"
SCHEDULES = ("bestcase", "static", "offload_bestcase", "offload")


def measurements(doc: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    return {str(m.get("key")): m for m in doc.get("measurements") or [] if isinstance(m, dict)}


def number(v) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def interval(v):
    if isinstance(v, list) and len(v) == 2 and all(number(x) is not None for x in v):
        return float(v[0]), float(v[1])
    return None


def median_interval(m: Dict[str, Any]):
    """The median chunk's 95% interval as clomp wrote it (statistics.median_ci_95), or None."""
    return interval((m.get("statistics") or {}).get("median_ci_95")) or interval(m.get("us_per_loop_ci_95"))


def overhead_text(m: Dict[str, Any]) -> str:
    """The overhead against Bestcase OMP with its interval: clomp's own, else its paired one, else none."""
    ov = number(m.get("overhead_us_per_loop"))
    if ov is None:
        return ""
    ci = interval(m.get("overhead_ci_95"))
    if ci:
        return "overhead %.4g us [%.4g, %.4g]" % (ov, ci[0], ci[1])
    paired = m.get("paired_overhead") or {}
    pci, pov = interval(paired.get("ci_95")), number(paired.get("us_per_loop"))
    if pci and pov is not None:
        return "overhead %.4g us (no interval of its own; paired: %.4g [%.4g, %.4g])" % (ov, pov, pci[0], pci[1])
    return "overhead %.4g us (no interval)" % ov


def chunk_us(m: Dict[str, Any]) -> List[float]:
    """Every chunk's us/Loop of every round, in the order they ran."""
    out = []
    for rnd in m.get("rounds") or []:
        for c in (rnd.get("chunks") or []) if isinstance(rnd, dict) else []:
            v = number(c.get("us_per_loop")) if isinstance(c, dict) else None
            if v is not None and v > 0:
                out.append(v)
    return out


def device(doc: Dict[str, Any]) -> Dict[str, Any]:
    """What the runtime reported of the device, as the record has it."""
    build = doc.get("build") or {}
    return {"text": build.get("offload_device"), "host_plugin": build.get("offload_host_plugin") is True,
            "policy_before": build.get("offload_policy_before")}


def unusable(m: Optional[Dict[str, Any]]) -> str:
    """Why a measurement gives no figure, or ''."""
    if m is None:
        return "not in the record"
    if m.get("valid") is False:
        return "invalid: %s" % (m.get("invalid_reason") or "no reason given")
    result = (m.get("verification") or {}).get("result")
    if m.get("role") in ("checked", "reference") and result not in ("passed", "reference"):
        return "verification %s" % (result or "missing")
    if number(m.get("us_per_loop")) is None:
        return "not complete"
    return ""


class SweepPoint:
    """One swept mesh: Static OMP and Offload OMP, and their comparison."""

    def __init__(self, doc: Dict[str, Any], helper: str):
        inputs = doc.get("inputs") or {}
        self.parts, self.zones = inputs.get("numParts"), inputs.get("zonesPerPart")
        ms = measurements(doc)
        self.static, self.offload = ms.get("static"), ms.get("offload")
        self.why = unusable(self.static) or unusable(self.offload)
        self.cmp: Optional[Dict[str, Any]] = None
        if not self.why:
            try:   # clomp-stats' ratio is B over A: Offload OMP's chunks over Static OMP's
                self.cmp = stats_helper.compare(helper, chunk_us(self.static), chunk_us(self.offload), LEVEL)
            except stats_helper.StatsError as e:
                self.why = "clomp-stats: %s" % e

    @property
    def wins(self) -> bool:
        """Offload OMP's chunks faster than Static OMP's, the interval wholly on that side."""
        c = self.cmp
        if c is None or not c["detected"] or c["ci_high"] is None:
            return False
        return c["ci_high"] < (1.0 if c["scale"] == "ratio" else 0.0)

    def comparison_text(self) -> str:
        if self.cmp is None:
            return "no comparison (%s)" % self.why
        raw = self.cmp["raw"]
        what = "Offload/Static" if self.cmp["scale"] == "ratio" else "Offload - Static (us/Loop)"
        estimate = raw.get("estimate_text") or raw["estimate"]
        if self.cmp["ci_low"] is None or self.cmp["ci_high"] is None:
            return "%s %s (no interval: %d and %d chunks)" % (what, estimate, self.cmp["n_a"], self.cmp["n_b"])
        return "%s %s [%s, %s]" % (what, estimate, raw.get("ci_low_text") or raw["ci_low"], raw.get("ci_high_text") or raw["ci_high"])


def figure_text(m: Optional[Dict[str, Any]]) -> str:
    """A measurement's median us/Loop with its 95% interval, or why none."""
    why = unusable(m)
    if why:
        return "no figure (%s)" % why
    ci = median_interval(m)
    med = number(m.get("us_per_loop"))
    return "%.4g [%.4g, %.4g]" % (med, ci[0], ci[1]) if ci else "%.4g (no interval)" % med


def crossover(points: List[SweepPoint]) -> str:
    """The crossover statement, with its bracket, from the sweep in zones-per-part order."""
    pts = sorted([p for p in points if isinstance(p.zones, int)], key=lambda p: p.zones)
    if not pts:
        return "no crossover sweep in these records"
    span = "%d..%d zones per part, %s parts" % (pts[0].zones, pts[-1].zones, pts[0].parts)
    first = next((i for i, p in enumerate(pts) if p.wins), None)
    if first is None:
        undecided = [p for p in pts if p.cmp is None]
        tail = "; %d sizes had no comparison" % len(undecided) if undecided else ""
        return "no crossover in the range (%s): Offload OMP never beat Static OMP%s" % (span, tail)
    p = pts[first]
    if first == 0:
        text = "crossover at or below %d zones per part (the smallest swept, %s): %s" % (p.zones, span, p.comparison_text())
    else:
        q = pts[first - 1]
        text = ("crossover between %d and %d zones per part (%s): Offload OMP beats Static OMP at %d (%s), not at %d (%s)"
                % (q.zones, p.zones, span, p.zones, p.comparison_text(), q.zones, q.comparison_text()))
    later = [x.zones for x in pts[first + 1:] if not x.wins]
    if later:
        text += "; but not again at %s zones per part (not monotone: read each size's line)" % ", ".join(map(str, later))
    return text


def probe_rows(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The target rows of a record's construct table, level 1, with their parameter."""
    out = []
    for r in ((doc.get("constructs") or {}).get("rows") or []):
        if not isinstance(r, dict) or not str(r.get("construct", "")).startswith("target"):
            continue
        for level in r.get("levels") or []:
            if isinstance(level, dict) and level.get("level") == 1:
                row = dict(r)
                row.update(level)
                out.append(row)
    return out


def probe_text(row: Dict[str, Any]) -> str:
    if row.get("status") != "measured":
        return "%s: %s" % (row.get("status", "?"), row.get("problem") or "")
    ov, lo, hi = number(row.get("overhead_us")), number(row.get("overhead_ci95_low_us")), number(row.get("overhead_ci95_high_us"))
    if ov is None:
        return "no figure"
    return "%.4g us [%.4g, %.4g]" % (ov, lo, hi) if lo is not None and hi is not None else "%.4g us (no interval)" % ov


def main_run_lines(doc: Dict[str, Any]) -> List[str]:
    ms = measurements(doc)
    names = {"bestcase": "Bestcase OMP", "static": "Static OMP", "offload_bestcase": "Dev Bestcase", "offload": "Offload OMP"}
    lines = []
    for key in SCHEDULES:
        m = ms.get(key)
        extra = ""
        if m is not None and not unusable(m):
            parts = []
            if number(m.get("speedup")) is not None:
                parts.append("speedup %.3g" % m["speedup"])
            if number(m.get("efficacy_percent")) is not None:
                parts.append("efficacy %.3g%%" % m["efficacy_percent"])
            if m.get("role") != "bestcase" and overhead_text(m):
                parts.append(overhead_text(m))
            if number(m.get("offload_launch_median_us_per_subcycle")) is not None:
                parts.append("launch %.4g us per subcycle (medians)" % m["offload_launch_median_us_per_subcycle"])
            extra = ("; " + ", ".join(parts)) if parts else ""
        if unusable(m):
            lines.append("%s: %s" % (names[key], figure_text(m)))
        else:
            lines.append("%s: %s us/Loop (median chunk, 95%% interval)%s" % (names[key], figure_text(m), extra))
    return lines


def summary_lines(docs: List[Dict[str, Any]], helper: str) -> List[str]:
    """The text of the offload measurements in DOCS (any order, any mix)."""
    lines, sweep = [], []
    dev = next((device(d) for d in docs if device(d)["text"]), None)
    if dev is None:
        return ["no offload device in these records"]
    lines.append("device: %s%s" % (dev["text"], "" if not dev["host_plugin"] else " [HOST PLUGIN: the CPU, not an accelerator]"))
    for d in docs:
        ms = measurements(d)
        if "offload_bestcase" in ms and "offload" in ms:
            inputs = d.get("inputs") or {}
            lines.append("target input (%s parts x %s zones, %s threads):" % (inputs.get("numParts"), inputs.get("zonesPerPart"),
                                                                         (d.get("resolved") or {}).get("numThreads")))
            lines += ["  " + x for x in main_run_lines(d)]
        elif "static" in ms and "offload" in ms:
            sweep.append(SweepPoint(d, helper))
        for row in probe_rows(d):
            name = str(row.get("construct_name", row.get("construct")))
            lines.append("probe %s: %s" % (name, probe_text(row)))
    for p in sorted((p for p in sweep if isinstance(p.zones, int)), key=lambda p: p.zones):
        lines.append("%s zones/part: Static OMP %s, Offload OMP %s; %s%s" % (
            p.zones, figure_text(p.static), figure_text(p.offload), p.comparison_text(), ": Offload OMP faster" if p.wins else ""))
    if sweep:
        lines.append(crossover(sweep))
    return lines


def main(argv: List[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: clomp-results offload RECORD.json ...  (clomp --json records of offload runs)", file=sys.stderr)
        return 0 if argv else 2
    from ..core.stats_helper import find as helper_path
    docs = []
    for path in argv:
        try:
            doc = json.loads(safe_io.read_bounded(path, safe_io.DEFAULT_LIMITS.max_member_bytes).decode("utf-8", "replace"))
        except (OSError, ValueError, RecursionError, safe_io.Refused) as e:
            print("clomp-results offload: %s: %s" % (for_terminal(os.path.basename(path)), for_terminal(str(e))), file=sys.stderr)
            return 2
        if not isinstance(doc, dict):
            print("clomp-results offload: %s: not a clomp record" % for_terminal(path), file=sys.stderr)
            return 2
        docs.append(doc)
    for line in summary_lines(docs, helper_path()):
        print(for_terminal(line))
    return 0
