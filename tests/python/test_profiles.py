"""Issue 49, item 1: clomp --caliper-json's profile against the run's own
JSON record, read as plain JSON (no Hatchet: tests/hatchet.t reads a
suite's profiles with Hatchet itself), and the validator's check of a
profile against its record (profile_check.py), which must name every
forgery. tests/caliper.t runs clomp once (2 threads, --constructs,
--limits) and gives its files in CLOMP_PROFILE_DIR: profile.cali.json and
record.json of the same process.

The oracle is what each column means (docs/harnesses.md), written here
by hand from the record's members: not the writer's own column table."""
from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "results"))
from clomp_results.bundle import profile_check  # noqa: E402
from clomp_results.core.records import RunRecord  # noqa: E402

DIR = os.environ.get("CLOMP_PROFILE_DIR", "")
NAME = "CLOMP_test_1"
REL = NAME + "_key.run1.cali.json"


def load(name):
    with open(os.path.join(DIR, name)) as f:
        return json.load(f)


# A measurement's columns and the record's members they mean.
MEASUREMENT = {"runtime_seconds": ("runtime_seconds",), "us_per_loop": ("runtime_us_per_loop",),
               "median_us_per_loop": ("us_per_loop",), "median_us_per_loop_ci_low": ("statistics", "median_ci_95", 0),
               "median_us_per_loop_ci_high": ("statistics", "median_ci_95", 1), "speedup": ("runtime_speedup",),
               "median_speedup": ("speedup",), "efficacy_percent": ("runtime_efficacy_percent",),
               "median_efficacy_percent": ("efficacy_percent",), "overhead_us": ("runtime_overhead_us_per_loop",),
               "median_overhead_us": ("overhead_us_per_loop",), "median_overhead_us_ci_low": ("overhead_ci_95", 0),
               "median_overhead_us_ci_high": ("overhead_ci_95", 1), "median_speedup_ci_low": ("speedup_ci_95", 0),
               "median_speedup_ci_high": ("speedup_ci_95", 1), "threads": ("threads",), "valid": ("valid",),
               "verified_chunks": ("verification", "verified_chunks")}
UNITS = {"runtime_seconds": "s", "us_per_loop": "us", "median_us_per_loop": "us", "speedup": "x",
         "efficacy_percent": "%", "median_overhead_us": "us", "llnl_target_cycles": "cycles",
         "construct_overhead_us": "us", "limits_ns": "ns", "limits_cycles": "cycles"}


def dig(obj, path):
    for step in path:
        obj = obj[step] if obj is not None else None
    return obj


def same(cell, value):
    if isinstance(value, bool):
        return cell == int(value)
    return cell == value


@unittest.skipUnless(DIR, "CLOMP_PROFILE_DIR not set: run through tests/caliper.t")
class ProfileAgainstRecord(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.p, cls.r = load("profile.cali.json"), load("record.json")
        cls.columns = cls.p["columns"]
        cls.rows = {row[cls.columns.index("path")]: row for row in cls.p["data"]}
        cls.paths = []
        for node in cls.p["nodes"]:
            parent = node.get("parent")
            cls.paths.append((cls.paths[parent] if parent is not None else ()) + (node["label"],))

    def cell(self, path, column):
        return self.rows[self.paths.index(path)][self.columns.index(column)]

    def test_it_is_caliper_json_split_with_a_path_column_and_units(self):
        self.assertTrue({"data", "columns", "column_metadata", "nodes"} <= set(self.p))
        self.assertEqual(self.columns[0], "path")
        self.assertIs(self.p["column_metadata"][0]["is_value"], False)
        for name, meta in zip(self.columns[1:], self.p["column_metadata"][1:]):
            self.assertIs(meta["is_value"], True, name)
            self.assertTrue(meta.get("attribute.unit"), name)
        for name, unit in UNITS.items():
            self.assertEqual(self.p["column_metadata"][self.columns.index(name)]["attribute.unit"], unit, name)

    def test_every_node_has_one_row_and_parents_come_first(self):
        self.assertEqual(sorted(self.rows), list(range(len(self.p["nodes"]))))
        for i, node in enumerate(self.p["nodes"]):
            self.assertTrue(i == 0 and "parent" not in node or 0 <= node["parent"] < i, node)

    def test_the_tree_is_the_records_measurements_constructs_and_limits(self):
        want = [("clomp",)] + [("clomp", m["name"]) for m in self.r["measurements"]]
        self.assertEqual(self.paths[:len(want)], want)
        rows = self.r["constructs"]["rows"]
        for level, name in ((0, "level 1"), (-1, "level 2")):
            under = [p[3] for p in self.paths if p[:3] == ("clomp", "constructs", name) and len(p) == 4]
            self.assertEqual(under, [row["construct_name"] for row in rows if row["levels"]], name)
            self.assertEqual(rows[0]["levels"][level]["level"], 1 if level == 0 else 2)
        limits = [p[2] for p in self.paths if p[:2] == ("clomp", "limits") and len(p) == 3]
        self.assertEqual(limits, list(self.r["limits"]["figures"]))

    def test_each_measurements_figures_are_its_records(self):
        for m in self.r["measurements"]:
            for column, path in MEASUREMENT.items():
                self.assertTrue(same(self.cell(("clomp", m["name"]), column), dig(m, path)), (m["name"], column))
        ran = [m for m in self.r["measurements"] if m["us_per_loop"] is not None]
        self.assertGreaterEqual(len(ran), 4, "serial, bestcase, static and the barrier ran")

    def test_the_measurement_columns_are_the_catalogues_kinds(self):
        """Each kind of `clomp --list-figures --json` is a column named by its suffix, with its unit, its label
        and its record member; every catalogue figure of a measurement that ran, its key the node's prefix and
        the column, is that cell (read by the catalogue's own member path)."""
        top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        doc = json.loads(subprocess.run([os.environ.get("CLOMP") or os.path.join(top, "clomp"), "--list-figures",
                                         "--json"], stdout=subprocess.PIPE, check=True).stdout)
        meta = dict(zip(self.columns, self.p["column_metadata"]))
        for kind in doc["kinds"]:
            m = meta.get(kind["suffix"])
            self.assertIsNotNone(m, kind["suffix"])
            self.assertEqual((m["attribute.unit"], m["attribute.alias"], m["clomp.record"].get("measurement")),
                             (kind["unit"], kind["label"], kind["json"]), kind["suffix"])
        by_prefix = {re.sub(r"[^a-z0-9]+", "_", m["name"].lower()).strip("_"): m for m in self.r["measurements"]}
        seen = 0
        for fig in doc["figures"]:
            m = by_prefix.get(fig["key"][:-len(fig["kind"]) - 1]) if fig["kind"] else None
            if m is None or m["us_per_loop"] is None:
                continue
            path = fig["json"].split(".")
            want = dig(self.r if path[0] == "llnl_targets" else m, path)
            self.assertTrue(same(self.cell(("clomp", m["name"]), fig["kind"]), want), fig["key"])
            seen += 1
        self.assertGreaterEqual(seen, 20, "the figures of serial, bestcase, static and the barrier")

    def test_the_judged_llnl_target_has_its_cycles_and_only_it(self):
        judged = {t["measurement"]: t["cycles"] for t in self.r["llnl_targets"].values() if t and "target_below" in t}
        self.assertIn("barrier", judged)
        for m in self.r["measurements"]:
            self.assertEqual(self.cell(("clomp", m["name"]), "llnl_target_cycles"), judged.get(m["key"]), m["name"])

    def test_construct_rows_carry_their_levels_overhead_and_teams(self):
        for row in self.r["constructs"]["rows"]:
            level = row["levels"][0]
            path = ("clomp", "constructs", "level 1", row["construct_name"])
            self.assertEqual(self.cell(path, "construct_overhead_us"), level["overhead_us"])
            self.assertEqual(self.cell(path, "inner_threads"), level["inner_threads"])
            self.assertIsNone(self.cell(path, "median_us_per_loop"))

    def test_limits_figures_sit_in_the_column_of_their_unit(self):
        for key, figure in self.r["limits"]["figures"].items():
            path = ("clomp", "limits", key)
            self.assertEqual(self.cell(path, "limits_" + figure["unit"]), figure["value"], key)
            self.assertEqual(self.cell(path, "valid"), int(figure["valid"]), key)
            others = [u for u in ("ns", "cycles", "x") if u != figure["unit"]]
            self.assertEqual([self.cell(path, "limits_" + u) for u in others], [None, None], key)

    def test_the_metadata_is_the_records_and_adiaks_names(self):
        p, r = self.p, self.r
        self.assertEqual(p["hostname"], r["host"])
        self.assertEqual(p["cluster"], "".join(c for c in r["host"].split(".")[0] if not c.isdigit()))
        self.assertEqual((p["jobsize"], p["numhosts"]), (1, 1))
        self.assertEqual(p["threads"], r["resolved"]["numThreads"])
        self.assertEqual([p[k] for k in ("numThreads", "numParts", "zonesPerPart", "timeScale")],
                         [r["inputs"][k] for k in ("numThreads", "numParts", "zonesPerPart", "timeScale")])
        self.assertEqual((p["compiler"], p["compiler_flags"]), (r["build"]["compiler"], r["build"]["cflags"]))
        self.assertEqual((p["openmp_runtime"], p["openmp_version"]), (r["ompt"]["runtime"], r["build"]["openmp"]))
        self.assertEqual(p["OMP_WAIT_POLICY"], r["openmp_environment"]["OMP_WAIT_POLICY"])
        self.assertEqual(p["noise_busy"], r["noise_census"]["busy"])
        self.assertEqual(p["cmdline"], r["invocation"])
        self.assertEqual(p["launchdate"], int(time.mktime(time.strptime(r["start_time"], "%a %b %d %H:%M:%S %Y"))))
        self.assertEqual(p["invalid_measurements"], sum(1 for m in r["measurements"] if m["valid"] is False))
        self.assertEqual(p["threads_bound"], r["numa"]["thread_placement"]["unbound_threads"] == 0)
        self.assertRegex(p["clomp_commit"], r"^([0-9a-f]{12}(-dirty)?|unknown)$")


class FakeSuite:
    """What profile_check reads of a suite: its name, files and records."""

    def __init__(self, records, files):
        self.name, self.records, self.files = NAME, records, files

    def record(self, run):
        return self.records.get(run)


@unittest.skipUnless(DIR, "CLOMP_PROFILE_DIR not set: run through tests/caliper.t")
class ValidatorCheck(unittest.TestCase):
    def setUp(self):
        self.p, self.rec = load("profile.cali.json"), RunRecord(1, "key", NAME + "_key.run1.json", load("record.json"))

    def reasons(self, profile=None, text=None):
        said = []
        profile_check.check_one(self.rec, REL, text if text is not None else json.dumps(profile or self.p), said.append)
        return said

    def node(self, label):
        return [n["label"] for n in self.p["nodes"]].index(label)

    def set_cell(self, label, column, value):
        for row in self.p["data"]:
            if row[0] == self.node(label):
                row[self.p["columns"].index(column)] = value

    def test_the_profile_clomp_wrote_agrees_with_its_record(self):
        self.assertEqual(self.reasons(), [])

    def test_a_forged_figure_is_named_with_its_node_and_column(self):
        self.set_cell("Static OMP", "median_overhead_us", 0.001)
        said = self.reasons()
        self.assertEqual(len(said), 1, said)
        self.assertIn("Static OMP, median_overhead_us is 0.001", said[0])

    def test_a_figure_on_a_node_its_column_does_not_name_is_a_reason(self):
        self.set_cell("constructs", "median_us_per_loop", 1.0)
        self.assertIn("constructs, median_us_per_loop is 1.0", " ".join(self.reasons()))

    def test_a_renamed_node_is_missing_and_unknown(self):
        self.p["nodes"][self.node("Static OMP")]["label"] = "Static OMQ"
        said = " ".join(self.reasons())
        self.assertIn("the record's clomp -> Static OMP has no node", said)
        self.assertIn("node clomp -> Static OMQ is not in the record", said)

    def test_forged_metadata_and_openmp_variables_are_named(self):
        self.p["threads"], self.p["OMP_PROC_BIND"] = 64, "close"
        said = " ".join(self.reasons())
        self.assertIn("its metadata threads is 64", said)
        self.assertIn("OpenMP variables (OMP_PROC_BIND OMP_WAIT_POLICY)", said)

    def test_a_column_that_hides_its_member_is_a_reason(self):
        del self.p["column_metadata"][self.p["columns"].index("median_overhead_us")]["clomp.record"]
        self.assertIn("column median_overhead_us does not say which record member it is", " ".join(self.reasons()))

    def test_broken_forms_are_one_line_each_never_a_traceback(self):
        cases = {"not JSON": "{", "not a Caliper json-split profile": "[]", "not JSON (maximum recursion": "[" * 100000}
        p = copy.deepcopy(self.p)
        p["nodes"] = p["nodes"] * (profile_check.MAX_CELLS // len(p["columns"]) // len(p["nodes"]) + 1)
        cases["more than any profile clomp writes"] = json.dumps(p)
        p = copy.deepcopy(self.p)
        p["data"].pop()
        cases["1 nodes have no data row"] = json.dumps(p)
        p = copy.deepcopy(self.p)
        p["nodes"][1]["parent"] = 5
        cases["node 1's parent is not an earlier node"] = json.dumps(p)
        p = copy.deepcopy(self.p)
        p["data"][0] = p["data"][0][:3]
        cases["a data row is not one node's row"] = json.dumps(p)
        for want, text in cases.items():
            said = self.reasons(text=text)
            self.assertEqual(len(said), 1, (want, said))
            self.assertIn(want, said[0])

    def test_a_profile_without_its_record_and_a_record_without_its_profile_are_reasons(self):
        text = json.dumps(self.p)
        other = RunRecord(2, "key", NAME + "_key.run2.json", self.rec.doc)
        suite = FakeSuite({1: self.rec, 2: other}, {REL: 1, NAME + "_6400zones.run3.cali.json": 1})
        said = []
        profile_check.check_profiles(suite, lambda rel: text, said.append)
        self.assertEqual(len(said), 2, said)
        self.assertIn("a profile of run 3 (6400zones), which has no record", said[0])
        self.assertIn("CLOMP_test_1_key.run2.json has no profile", said[1])
        said = []
        profile_check.check_profiles(FakeSuite({1: self.rec}, {NAME + "_key.run1.json": 1}), lambda rel: text, said.append)
        self.assertEqual(said, [], "a suite before issue 49 carries no profile: nothing to say")


if __name__ == "__main__":
    unittest.main()
