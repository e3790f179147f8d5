#!/usr/bin/env python3
"""A synthetic cluster: per-node summaries (results/clomp_results/cluster/cluster_nodes.py's
schema 1) for N nodes, drawn from measured distributions, with planted
outliers, busy and failed nodes - what the cluster report of a real
screening reads, without the cluster (issue 50, docs/cluster.md).

    bench/cluster_synth.py --out DIR [--nodes 1000] [--seed 50] [--plant 3] [--busy 5] [--failed 2]
                           [--processes 6] [--from RECORDS_DIR]

The model. Every node of a group is the same hardware: its key figures are
the group's typical ones, and each of its PROCESSES processes (clomp runs of
the target input) draws its figures from the measured between-process
distribution (lognormal: the measured median and the spread of log values,
1.4826 x MAD of the processes; a timing is positive and skewed). The node's
figure is the median of its processes and its interval [min, max] - the
order-statistic 95% interval of a median of 6 values (96.9%), as
clomp-stats summary gives it. Three groups of hardware, 60%, 30% and 10% of
the nodes, scale every figure by 1, 0.8 and 1.3 (they are judged apart).

Planted (the first of each group's nodes, then spread): outlier 1 runs
Serial Ref 8 spreads slower (a wrong power profile), outlier 2 OMP Barrier 3
times slower (deep C-states), outlier 3 the Static OMP overhead 8 spreads
higher (a daemon on a core); busy nodes have their own noise census say busy
and every figure 1.5 times worse (they must be named busy, never outliers);
failed nodes have no figures and a reason. DIR/planted.manifest (JSON; not a summary) says which.

The distributions: --from DIR reads clomp --json records (one per process)
of one node and takes each figure's median and log spread from them;
without it, MEASURED below (where each comes from, and what is assumed).
The summaries name each figure by the catalogue's key (`clomp
--list-figures`'s cluster set); MEASURED names them by the keys issue 50's
summaries used, which the catalogue maps to its own.
"""
import argparse
import json
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results"))
from clomp_results.core import catalogue  # noqa: E402

# figure -> (median, spread of the log values between processes). Measured on the 2-CPU VM nearly idle
# (docs/noise.md, "Measured here": 6 processes of the target input, 2026-11-25, load 1.7-1.9; the
# spread from their [min, max], the 95% interval of a median of 6: ln(max/min) / 2.53, the expected
# range of 6 normal values in standard deviations): Static OMP overhead 1.10 (1.01..1.19), OMP
# Barrier 0.43 (0.42..0.47), Static OMP speed-up 1.50 (1.47..1.52). Serial Ref and OMP Parallel: the
# medians of libgomp's 6 processes in docs/notes/compare.md (46.74 and 0.8238 us/Loop, a loaded VM);
# no quiet spread of theirs was measured here, so theirs is ASSUMED equal to the overhead's. The
# figures are drawn independently of each other. --from replaces all of this with a node's records.
MEASURED = {
    "serial_us": (46.74, 0.064),
    "static_overhead_us": (1.10, 0.064),
    "barrier_us": (0.43, 0.044),
    "fork_join_us": (0.8238, 0.064),
    "static_speedup": (1.50, 0.013),
}
GROUPS = [  # share of the nodes, facts, scale of every figure (the speed-up's inverse)
    (0.6, {"cpu_model": "Intel(R) Xeon(R) Platinum 8480+", "cores": 112, "memory_gib": 512,
           "runtime": "libgomp (GCC 12.2.0)", "plan": "quick, timeScale 100, 6 processes"}, 1.0),
    (0.3, {"cpu_model": "AMD EPYC 9654 96-Core Processor", "cores": 192, "memory_gib": 768,
           "runtime": "libgomp (GCC 12.2.0)", "plan": "quick, timeScale 100, 6 processes"}, 0.8),
    (0.1, {"cpu_model": "NVIDIA Grace", "cores": 72, "memory_gib": 480,
           "runtime": "libgomp (GCC 12.2.0)", "plan": "quick, timeScale 100, 6 processes"}, 1.3),
]
# (figure, how): the planted outliers, in order.
PLANTS = [("serial_us", ("spreads", 8.0)), ("barrier_us", ("factor", 3.0)), ("static_overhead_us", ("spreads", 8.0))]
KEYS = list(MEASURED)


def from_records(directory):
    """(median, log spread) per figure from clomp --json records of one node's processes."""
    values = {k: [] for k in KEYS}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(directory, name)) as f:
            doc = json.load(f)
        ms = {m.get("key"): m for m in doc.get("measurements") or [] if isinstance(m, dict)}

        def good(m, member):
            v = m.get(member) if m and m.get("valid") is not False else None
            return v if isinstance(v, (int, float)) and v > 0 else None
        got = {"serial_us": good(ms.get("serial"), "us_per_loop"),
               "static_overhead_us": good(ms.get("static"), "overhead_us_per_loop"),
               "barrier_us": good(ms.get("barrier"), "us_per_loop"),
               "fork_join_us": good(ms.get("parallel"), "us_per_loop")}
        s, t = got["serial_us"], good(ms.get("static"), "us_per_loop")
        got["static_speedup"] = s / t if s and t else None
        for k, v in got.items():
            if v is not None:
                values[k].append(v)
    out = {}
    for k, v in values.items():
        if len(v) < 3:
            sys.exit("cluster_synth.py: %s: fewer than 3 processes with %s" % (directory, k))
        logs = [math.log(x) for x in v]
        centre = statistics.median(logs)
        out[k] = (math.exp(centre), 1.4826 * statistics.median(abs(x - centre) for x in logs))
    return out


def current(key):
    """The catalogue's key of a figure MEASURED names by its key before the catalogue."""
    return catalogue.load().canonical(key)


def node_summary(name, facts, scale, dist, processes, rng, plant=None, busy=False):
    figures = {}
    for k in KEYS:
        median, sd_log = dist[k]
        typical = median / scale if k == "static_speedup" else median * scale
        values = [typical * math.exp(rng.gauss(0.0, sd_log)) for _ in range(processes)]
        if plant and plant[0] == k:
            how, amount = plant[1]
            values = [v * (amount if how == "factor" else math.exp(amount * sd_log)) for v in values]
        if busy:
            values = [v / 1.5 if k == "static_speedup" else v * 1.5 for v in values]
        values.sort()
        figures[current(k)] = {"median": statistics.median(values), "ci_low": values[0], "ci_high": values[-1]}
    return {"clomp_node_summary": 1, "node": name, "status": "complete", "failure": None, "facts": facts,
            "busy": busy, "busy_reason": ("the noise census's probe: thread 3 (CPU 3) lost 41.0% of its time to other "
                                          "work, largest detour 12.0 ms; busy: a thread lost 25% or more") if busy else None,
            "processes": processes, "figures": figures}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=50)
    ap.add_argument("--plant", type=int, default=3, choices=range(0, len(PLANTS) + 1))
    ap.add_argument("--busy", type=int, default=5)
    ap.add_argument("--failed", type=int, default=2)
    ap.add_argument("--processes", type=int, default=6)
    ap.add_argument("--from", dest="records")
    a = ap.parse_args(argv)
    if a.nodes < 3 * (a.plant + a.busy + a.failed + 3):
        sys.exit("cluster_synth.py: --nodes %d is too few for what is planted" % a.nodes)
    dist = from_records(a.records) if a.records else MEASURED
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=False)
    width = len(str(a.nodes))
    # Which nodes get what: spread over the cluster, never the same node twice.
    special = rng.sample(range(a.nodes), a.plant + a.busy + a.failed)
    planted = {special[i]: PLANTS[i] for i in range(a.plant)}
    busy = set(special[a.plant:a.plant + a.busy])
    failed = set(special[a.plant + a.busy:])
    manifest = {"nodes": a.nodes, "seed": a.seed, "processes": a.processes, "distributions": dist,
                "outliers": {}, "busy": [], "failed": []}
    bounds, acc = [], 0.0
    for share, facts, scale in GROUPS:
        acc += share
        bounds.append((round(acc * a.nodes), facts, scale))
    for i in range(a.nodes):
        name = "node%0*d" % (width, i + 1)
        facts, scale = next((f, s) for b, f, s in bounds if i < b)
        if i in failed:
            doc = {"clomp_node_summary": 1, "node": name, "status": "failed",
                   "failure": "node lost: its step's processes were killed (srun: error: %s: task 0: Killed)" % name,
                   "facts": facts, "busy": None, "busy_reason": None, "processes": 0, "figures": {}}
            manifest["failed"].append(name)
        else:
            doc = node_summary(name, facts, scale, dist, a.processes, rng, planted.get(i), i in busy)
            if i in planted:
                manifest["outliers"][name] = current(planted[i][0])
            if i in busy:
                manifest["busy"].append(name)
        with open(os.path.join(a.out, name + ".json"), "w") as f:
            json.dump(doc, f)
    with open(os.path.join(a.out, "planted.manifest"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
