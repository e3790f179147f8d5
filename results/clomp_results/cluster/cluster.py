"""The cluster report (issue 50, docs/cluster.md): every node of a cluster
measured, the odd ones named.

    clomp-results cluster [--format text|csv|json] [--write DIR STEM] [--mpi RECORD] [SUMMARY|DIR ...]

Reads per-node summaries (cluster_nodes: files, or directories of *.json)
and/or the ranks of clomp_mpi records (--mpi RECORD: mpi.per_rank, one node
per rank), one at a time. Groups the nodes by what makes them comparable
(cluster_figures.FACTS: CPU model, cores, memory, runtime, plan), then asks
clomp-stats once for the outlier rule over every group and key figure
(`clomp-stats outliers`: timing/outlier_rule.h, the MPI rank table's rule;
the package computes no statistic of its own). A node whose own noise census
said busy is named busy and left out of its group's distribution; a failed
node is named failed with its reason. Prints the report (text, or --format
csv/json); --write puts all three in DIR as STEM.txt, .csv and .json
(safe_write). Renderers: cluster_render.

Exit 0 written; 2 usage, or an input refused (one line, nothing written); 3
clomp-stats or a write failed.
"""
from __future__ import annotations

import sys
from collections import OrderedDict
from typing import Dict, Iterable, List

from . import cluster_figures, cluster_nodes, cluster_render
from ..core import safe_write, stats_helper
from ..core.stats_helper import find as find_stats_helper
from ..core.safe_io import Refused, for_terminal

# The rule's false rate per node and figure, by group size: a healthy node drawn from a normal spread
# shared by its whole group, judged by the MAD cut alone (no own interval, no floor: its worst case), as
# bench/cluster_false_rate.py measures it through clomp-stats (docs/cluster.md has the table, with skewed
# and heavy-tailed spreads, which are flagged more often). Percent.
FALSE_RATE_PERCENT = ((3, 9.6), (5, 5.3), (10, 1.7), (30, 0.39), (100, 0.12), (1000, 0.056))


def false_rate(nodes: int) -> float:
    """The stated false rate (a fraction) for a group of NODES: the table's at the largest size not above
    it (the rate falls as groups grow); 0 below 3 nodes (nothing is judged)."""
    rate = 0.0
    for size, percent in FALSE_RATE_PERCENT:
        if nodes >= size:
            rate = percent / 100.0
    return rate


# The rule as the report states it (timing/outlier_rule.h).
RULE = OrderedDict((
    ("mads", 3.5), ("mad_scale", 1.4826), ("fewest", 3),
    ("text", "a node stands out when its figure is farther from its group's median than all of: 3.5 scaled MADs "
             "(1.4826 x MAD), its own 95% interval's half-width, and 1% of the group's median (Serial Ref "
             "us/Loop's for the overhead); nodes busy by their own noise census are left out; groups of fewer "
             "than 3 are not judged"),
    ("false_rate_percent_by_group_size", OrderedDict((str(n), p) for n, p in FALSE_RATE_PERCENT)),
    ("false_rate", "a healthy node of a normal spread is flagged on one figure %s%% of the time in a group of 3, "
                   "%s%% of 10, %s%% of 100, %s%% of 1000 (the MAD cut alone: its own interval and the floor only "
                   "lower it; skewed or heavy-tailed spreads raise it: docs/cluster.md)"
                   % (FALSE_RATE_PERCENT[0][1], FALSE_RATE_PERCENT[2][1], FALSE_RATE_PERCENT[4][1],
                      FALSE_RATE_PERCENT[5][1])),
))


def _number(v) -> str:
    return "NA" if v is None else repr(float(v))


GROUPS_PER_REQUEST = 1000   # 5 distributions each: within clomp-stats outliers' bound of 10,000


def request(nodes: List[cluster_nodes.Node], group_of: List[int], groups: range) -> str:
    """clomp-stats outliers' request for GROUPS: per group and figure a distribution (g<G>.<key>) of its
    complete nodes (members m<index>), floors as cluster_figures says."""
    lines = []
    members: Dict[int, List[int]] = {g: [] for g in groups}
    for i, n in enumerate(nodes):
        if n.status == "complete" and group_of[i] in members:
            members[group_of[i]].append(i)
    for g in groups:
        for f in cluster_figures.figures():
            share, of = f.floor
            lines.append("distribution g%d.%s share %r g%d.%s" % (g, f.key, share, g, of))
            for i in members[g]:
                value, half = nodes[i].figures[f.key]
                lines.append("member m%d %s %s %d" % (i, _number(value), _number(half), 1 if nodes[i].busy else 0))
    return "\n".join(lines) + "\n"


def verdict(node: cluster_nodes.Node, judged: Dict[str, dict]) -> str:
    if node.status == "failed":
        return "failed"
    if node.busy:
        return "busy"
    if any(v["stands_out"] for v in judged.values()):
        return "outlier"
    if any(v["threshold"] is not None and v["value"] is not None for v in judged.values()):
        return "within"
    return "not judged"


def analyse(stream: Iterable[cluster_nodes.Node], helper: str) -> dict:
    """The report's content (plain data: cluster_render writes it) from the nodes of STREAM."""
    nodes: List[cluster_nodes.Node] = []
    seen: Dict[str, str] = {}
    groups: "OrderedDict[tuple, int]" = OrderedDict()
    group_of: List[int] = []
    intervals = set()
    for n in stream:
        if n.name in seen:
            raise Refused("node %s: two summaries (%s and %s)" % (for_terminal(n.name), seen[n.name], n.source))
        seen[n.name] = n.source
        nodes.append(n)
        group_of.append(groups.setdefault(n.facts, len(groups)))
        intervals.add(n.interval)
    if not nodes:
        raise Refused("no node: give per-node summaries (files or directories of *.json) or --mpi RECORD")
    answers = []
    for first in range(0, len(groups), GROUPS_PER_REQUEST):
        chunk = range(first, min(len(groups), first + GROUPS_PER_REQUEST))
        answers += stats_helper.outliers(helper, request(nodes, group_of, chunk))
    dist: Dict[str, dict] = {}
    judged: List[Dict[str, dict]] = [dict() for _ in nodes]
    current = None
    for a in answers:
        if "distribution" in a and "member" not in a:
            current = dist[a["distribution"]] = a
        elif current is not None:
            key = a["distribution"].split(".", 1)[1]
            judged[int(a["member"][1:])][key] = a
    report = OrderedDict()
    report["clomp_cluster_report"] = 1
    report["interval"] = " and ".join(sorted(intervals))
    report["rule"] = RULE
    report["figures"] = [OrderedDict((("key", f.key), ("label", f.label), ("unit", f.unit)))
                         for f in cluster_figures.figures()]
    report["groups"] = []
    for facts, g in groups.items():
        members = [i for i in range(len(nodes)) if group_of[i] == g]
        entry = OrderedDict((("group", g + 1), ("facts", OrderedDict(zip(cluster_figures.FACTS, facts))),
                             ("nodes", len(members)),
                             ("failed", sum(1 for i in members if nodes[i].status == "failed")),
                             ("busy", sum(1 for i in members if nodes[i].status == "complete" and nodes[i].busy))))
        entry["false_rate_percent"] = 100.0 * false_rate(len(members))
        entry["figures"] = OrderedDict()
        for f in cluster_figures.figures():
            d = dist["g%d.%s" % (g, f.key)]
            entry["figures"][f.key] = OrderedDict((k, d[k]) for k in ("n", "judged", "median", "mad", "spread_cut", "floor"))
        report["groups"].append(entry)
    report["nodes"], report["outliers"] = [], []
    for i, n in enumerate(nodes):
        v = verdict(n, judged[i])
        figures = OrderedDict()
        for f in cluster_figures.figures():
            a = judged[i].get(f.key, {})
            value, half = n.figures[f.key]
            figures[f.key] = OrderedDict((("value", value), ("half_width", half),
                                          ("stands_out", bool(a.get("stands_out"))),
                                          ("deviation", a.get("deviation")), ("threshold", a.get("threshold")),
                                          ("scaled_mads", a.get("scaled_mads"))))
            if a.get("stands_out"):
                median = report["groups"][group_of[i]]["figures"][f.key]["median"]
                report["outliers"].append(OrderedDict((("node", n.name), ("group", group_of[i] + 1), ("figure", f.key),
                                                       ("value", value), ("median", median),
                                                       ("deviation", a["deviation"]), ("threshold", a["threshold"]),
                                                       ("scaled_mads", a.get("scaled_mads")))))
        report["nodes"].append(OrderedDict((("node", n.name), ("group", group_of[i] + 1), ("verdict", v),
                                            ("failure", n.failure), ("busy", n.busy),
                                            ("busy_reason", n.busy_reason if n.busy else None), ("figures", figures))))
    counts = OrderedDict((k, 0) for k in ("outlier", "busy", "failed", "within", "not judged"))
    for entry in report["nodes"]:
        counts[entry["verdict"]] += 1
    report["counts"] = OrderedDict([("nodes", len(nodes)), ("groups", len(groups))] + list(counts.items()))
    return report


USAGE = "usage: clomp-results cluster [--format text|csv|json] [--write DIR STEM] [--mpi RECORD] [SUMMARY|DIR ...]"


def main(argv: List[str]) -> int:
    fmt, write, records, paths = "text", None, [], []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--format" and args and args[0] in ("text", "csv", "json"):
            fmt = args.pop(0)
        elif a == "--write" and len(args) >= 2:
            write = (args.pop(0), args.pop(0))
        elif a == "--mpi" and args:
            records.append(args.pop(0))
        elif a.startswith("-"):
            print("clomp-results cluster: unknown option '%s'\n%s" % (for_terminal(a), USAGE), file=sys.stderr)
            return 2
        else:
            paths.append(a)
    if write and not cluster_render.good_stem(write[1]):
        print("clomp-results cluster: --write: the stem '%s' is not a file name of letters, digits, '.', '_' and '-'"
              % for_terminal(write[1]), file=sys.stderr)
        return 2

    def stream():
        yield from cluster_nodes.read_summaries(paths)
        for r in records:
            yield from cluster_nodes.record_ranks(r)

    try:
        report = analyse(stream(), find_stats_helper())
    except Refused as e:
        print("clomp-results cluster: %s" % e, file=sys.stderr)
        return 2
    except stats_helper.StatsError as e:
        print("clomp-results cluster: %s" % for_terminal(str(e)), file=sys.stderr)
        return 3
    writers = {"text": cluster_render.text, "csv": cluster_render.csv_text, "json": cluster_render.json_text}
    if write:
        try:
            for kind, ext in (("text", "txt"), ("csv", "csv"), ("json", "json")):
                safe_write.write_text(write[0], "%s.%s" % (write[1], ext), writers[kind](report))
        except (safe_write.UnsafeTarget, OSError) as e:
            print("clomp-results cluster: %s" % for_terminal(str(e)), file=sys.stderr)
            return 3
    sys.stdout.write(writers[fmt](report))
    return 0
