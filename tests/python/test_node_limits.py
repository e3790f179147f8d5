"""Issue 48: the suite page's "Node limits" (results/clomp_results/node_limits.py), from the one run whose
record has a limits block: every figure of the catalogue's limits set that the run measured, with its
interval (bounds rounded outward), "not a result" and why for one its run marked invalid, "no result" on a
busy machine, nothing for a class the team does not span, and "Not measured" without such a run. Record
strings are escaped."""
from __future__ import annotations

import os
import sys
import unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results"))
from clomp_results import catalogue, node_limits  # noqa: E402


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

    def test_without_a_limits_run_the_section_says_not_measured(self):
        html = "\n".join(node_limits.html_section(suite_with(None)))
        self.assertIn("Not measured: no run of this suite asked for <code>clomp --limits</code>", html)
        self.assertNotIn("<table>", html)


if __name__ == "__main__":
    unittest.main()
