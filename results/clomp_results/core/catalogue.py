"""The catalogue of figures: every figure's key, label, unit, estimator and
the sets of figures each tool shows, from clomp's C table (`clomp
--list-figures --json`, report/figure_catalogue.c; docs/output.md,
"Figures"), asked once per process. No figure list is written here or in
any other module: they ask this one.

- ``figure(key)``: the catalogue's entry of KEY (a key the tools printed
  before issue 43 too: ``canonical``), or None;
- ``in_set(name)``: the figures of a set ("key", "headline", "sweep",
  "replicates", "run", "primary"), in catalogue order;
- ``primary()``: the project's overhead (the primary figure);
- ``measurement_figures(m)``: the figures of one measurement of a record
  (its kinds by role, named from its report name, as clomp names them; a
  measurement this clomp does not have too);
- ``value(doc, path)``: a record member by the catalogue's '.' path.

The binary is $CLOMP, else this tree's ./clomp (made with make when it is
missing), the same tree the package comes from."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Dict, List, Optional

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))))
_CATALOGUE = None


class CatalogueError(Exception):
    """clomp could not give its catalogue (one line)."""


def clomp_binary() -> str:
    exe = os.environ.get("CLOMP") or os.path.join(TOP, "clomp")
    if not os.access(exe, os.X_OK):
        subprocess.run(["make", "-C", TOP, "--no-print-directory", "-s", "clomp"], stdout=sys.stderr, check=False)
        exe = os.path.join(TOP, "clomp")
    return exe


def prefix(name: str) -> str:
    """A measurement's report name as its figures' key prefix: lower case, each run of other characters one
    '_' (clomp's rule: "Static OMP" -> static_omp)."""
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_")


class Figure(dict):
    """One catalogue entry (the JSON's members by name: key, label, unit, better, sets, measurement, kind,
    json, csv, interval, former, ...)."""

    @property
    def key(self) -> str:
        return self["key"]

    @property
    def label(self) -> str:
        return self["label"]

    @property
    def unit(self) -> str:
        return self["unit"]


class Catalogue(object):
    def __init__(self, doc):
        if not isinstance(doc, dict) or doc.get("schema") != "clomp-figures":
            raise CatalogueError("clomp --list-figures --json: not a catalogue of figures")
        self.kinds = [dict(k) for k in doc.get("kinds") or []]
        self.project_overhead = doc.get("project_overhead")
        self.figures = [Figure(f) for f in doc.get("figures") or []]
        self.by_key = dict((f.key, f) for f in self.figures)
        self.formerly = {}
        for f in self.figures:
            for old in f.get("former") or []:
                self.formerly[old] = f.key

    def canonical(self, key: str) -> str:
        """KEY as the catalogue names it now (a key printed before issue 43 mapped to its figure)."""
        return key if key in self.by_key else self.formerly.get(key, key)

    def figure(self, key: str) -> Optional[Figure]:
        return self.by_key.get(self.canonical(key))

    def in_set(self, name: str) -> List[Figure]:
        return [f for f in self.figures if name in (f.get("sets") or [])]

    def primary(self) -> Figure:
        return self.in_set("primary")[0]

    def figure_of(self, measurement: str, suffix: str) -> Optional[Figure]:
        """The figure of kind SUFFIX of this clomp's measurement MEASUREMENT (its key), or None."""
        return next((f for f in self.figures if f.get("measurement") == measurement and f.get("kind") == suffix), None)

    def process_columns(self) -> List[Figure]:
        """The process's own figures that clomp's CSV has a column for (its CPU seconds)."""
        return [f for f in self.figures if not f.get("measurement") and f.get("csv") and (f.get("json") or "").startswith("process_cost.")]

    def runtime_kinds(self) -> List[dict]:
        """The kinds CLOMP 1.2 prints (a text_line: us/Loop, Speedup, Efficacy, Overhead), in its order: the
        .summary's four columns per measurement."""
        return [k for k in self.kinds if k.get("text_line")]

    def kind(self, suffix: str) -> Optional[dict]:
        return next((k for k in self.kinds if k["suffix"] == suffix), None)

    def measurement_figures(self, m: dict, compared_only=False) -> List[Figure]:
        """The per-measurement figures of record measurement M (a JSON measurement), by its role, in kind
        order: the catalogue's own where it has the measurement, else built from the kinds (a measurement
        of another build). The LLNL kind needs the catalogue's entry (its target)."""
        role, key, name = m.get("role"), m.get("key"), m.get("name") or m.get("key") or ""
        every_role = set(k for kind in self.kinds for k in kind.get("roles") or [])
        out = []
        for kind in self.kinds:
            if compared_only and not kind.get("compared"):
                continue
            roles = set(kind.get("roles") or [])
            # A record without a role (none that clomp writes): the kinds every role has, and those it has a value of.
            if role is None and roles != every_role and value(m, kind["json"]) is None:
                continue
            if role is not None and role not in roles:
                continue
            known = next((f for f in self.figures if key and f.get("measurement") == key
                          and f.get("kind") == kind["suffix"]), None)
            if known is not None:
                out.append(known)
            elif kind["suffix"] != "llnl_target_cycles" and key and any(f.get("measurement") == key for f in self.figures):
                continue   # a kind this measurement does not have here (a delay probe's Runtime)
            elif kind["json"] == "runtime_us_per_loop" and m.get("delay"):
                continue   # as clomp: a delay probe's Runtime is EPCC's difference of two runtimes
            elif kind["suffix"] != "llnl_target_cycles":
                out.append(Figure(key="%s_%s" % (prefix(name), kind["suffix"]), label="%s %s" % (name, kind["label"]),
                                  unit=kind["unit"], better=kind["better"], sets=[], measurement=key, kind=kind["suffix"],
                                  json=kind["json"], csv=kind["csv"], interval=kind.get("interval"), former=[]))
        return out


def load() -> Catalogue:
    """The catalogue, asked of clomp once per process."""
    global _CATALOGUE
    if _CATALOGUE is None:
        exe = clomp_binary()
        try:
            done = subprocess.run([exe, "--list-figures", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise CatalogueError("%s --list-figures --json could not run: %s" % (exe, e))
        if done.returncode != 0:
            raise CatalogueError("%s --list-figures --json failed (exit %d): %s" % (
                exe, done.returncode, done.stderr.decode("utf-8", "replace").strip()[:200]))
        try:
            _CATALOGUE = Catalogue(json.loads(done.stdout.decode("utf-8", "replace")))
        except ValueError as e:
            raise CatalogueError("%s --list-figures --json: not JSON (%s)" % (exe, e))
    return _CATALOGUE


def value(doc, path: Optional[str]):
    """The member of DOC at the '.' PATH (None where any level is missing)."""
    if not path:
        return None
    for part in path.split("."):
        if not isinstance(doc, dict):
            return None
        doc = doc.get(part)
    return doc


def described(set_name: str):
    """(key, label, unit, what it measures and how) of every figure of set SET_NAME, in order (the sweep's
    tables and page: sweep_report, sweep_page)."""
    return [(f.key, f.label, f.unit, "%s: %s" % (f["measures"], f["estimator"])) for f in load().in_set(set_name)]


def by_key(figures) -> Dict[str, Figure]:
    return dict((f.key, f) for f in figures)
