"""What the cluster report reads: per-node summaries, one small JSON file
per node, or one clomp_mpi record whose ranks stand for nodes
(`mpi.per_rank`). Both come out as the same Node, one at a time (a reader
never holds more than one node's file), so that the report of 1,000 nodes
holds 1,000 small Nodes and never their run records (docs/cluster.md).

A per-node summary (schema 1), what `run_clomp.sh --nodes` writes per node:

    {"clomp_node_summary": 1,
     "node": "n0042",                       the node's name (1 to 128 characters, no control characters;
                                            every other text may hold any: shown escaped, safe_text)
     "status": "complete" | "failed",
     "failure": null | "why it failed",
     "facts": {"cpu_model": "...", "cores": 64, "memory_gib": 256, "runtime": "...", "plan": "..."},
                                            (cores, memory_gib null: not known)
     "busy": true | false | null,           its own noise census (null: not probed)
     "busy_reason": null | "...",
     "processes": 6,                        processes per figure (the intervals are between them)
     "figures": {"serial_ref_median_us_per_loop": {"median": 10.2, "ci_low": 10.1, "ci_high": 10.4}, ...}}

Figures are the catalogue's cluster set (cluster_figures.keys(); the keys
issue 50's summaries used, serial_us and the like, are read as their
figures); a figure absent or with a null median has
no value (not measured, or not a result); ci_low/ci_high null: no interval.
Anything else is refused (Refused: one line naming the file and the rule).
"""
from __future__ import annotations

import json
import math
import os
import stat
from collections import namedtuple
from typing import Iterator, List, Optional

from ..core import catalogue
from . import cluster_figures
from ..core.safe_io import MiB, Refused, for_terminal, has_controls, read_bounded

SUMMARY_BYTES = 256 * 1024          # one node's summary: a few hundred bytes in practice
RECORD_BYTES = 512 * MiB            # one clomp_mpi record: about 5 KB per rank
MAX_TEXT = 200

# facts: a tuple in cluster_figures.FACTS order; figures: key -> (value, half-width) with None for
# none; interval: what the half-widths are the intervals of (the report says it).
Node = namedtuple("Node", "name status failure facts busy busy_reason figures interval source")


def _text(v, what: str, where: str, limit: int = MAX_TEXT) -> str:
    """A name (a node's, a host's): 1 to LIMIT printable characters, else Refused."""
    if not isinstance(v, str) or not (1 <= len(v) <= limit) or has_controls(v):
        raise Refused("%s: %s is not a text of 1 to %d printable characters" % (where, what, limit))
    return v


def _said(v, what: str, where: str, limit: int = MAX_TEXT) -> str:
    """What a node says (its CPU model, runtime, plan, failure, busy reason): 1 to LIMIT characters, else
    Refused; any character, as in every other bundle's field: the report escapes each where it writes it
    (safe_text: for_terminal in the text, no_controls in the CSV, JSON's own escapes)."""
    if not isinstance(v, str) or not (1 <= len(v) <= limit):
        raise Refused("%s: %s is not a text of 1 to %d characters" % (where, what, limit))
    return v


def _finite(v, what: str, where: str) -> Optional[float]:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        raise Refused("%s: %s is not a finite number or null" % (where, what))
    return float(v)


def _fact(v, name: str, where: str):
    if v is None and name in ("cores", "memory_gib"):
        return 0   # not known (a node that failed before its suite described it): grouped as such, never shown
    if name in ("cores",):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10 ** 7:
            raise Refused("%s: facts.%s is not a whole number of cores" % (where, name))
        return v
    if name == "memory_gib":
        x = _finite(v, "facts.memory_gib", where)
        if x is None or x <= 0:
            raise Refused("%s: facts.memory_gib is not a size above 0" % where)
        return int(round(x))   # MemTotal varies by a few MB with the firmware: compared to the GiB
    return _said(v, "facts." + name, where)


def summary_node(doc, where: str) -> Node:
    """The Node of one parsed summary; Refused when it is not one."""
    if not isinstance(doc, dict) or doc.get("clomp_node_summary") != 1:
        raise Refused("%s: not a clomp node summary (no \"clomp_node_summary\": 1)" % where)
    name = _text(doc.get("node"), "node", where, 128)
    status = doc.get("status")
    if status not in ("complete", "failed"):
        raise Refused("%s: status is neither \"complete\" nor \"failed\"" % where)
    failure = None if doc.get("failure") is None else _said(doc.get("failure"), "failure", where, 1000)
    if status == "failed" and failure is None:
        raise Refused("%s: a failed node without its failure" % where)
    facts = doc.get("facts")
    if not isinstance(facts, dict) or any(k not in facts for k in cluster_figures.FACTS):
        raise Refused("%s: facts must have %s" % (where, ", ".join(cluster_figures.FACTS)))
    fact_values = tuple(_fact(facts[k], k, where) for k in cluster_figures.FACTS)
    busy = doc.get("busy")
    if busy not in (True, False, None):
        raise Refused("%s: busy is not true, false or null" % where)
    reason = None if doc.get("busy_reason") is None else _said(doc.get("busy_reason"), "busy_reason", where, 1000)
    figures = doc.get("figures")
    if isinstance(figures, dict):   # a key the figure had before the catalogue named it is read as its figure
        cat = catalogue.load()
        figures = dict((cat.canonical(k) if isinstance(k, str) else k, v) for k, v in figures.items())
    if not isinstance(figures, dict) or any(k not in cluster_figures.by_key() for k in figures):
        raise Refused("%s: figures must be an object of %s" % (where, ", ".join(cluster_figures.keys())))
    values = {}
    for key in cluster_figures.keys():
        f = figures.get(key)
        if f is None:
            values[key] = (None, None)
            continue
        if not isinstance(f, dict):
            raise Refused("%s: figures.%s is not an object" % (where, key))
        median = _finite(f.get("median"), "figures.%s.median" % key, where)
        low = _finite(f.get("ci_low"), "figures.%s.ci_low" % key, where)
        high = _finite(f.get("ci_high"), "figures.%s.ci_high" % key, where)
        if (low is None) != (high is None) or (low is not None and not low <= high):
            raise Refused("%s: figures.%s: ci_low and ci_high are not an interval" % (where, key))
        values[key] = (median, None if low is None or median is None else 0.5 * (high - low))
    return Node(name, status, failure, fact_values, busy, reason, values, "between the node's processes", where)


def summary_files(paths: List[str]) -> Iterator[str]:
    """The summary files PATHS name: a file itself, a directory its *.json files (sorted, not below)."""
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError as e:
            raise Refused("%s: cannot be read (%s)" % (for_terminal(path), e.strerror))
        if stat.S_ISDIR(st.st_mode):
            for name in sorted(os.listdir(path)):
                if name.endswith(".json"):
                    yield os.path.join(path, name)
        else:
            yield path


def read_summaries(paths: List[str]) -> Iterator[Node]:
    """Every node summary of PATHS, one file at a time (read with O_NOFOLLOW, bounded)."""
    for path in summary_files(paths):
        where = for_terminal(path)
        raw = read_bounded(path, SUMMARY_BYTES, what=path)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise Refused("%s: not JSON (%s)" % (where, for_terminal(str(e))[:200]))
        yield summary_node(doc, where)


def record_ranks(path: str) -> Iterator[Node]:
    """The ranks of one clomp_mpi record (mpi.per_rank) as nodes: a rank's host and rank are its name, its
    CPUs its cores, its own noise census its busy verdict, its figures with their intervals within its
    process. The run's runtime and inputs are every rank's, so only the CPU count groups them."""
    where = for_terminal(path)
    try:
        doc = json.loads(read_bounded(path, RECORD_BYTES, what=path).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise Refused("%s: not JSON (%s)" % (where, for_terminal(str(e))[:200]))
    mpi = doc.get("mpi") if isinstance(doc, dict) else None
    ranks = mpi.get("per_rank") if isinstance(mpi, dict) else None
    if not isinstance(ranks, list) or not ranks:
        raise Refused("%s: not a clomp_mpi record (no mpi.per_rank)" % where)
    failed = doc.get("status") not in ("ok", "complete") or doc.get("exit_status") not in (0, None)
    failure = None
    if failed:
        failure = "the run ended: %s" % (doc.get("failure") if isinstance(doc.get("failure"), str) else "failed")
    for r in ranks:
        if not isinstance(r, dict) or isinstance(r.get("rank"), bool) or not isinstance(r.get("rank"), int):
            raise Refused("%s: an mpi.per_rank entry without its rank" % where)
        host = _text(r.get("host"), "mpi.per_rank[%d].host" % r["rank"], where, 128)
        cores = r.get("cpu_count") if isinstance(r.get("cpu_count"), int) else 0
        busy = r.get("noise_busy") if r.get("noise_busy") in (True, False) else None
        reason = r.get("noise_busy_reason") if isinstance(r.get("noise_busy_reason"), str) else None
        yield Node("%s (rank %d)" % (host, r["rank"]), "failed" if failed else "complete", failure,
                   ("", cores, 0, "", ""), busy, reason, cluster_figures.rank_figures(r.get("measurements")),
                   "within the rank's process (its chunks)", where)
