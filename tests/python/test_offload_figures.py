"""The offload figures and the report's offload section
(results/clomp_results/suite/offload_figures.py, html_offload.py), on records
built here: the crossover is the first swept size whose clomp-stats
comparison puts Offload OMP's chunks wholly below Static OMP's, stated with
the bracket of the sizes around it; a slower offload is never a win; no
win at all says "no crossover in the range"; a non-monotone sweep says so;
a host plugin is marked; every value in the HTML is escaped."""
from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import TOP  # noqa: E402
from clomp_results.suite import html_offload, offload_figures as of  # noqa: E402
from clomp_results.core.records import EnvFacts, PlannedRun, RunRecord, Suite  # noqa: E402

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")
DEVICE = "host plugin (x86_64), not an accelerator: device 0 of 4, libomptarget <b>&amp;"


def measurement(key, role, chunks, verification="passed"):
    """A complete measurement whose chunks are CHUNKS (us/Loop), in two rounds."""
    xs = sorted(chunks)
    half = len(chunks) // 2
    return {"key": key, "name": key, "role": role, "selected": True, "valid": True,
            "verification": {"result": verification}, "us_per_loop": xs[len(xs) // 2],
            "statistics": {"n": len(xs), "median_ci_95": [xs[1], xs[-2]]},
            "rounds": [{"round": 1, "chunks": [{"us_per_loop": v} for v in chunks[:half]]},
                       {"round": 2, "chunks": [{"us_per_loop": v} for v in chunks[half:]]}]}


def spread(centre, n=20):
    """n distinct values within +-5% of centre."""
    return [centre * (0.95 + 0.1 * i / (n - 1)) for i in range(n)]


def sweep_record(zones, static_us, offload_us, host_plugin=True, device=DEVICE):
    return {"build": {"offload_device": device, "offload_host_plugin": host_plugin},
            "inputs": {"numParts": 64, "zonesPerPart": zones},
            "measurements": [measurement("static", "checked", spread(static_us)),
                             measurement("offload", "checked", spread(offload_us))]}


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class Crossover(unittest.TestCase):
    def points(self, pairs):
        return [of.SweepPoint(sweep_record(z, s, o), HELPER) for z, s, o in pairs]

    def test_the_crossover_is_bracketed_by_the_last_loss_and_the_first_win(self):
        # Offload 10x slower at 6, equal at 25 (no win: the intervals overlap), 3x faster from 100.
        pts = self.points([(100, 90.0, 30.0), (6, 10.0, 100.0), (25, 20.0, 20.0), (400, 300.0, 100.0)])
        self.assertEqual([p.wins for p in pts], [True, False, False, True])
        text = of.crossover(pts)
        self.assertTrue(text.startswith("crossover between 25 and 100 zones per part"), text)
        self.assertIn("Offload/Static", text)
        self.assertNotIn("not monotone", text)

    def test_a_slower_offload_is_never_a_win_however_clear(self):
        pts = self.points([(6, 10.0, 100.0), (25, 20.0, 60.0)])
        self.assertTrue(all(p.cmp is not None and p.cmp["detected"] for p in pts))
        self.assertFalse(any(p.wins for p in pts))
        self.assertTrue(of.crossover(pts).startswith("no crossover in the range (6..25 zones per part, 64 parts)"))

    def test_a_win_at_the_smallest_size_is_at_or_below_it(self):
        self.assertTrue(of.crossover(self.points([(6, 100.0, 10.0), (25, 100.0, 10.0)])).startswith(
            "crossover at or below 6 zones per part"))

    def test_a_win_that_does_not_hold_at_larger_sizes_is_said(self):
        text = of.crossover(self.points([(6, 10.0, 100.0), (25, 100.0, 10.0), (100, 10.0, 100.0)]))
        self.assertIn("crossover between 6 and 25", text)
        self.assertIn("not again at 100 zones per part (not monotone", text)

    def test_an_unverified_offload_gives_no_comparison(self):
        rec = sweep_record(25, 100.0, 10.0)
        rec["measurements"][1]["verification"]["result"] = "FAILED"
        p = of.SweepPoint(rec, HELPER)
        self.assertFalse(p.wins)
        self.assertIn("verification FAILED", p.comparison_text())


class Section(unittest.TestCase):
    def suite(self, records, facts=None):
        plan, recs = [], {}
        for i, (set_name, doc) in enumerate(records, start=1):
            plan.append(PlannedRun(i, set_name, "", ("2", "-1", "64", "100", "32", "1", "1")))
            recs[i] = RunRecord(i, set_name, "x.json", doc)
        env = EnvFacts(facts=facts or {}, plan=plan)
        return Suite("CLOMP_x_1", "here", env, [], recs, {}, None, None, None, {}, {})

    def test_a_suite_without_offload_runs_says_why_from_its_env(self):
        html = "\n".join(html_offload.offload_section(self.suite([], {"offload device": "none (this binary has <no> offload)"}),
                                                      lambda: HELPER))
        self.assertIn("No offload runs: none (this binary has &lt;no&gt; offload).", html)
        self.assertEqual(html_offload.offload_section(self.suite([]), lambda: HELPER), [])

    @unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
    def test_the_device_is_escaped_and_a_host_plugin_is_marked(self):
        html = "\n".join(html_offload.offload_section(self.suite([("offload_zpp6", sweep_record(6, 10.0, 100.0)),
                                                                  ("offload_zpp25", sweep_record(25, 100.0, 10.0))]),
                                                      lambda: HELPER))
        self.assertIn("libomptarget &lt;b&gt;&amp;amp;", html)
        self.assertNotIn("<b>&amp;", html)
        self.assertIn("not on an accelerator", html)
        self.assertIn("crossover between 6 and 25 zones per part", html)

    def test_a_gpu_is_not_marked_as_a_host_plugin(self):
        rec = {"build": {"offload_device": "NVIDIA H100", "offload_host_plugin": False},
               "constructs": {"rows": [{"construct": "target_atomic", "construct_name": "TARGET ATOMIC",
                                        "levels": [{"level": 1, "status": "measured", "overhead_us": 3.5,
                                                    "overhead_ci95_low_us": 3.0, "overhead_ci95_high_us": 4.0}]}]}}
        html = "\n".join(html_offload.offload_section(self.suite([("offload_probes", rec)]), lambda: HELPER))
        self.assertNotIn("Host plugin", html)
        self.assertIn("TARGET ATOMIC", html)
        self.assertIn("3.5 us [3, 4]", html)


if __name__ == "__main__":
    unittest.main()
