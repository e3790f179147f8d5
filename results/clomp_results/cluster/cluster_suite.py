"""The suite on every node of a Slurm allocation (``run_clomp.sh --nodes
all|N``, issue 50): which nodes, what each node still has to run, each
node's summary from its own suite folder, and the gathering (summaries, the
cluster report, the cluster bundle). cluster_launch only launches: one srun
step per node, in parallel, each node's suite in CLUSTER/nodes/NODE.

    clomp-results nodes open ARGS...
        run_clomp.sh --nodes's command line checked and its cluster folder opened (cluster_open).
    clomp-results nodes plan CLUSTER NODELIST [all|N]
        NODELIST: the allocation's (Slurm's hostlist, SLURM_JOB_NODELIST). A new cluster
        folder: the nodes chosen (all, or the first N) are written to CLUSTER/nodes.txt.
        A resumed one (nodes.txt there): its own nodes, each still in the allocation.
        Prints one line per node: "NODE fresh", "NODE resume ID" (its suite ID) or "NODE done".
    clomp-results nodes gather CLUSTER
        Writes CLUSTER/summaries/NODE.json (cluster_nodes' schema), the cluster report
        CLUSTER/cluster.txt, .csv, .json, .html and the cluster bundle (cluster_bundle);
        prints the report's first line and the files. Exit 0 every node complete, 1 a node
        failed, 2 usage or a refused input, 3 a write failed.

The folder CLUSTER is OUT/CLOMP-cluster_ID: nodes.txt, arguments (the node
suites' arguments, NUL-separated, written by cluster_open), nodes/NODE/
(the node's suite), steps/NODE.log and NODE.rc (its srun steps' output and
exit statuses, appended per step).
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections import OrderedDict
from typing import Dict, List, Optional, Tuple

from ..core import catalogue, given, loader, machine_facts, safe_write, tables
from . import cluster_figures
from ..core.between import stats_helper as find_stats_helper, summarise
from ..core.safe_io import SAFE_NAME, Refused, for_terminal, read_bounded

MAX_NODES = 100000
ENV = re.compile(r"^CLOMP_(.+)_([0-9]+)\.env$")
LOG_BYTES = 4 << 20


# ---- which nodes ------------------------------------------------------------------------
def _range_items(body: str, where: str) -> List[str]:
    """The names of one bracket's body: "1-4,07,10-12" (widths kept: 07-09 is 07 08 09)."""
    out = []
    for part in body.split(","):
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise Refused("%s: '[%s]' is not a list of numbers and ranges" % (where, for_terminal(body)))
        if not sep:
            out.append(lo)
            continue
        if int(hi) < int(lo) or int(hi) - int(lo) >= MAX_NODES:
            raise Refused("%s: the range %s-%s is empty or too long" % (where, lo, hi))
        width = len(lo) if lo.startswith("0") else 0
        out += ["%0*d" % (width, i) for i in range(int(lo), int(hi) + 1)]
    return out


def expand_hostlist(expr: str) -> List[str]:
    """Slurm's hostlist expression ("n[1-3,7],gpu[01-02]-ib,login") as names, in order. Each name
    must be a safe file name (SAFE_NAME): it becomes the node's folder; Refused otherwise."""
    where = "the allocation's node list '%s'" % for_terminal(expr[:200])
    names: List[str] = []
    pending = [""]
    depth_body = None
    i = 0
    while i <= len(expr):
        ch = expr[i] if i < len(expr) else ","
        if depth_body is not None:
            if ch == "]":
                items = _range_items(depth_body, where)
                pending = [p + x for p in pending for x in items]
                depth_body = None
            elif ch == "[" or i == len(expr):
                raise Refused("%s: unbalanced '['" % where)
            else:
                depth_body += ch
        elif ch == "[":
            depth_body = ""
        elif ch == "]":
            raise Refused("%s: unbalanced ']'" % where)
        elif ch == ",":
            if pending != [""]:
                names += pending
            pending = [""]
        else:
            pending = [p + ch for p in pending]
        if len(names) + len(pending) > MAX_NODES:
            raise Refused("%s: more than %d nodes" % (where, MAX_NODES))
        i += 1
    for n in names:
        if not SAFE_NAME.match(n) or n in (".", ".."):
            raise Refused("%s: node '%s' is not a name of letters, digits, '.', '_' and '-' (it names a folder)"
                          % (where, for_terminal(n)))
    if not names:
        raise Refused("%s: no node" % where)
    seen = set()
    return [n for n in names if not (n in seen or seen.add(n))]


def choose(nodes: List[str], want: str) -> List[str]:
    """All of NODES, or the first WANT of them; Refused when WANT is neither or more than there are."""
    if want == "all":
        return nodes
    if not want.isdigit() or int(want) < 1:
        raise Refused("--nodes: '%s' is neither all nor a number of nodes > 0" % for_terminal(want))
    if int(want) > len(nodes):
        raise Refused("--nodes %s: the allocation has %d node%s (%s): ask for more (sbatch -N %s)"
                      % (want, len(nodes), "" if len(nodes) == 1 else "s", ",".join(nodes[:20]), want))
    return nodes[:int(want)]


def node_suite(node_dir: str) -> Optional[Tuple[int, str, bool]]:
    """(ID, base name, complete) of the suite in a node's folder (the highest ID), or None."""
    try:
        names = os.listdir(node_dir)
    except FileNotFoundError:
        return None
    suites = sorted((int(m.group(2)), m.group(1)) for m in map(ENV.match, names) if m)
    if not suites:
        return None
    sid, host = suites[-1]
    base = "CLOMP_%s_%d" % (host, sid)
    text = read_bounded(os.path.join(node_dir, base + ".env"), LOG_BYTES, what=base + ".env").decode("utf-8", "replace")
    return sid, base, any(line.startswith("---- complete ") for line in text.splitlines())


def read_nodes(cluster: str) -> List[str]:
    raw = read_bounded(os.path.join(cluster, "nodes.txt"), 1 << 24, what="nodes.txt").decode("utf-8", "replace")
    nodes = raw.split()
    if not nodes or any(not SAFE_NAME.match(n) or n in (".", "..") for n in nodes):
        raise Refused("%s/nodes.txt: not a list of node names" % for_terminal(cluster))
    return nodes


def plan(cluster: str, nodelist: str, want: Optional[str]) -> List[str]:
    allocated = expand_hostlist(nodelist)
    if os.path.lexists(os.path.join(cluster, "nodes.txt")):
        nodes = read_nodes(cluster)
        missing = [n for n in nodes if n not in allocated]
        if missing:
            raise Refused("--resume: node%s %s of %s %s not in this allocation (%s): ask for them (salloc -w %s)"
                          % ("" if len(missing) == 1 else "s", ",".join(missing), for_terminal(cluster),
                             "is" if len(missing) == 1 else "are", ",".join(allocated[:20]), ",".join(nodes)))
    else:
        nodes = choose(allocated, want or "all")
        safe_write.write_text(cluster, "nodes.txt", "\n".join(nodes) + "\n")
    lines = []
    for n in nodes:
        found = node_suite(os.path.join(cluster, "nodes", n))
        if found is None:
            lines.append("%s fresh" % n)
        elif found[2]:
            lines.append("%s done" % n)
        else:
            lines.append("%s resume %d" % (n, found[0]))
    return lines


# ---- one node's summary -----------------------------------------------------------------
def step_facts(cluster: str, node: str) -> Tuple[Optional[str], str]:
    """(its last srun step's exit status, or None; the line of its log that says most: srun's error, else
    the driver's last line)."""
    rc = None
    try:
        statuses = read_bounded(os.path.join(cluster, "steps", node + ".rc"), 1 << 16, what="rc").decode().split()
        rc = statuses[-1] if statuses else None
    except (Refused, OSError, UnicodeDecodeError):
        pass
    try:
        log = read_bounded(os.path.join(cluster, "steps", node + ".log"), LOG_BYTES, what="log").decode("utf-8", "replace")
    except (Refused, OSError):
        log = ""
    last_step = log.rsplit("\n---- step ", 1)[-1].splitlines()
    lines = [l.strip() for l in last_step if l.strip()]
    said = next((l for l in reversed(lines) if l.startswith("srun: error:") or "CANCELLED" in l), None)
    said = said or (lines[-1] if lines and not lines[-1].startswith("---- step") else "no output")
    return rc, for_terminal(said)[:300]


def run_failure(node_dir: str, base: str, run: int) -> str:
    """The reason the driver recorded for RUN in the .env ("---- run N FAILED (...): reason")."""
    text = read_bounded(os.path.join(node_dir, base + ".env"), LOG_BYTES, what=base + ".env").decode("utf-8", "replace")
    said = [l.split("): ", 1)[-1] for l in text.splitlines() if l.startswith("---- run %d FAILED (" % run)]
    return for_terminal(said[-1] if said else "no reason recorded")[:300]


def _target_records(suite) -> Tuple[List[object], int, str]:
    """(records of the target input's processes that ended OK, processes planned, the target input)."""
    facts = tables.driver_facts(suite)
    key = [p for p in suite.plan if p.set_name == "key"]
    if not key:
        return [], 0, ""
    first = key[0]
    pilot = set(suite.auto_pilot_runs)
    procs = [p for p in key if p.args == first.args and p.policy == first.policy and p.index not in pilot]
    recs = [suite.record(p.index) for p in procs if facts.get(p.index, [""])[0] == "OK"]
    return [r for r in recs if r is not None], len(procs), first.args_text


def _figure(helper: str, records, fig) -> Dict[str, Optional[float]]:
    g = given.over([(r.doc, True) for r in records], fig)
    if g.single:
        return OrderedDict((("median", g.values[0]), ("ci_low", None), ("ci_high", None)))
    s = summarise(helper, [tables.number_text(v) for v in g.values]) if g.summarised else None
    if s is None:
        return OrderedDict((("median", None), ("ci_low", None), ("ci_high", None)))
    number = lambda k: float(s[k]) if s.get(k) is not None else None   # noqa: E731
    return OrderedDict((("median", number("median")), ("ci_low", number("ci_low")), ("ci_high", number("ci_high"))))


def _facts(suite, records) -> Dict[str, object]:
    rec1 = records[0] if records else None
    kb = machine_facts.first_line(suite.machine.get("meminfo.txt", "") or "\n".join(suite.env.section("memory")),
                                  "MemTotal:").split(" ")[0]
    memory = int(kb) / 1048576.0 if kb.isdigit() and len(kb) < 20 and int(kb) > 0 else None
    return OrderedDict((("cpu_model", machine_facts.lscpu(suite).get("Model name") or "unknown"),
                        ("cores", suite.env.max_threads), ("memory_gib", memory),
                        ("runtime", machine_facts.runtime(suite, rec1)[:200]), ("plan", "")))


def node_summary(cluster: str, node: str, helper: str) -> Dict[str, object]:
    """NODE's summary (cluster_nodes' schema 1) from its suite folder and its steps."""
    rc, said = step_facts(cluster, node)
    node_dir = os.path.join(cluster, "nodes", node)
    out = OrderedDict((("clomp_node_summary", 1), ("node", node), ("status", "failed"), ("failure", None),
                       ("facts", OrderedDict((k, "unknown") for k in cluster_figures.FACTS)), ("busy", None),
                       ("busy_reason", None), ("processes", 0), ("figures", OrderedDict())))
    out["facts"].update((("cores", None), ("memory_gib", None)))   # not known until its suite describes the node
    step = "its step ended with exit status %s: %s" % (rc if rc is not None else "unknown", said)
    found = node_suite(node_dir)
    if found is None:
        out["failure"] = "no suite started on the node (%s)" % step
        return out
    suite = loader.load_suite(os.path.join(node_dir, found[1]))
    records, processes, target = _target_records(suite)
    out["facts"] = _facts(suite, records)
    out["facts"]["plan"] = ("target input %s, %d process%s, %d runs" % (target, processes, "" if processes == 1 else "es",
                                                                      len(suite.plan)))[:200]
    out["processes"] = processes
    if not found[2]:
        out["failure"] = "node lost mid-run: %s; suite %s is incomplete after %d of %d runs" % (
            step, found[1], len(set(suite.done)), len(suite.plan))
        return out
    facts = tables.driver_facts(suite)
    failed = sorted(i for i, f in facts.items() if f[0] != "OK")
    if failed:
        first = suite.planned(failed[0])
        out["failure"] = "%d of %d runs FAILED; first: run %d (%s, exit status %s): %s" % (
            len(failed), len(suite.plan), failed[0], first.set_name if first else "?", facts[failed[0]][1],
            run_failure(node_dir, found[1], failed[0]))
        return out
    out["status"] = "complete"
    censuses = [given.census_busy(r.doc) for r in records]   # an older record's by clomp's rule on its figures
    busy = [why for is_busy, why in censuses if is_busy]
    if busy:
        out["busy"] = True
        out["busy_reason"] = for_terminal("%d of %d processes of the target input: %s" % (len(busy), len(records), busy[0]))[:1000]
    elif any(is_busy is False for is_busy, _ in censuses):
        out["busy"] = False
    for fig in catalogue.load().in_set("cluster"):
        out["figures"][fig.key] = _figure(helper, records, fig)
    return out


# ---- gathering ----------------------------------------------------------------------------
def node_bundle(cluster: str, node: str) -> Optional[str]:
    """The path of the bundle its node's suite wrote (CLOMP_<host>_<id>.tar.gz beside its .env), or None."""
    found = node_suite(os.path.join(cluster, "nodes", node))
    path = os.path.join(cluster, "nodes", node, found[1] + ".tar.gz") if found else None
    return path if path and os.path.isfile(path) and not os.path.islink(path) else None


def gather(cluster: str) -> Tuple[int, List[str]]:
    """Summaries, report and bundle of CLUSTER; (exit status, the lines to print)."""
    from . import cluster as cluster_report, cluster_bundle, cluster_nodes, cluster_render
    helper = find_stats_helper()
    nodes = read_nodes(cluster)
    summaries = os.path.join(cluster, "summaries")
    os.close(safe_write.open_dir(summaries, create=True))
    entries = []
    for n in nodes:
        s = node_summary(cluster, n, helper)
        safe_write.write_text(summaries, n + ".json", json.dumps(s, indent=1) + "\n")
        entries.append({"node": n, "status": s["status"], "failure": s["failure"], "summary": s,
                        "bundle": node_bundle(cluster, n)})
    report = cluster_report.analyse(cluster_nodes.read_summaries([os.path.join(summaries, n + ".json") for n in nodes]), helper)
    files = OrderedDict()
    for ext, writer in (("txt", cluster_render.text), ("csv", cluster_render.csv_text), ("json", cluster_render.json_text),
                        ("html", cluster_render.html_text)):
        files["cluster." + ext] = writer(report).encode("utf-8")
        safe_write.write_text(cluster, "cluster." + ext, files["cluster." + ext].decode("utf-8"))
    archive = cluster_bundle.write(cluster, entries, files)
    failed = [e["node"] for e in entries if e["status"] == "failed"]
    said = [cluster_render.text(report).split("\n", 1)[0],
            "Report: %s (.csv .json .html beside it)" % os.path.join(cluster, "cluster.txt"),
            "Cluster bundle: %s (check it with ./clomp_validate)" % archive]
    if failed:
        said.append("Cluster FAILED on %d of %d nodes (%s): run_clomp.sh --nodes all --out %s --resume %s runs what "
                    "is missing" % (len(failed), len(nodes), " ".join(failed), os.path.dirname(os.path.abspath(cluster)),
                                    os.path.basename(os.path.normpath(cluster)).rsplit("_", 1)[1]))
    return (1 if failed else 0), [for_terminal(l) for l in said]


USAGE = "usage: clomp-results nodes open ARGS... | nodes plan CLUSTER NODELIST [all|N] | nodes gather CLUSTER"


def guarded(call, *args) -> Tuple[int, object]:
    """(0, CALL(*ARGS)); or, when it is refused (one line said on stderr), (2, None), or (3, None) when a
    write failed."""
    from ..core import stats_helper
    try:
        return 0, call(*args)
    except (Refused, loader.SuiteError, catalogue.CatalogueError) as e:
        print("run_clomp.sh: %s" % for_terminal(str(e)), file=sys.stderr)
        return 2, None
    except (safe_write.UnsafeTarget, OSError, stats_helper.StatsError) as e:
        print("run_clomp.sh: --nodes: %s" % for_terminal(str(e)), file=sys.stderr)
        return 3, None


def main(argv: List[str]) -> int:
    if argv[:1] == ["open"]:
        from . import cluster_open
        return cluster_open.main(argv[1:])
    if len(argv) in (3, 4) and argv[0] == "plan":
        refused, lines = guarded(plan, argv[1], argv[2], argv[3] if len(argv) == 4 else None)
        if not refused:
            print("\n".join(lines))
        return refused
    if len(argv) == 2 and argv[0] == "gather":
        refused, gathered = guarded(gather, argv[1])
        if refused:
            return refused
        print("\n".join(gathered[1]))
        return gathered[0]
    print(USAGE, file=sys.stderr)
    return 2
