"""Issue 48: the suite page's "Node limits" (results/clomp_results/grain/node_limits.py), from the one run whose
record has a limits block: every figure of the catalogue's limits set that the run measured, with its
interval (bounds rounded outward), "not a result" and why for one its run marked invalid, "no result" on a
busy machine, nothing for a class the team does not span (busy or not), "not a result" and the failure for a
run whose references failed their check, and "Not measured" without such a run. Record strings are escaped."""
from __future__ import annotations

import os
import sys
import unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results"))
from clomp_results.core import catalogue  # noqa: E402
from clomp_results.grain import node_limits  # noqa: E402


def suite_with(limits):
    """A stand-in suite: run 1 a key run without limits, run 2 the construct run with LIMITS (None: none)."""
    docs = {1: {"measurements": []}, 2: {"limits": limits} if limits is not None else {}}
    return SimpleNamespace(plan=[SimpleNamespace(index=i) for i in (1, 2)],
                           record=lambda i: SimpleNamespace(doc=docs[i]))


FIGURES = {"barrier_multiple": {"value": 2.75, "ci_95": [2.5, 3.125], "valid": True},
           "omp_barrier_ns": {"value": 812.0, "ci_95": None, "valid": False, "not_a_result": "a <b>few</b> took most"}}


class NodeLimitsSection(unittest.TestCase):
    def test_every_figure_the_run_measured_with_its_interval_and_catalogue_label(self):
        html = "\n".join(node_limits.html_section(suite_with({"threads": 2, "busy": False, "figures": FIGURES})))
        cat = catalogue.load()
        self.assertIn('<h2 id="node-limits">Node limits</h2>', html)
        self.assertIn("run 2", html)
        self.assertIn("<td>%s</td><td>2.75 [2.5..3.13]</td>" % cat.figure("limits_barrier_multiple").label, html)
        self.assertIn("not a result: a &lt;b&gt;few&lt;/b&gt; took most", html)
        self.assertNotIn("<b>few", html)
        rows = html.count("<tr><td>")
        self.assertEqual(rows, 2, "only the figures the run measured (no SMT or socket classes here)")

    def test_a_busy_run_gives_no_result_and_says_why(self):
        html = "\n".join(node_limits.html_section(suite_with({"threads": 2, "busy": True, "busy_reason": "lost 91%",
                                                                "figures": FIGURES})))
        self.assertEqual(html.count("no result: the machine was busy (lost 91%)"), len(catalogue.load().in_set("limits")))

    def test_a_busy_two_cpu_run_lists_only_the_classes_its_team_spans(self):
        classes = {"smt": {"pairs": 0}, "l3": {"pairs": 1}, "socket": {"pairs": 0}, "cross_socket": {"pairs": 0},
                   "unknown": {"pairs": 0}, "same_cpu": {"pairs": 0}}
        html = "\n".join(node_limits.html_section(suite_with({"threads": 2, "busy": True, "busy_reason": "lost 91%",
                                                                "classes": classes, "figures": FIGURES})))
        cat = catalogue.load()
        for absent in ("limits_round_trip_smt_ns", "limits_round_trip_socket_ns", "limits_round_trip_cross_socket_ns"):
            self.assertNotIn(">%s<" % cat.figure(absent).label, html, absent)
        self.assertIn(">%s<" % cat.figure("limits_round_trip_l3_ns").label, html)
        self.assertEqual(html.count("no result: the machine was busy (lost 91%)"), len(cat.in_set("limits")) - 3)

    def test_the_paragraph_says_what_each_kind_of_figure_shows(self):
        html = "\n".join(node_limits.html_section(suite_with({"threads": 2, "busy": False, "figures": FIGURES})))
        self.assertIn("the least, the median and the greatest over the valid pairs", html)
        self.assertIn("no interval", html)
        self.assertIn("the median over the repetitions, its 95% order-statistic interval over those repetitions", html)

    def test_a_run_whose_reference_failed_its_check_is_not_a_result_and_says_why(self):
        why = "Dissemination, repetition 3: slot <1> held 7"
        html = "\n".join(node_limits.html_section(suite_with({"threads": 2, "busy": False, "failure": why,
                                                                "figures": FIGURES})))
        self.assertIn("<p>Not a result: Dissemination, repetition 3: slot &lt;1&gt; held 7</p>", html)
        self.assertNotIn("<table>", html)
        self.assertNotIn("not measured at this team", html)
        run = suite_with({"threads": 2, "busy": False, "failure": why, "figures": FIGURES})
        fig = catalogue.load().figure("limits_barrier_multiple")
        self.assertEqual(node_limits.figure_cell(run.record(2).doc, fig), (None, "not a result: " + why))

    def test_a_failed_run_with_an_empty_limits_block_is_not_a_result(self):
        docs = {1: {"measurements": []}, 2: {"limits": {"threads": 2, "failure": None, "figures": None},
                                             "failure": "out of memory for --limits' 2 threads' pairs"}}
        suite = SimpleNamespace(plan=[SimpleNamespace(index=i) for i in (1, 2)], record=lambda i: SimpleNamespace(doc=docs[i]))
        html = "\n".join(node_limits.html_section(suite))
        self.assertIn("Not a result: out of memory for --limits&#x27; 2 threads&#x27; pairs", html)

    def test_without_a_limits_run_the_section_says_not_measured(self):
        html = "\n".join(node_limits.html_section(suite_with(None)))
        self.assertIn("Not measured: no run of this suite asked for <code>clomp --limits</code>", html)
        self.assertNotIn("<table>", html)


class ForgedGrainDocument(unittest.TestCase):
    def test_fields_of_the_wrong_type_give_a_cell_never_a_traceback(self):
        # A bundle's SUITE_grain.json may hold anything: each malformed field is read as absent.
        cases = [({"half_efficiency": [1]}, "n/a"), ({"half_efficiency": {"decided": True, "metg_us": "x"}}, "n/a"),
                 ({"half_efficiency": {"decided": True, "metg_us": {"value": 3.0, "ci_95": ["a", "b"]}, "zones": 5}},
                  "<= 3 us")]
        for fields, starts in cases:
            doc = {"schema": "clomp-grain", "schedules": [{"schedule": "static", "teams": [dict(threads=2, **fields)]}]}
            got = node_limits.metg_cell(doc, 2, "S")
            self.assertTrue(got["text"].startswith(starts), (fields, got["text"]))
            self.assertIsNone(got["low"], fields)


if __name__ == "__main__":
    unittest.main()
