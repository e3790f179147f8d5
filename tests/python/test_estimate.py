"""The suite's cost model (results/clomp_results/core/estimate.py) against figures
worked out by hand from docs/suite.md's model, and the dry run's listing: each
run's bytes (parts x zones x zone size + 72 per part), the total the sum of the
estimates, an unknown one when EXE is not built."""
from __future__ import annotations

import json
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results"))
from clomp_results.suite import calibration  # noqa: E402
from clomp_results.core import estimate  # noqa: E402

VM = {"ZONE_NS_CACHED": 1.25, "ZONE_NS_MEMORY": 1.6, "MEMORY_SPEEDUP": 0.8, "REGION_US": 1.0, "PROBE_US": 0.35,
      "BUILD_NS_PER_BYTE": 1.0, "SETUP_NS_PER_BYTE": 0.15, "PROCESS_SECONDS": 0.05}
# The default sequence as clomp --list-schedules lists it, cut to what the model counts:
# Serial Ref, Bestcase and three checked on the team, one nested, three team probes, one probe on one thread.
SCHEDULES = ([{"role": "reference", "runs": "default", "threads": "one"}]
             + [{"role": r, "runs": "default", "threads": "team"} for r in ("bestcase", "checked", "checked", "checked")]
             + [{"role": "checked", "runs": "default", "threads": "nested"}]
             + [{"role": "probe", "runs": "default", "threads": "team"}] * 3
             + [{"role": "probe", "runs": "default", "threads": "one"}, {"role": "checked", "runs": "optional",
                                                                        "threads": "team"}])
CONSTRUCTS = [{"key": "barrier", "kind": "sync", "parameter": "-"}, {"key": "single", "kind": "sync", "parameter": "-"},
              {"key": "static", "kind": "loop", "parameter": "-"}, {"key": "dynamic_n", "kind": "loop", "parameter": "n"},
              {"key": "atomic", "kind": "sync", "parameter": "-"}]


class Model(unittest.TestCase):
    def setUp(self):
        self.model = estimate.Model(VM, 2, SCHEDULES, CONSTRUCTS)

    def test_counts_the_default_sequence_by_role_and_threads(self):
        self.assertEqual((self.model.serial, self.model.team, self.model.nested, self.model.probes), (1, 4, 1, 3))

    def test_target_input_on_two_threads(self):
        # 6400 zones, timeScale 100: 15625 iterations, 1e9 updates at 1.25 ns; Serial Ref 1.25 s, the 4 team
        # measurements 2.5 s on 2 threads, regions 156250 x 4 x 1 us, probes 156250 x 3 x 0.35 us: 4.5390625 s;
        # untimed 5 x (warm-up 0.00016 + 22 passes of 4e-6) + 204800 B x 1.15 ns + 0.05 s = 0.0514755 s.
        self.assertEqual(self.model.mesh_exact([2, -1, 64, 100, 32, 1, 100]), 4.6)
        self.assertEqual(self.model.run("key", "2 -1 64 100 32 1 100".split(), []), 5)

    def test_one_thread_costs_more_than_two_and_a_nested_measurement_joins_at_four(self):
        one, two = (self.model.mesh_exact([t, -1, 64, 10000, 32, 1, 100]) for t in (1, 2))
        self.assertGreater(one, two)
        without = estimate.Model(VM, 8, SCHEDULES[:5] + SCHEDULES[6:], CONSTRUCTS).mesh_exact([4, -1, 64, 100, 32, 1, 100])
        self.assertGreater(estimate.Model(VM, 8, SCHEDULES, CONSTRUCTS).mesh_exact([4, -1, 64, 100, 32, 1, 100]), without)

    def test_construct_run_from_its_own_options(self):
        # 3 sync rows x (2 x 6 + 4) x max(2 x 50, 10 x 35) us = 16800 us (each repetition's count twice the
        # one that reached the time, as EPCC's; the calibration times each count 3 times); loop rows: static
        # once, dynamic_n per chunk (3) = 4 x (2 x 6 + 1) x (128 x 2 x 0.2 + 128 x 0.2) us = 3993.6 us;
        # + 0.05 s: 0.0708 s -> at least 1.
        opts = ("--constructs=barrier,single,atomic,static,dynamic_n --schedules=serial --construct-reps=6 "
                "--construct-time=50 --construct-loop-delay=0.2 --construct-chunks=1,8,64 ")
        self.assertEqual(self.model.run("constructs", "2 -1 64 100 32 1 1".split(), opts.split()), 1)
        # At timeScale 1000: 10 repetitions of 500 us at 5 us a delay: sync 3 x 24 x 1000 us = 72 ms,
        # loops 4 x 21 x (1280 + 640) us = 161.28 ms, + 0.05 s = 0.28328 s -> 1.
        big = opts.replace("reps=6", "reps=10").replace("time=50", "time=500").replace("delay=0.2", "delay=5")
        self.assertEqual(self.model.run("constructs", "2 -1 64 100 32 1 1".split(), big.split()), 1)
        # Both levels of 64 threads on 2 cores: 3 x 24 x 3500 + 4 x 21 x (128 x 64 x 5 + 128 x 5 x 10) us each.
        level = 3 * 24 * 3500 + 4 * 21 * (128 * 64 * 5 + 128 * 5 * 10)
        self.assertEqual(self.model.run("constructs_outer2", "64 -1 64 100 32 1 1".split(), (big + "--nested=2x64").split()),
                         int(0.05 + 2 * level * 1e-6 + 0.5))


class Limits(unittest.TestCase):
    def test_the_limits_group_adds_its_repetitions_and_every_pair_s_round_trips(self):
        # 64 threads on 64 cores: (20 reps + 2) x 6 operations x 3 x 1000 us = 0.396 s, and 64 x 63 / 2 = 2016
        # pairs x 2048 trips x 0.5 us = 2.064384 s: 2.460384 s, a whole 2 s more than the same run without it.
        model = estimate.Model(VM, 64, SCHEDULES, CONSTRUCTS)
        args = "64 -1 64 100 32 1 1".split()
        opts = ("--constructs=barrier --schedules=serial --construct-reps=10 --construct-time=500 "
                "--construct-loop-delay=5 --construct-chunks=1,8,64").split()
        self.assertEqual(model.run("constructs", args, opts + ["--limits"]) - model.run("constructs", args, opts), 2)
        self.assertAlmostEqual(model.limits(64, {}), 0.396 + 2.064384, places=9)
        # Its own options: 10 repetitions of 100 us, 32 trips a pair: 12 x 6 x 3 x 100 us + 2016 x 32 x 0.5 us.
        self.assertAlmostEqual(model.limits(64, {"limits-reps": "10", "limits-time": "100", "limits-trips": "32"}),
                               0.0216 + 0.032256, places=9)
        # Oversubscribed (65 threads on 64 cores): tenfold.
        self.assertAlmostEqual(model.limits(65, {}), 10 * (0.396 + 65 * 64 / 2 * 2048 * 0.5e-6), places=9)


class RegionFit(unittest.TestCase):
    """The region cost over team sizes (issue 47, item 6): least squares by hand for exact lines."""

    def test_log2_points_fit_log2(self):
        a, b, form = calibration.fit([(t, 0.4 + 0.3 * math.log2(t)) for t in (2, 4, 8, 16)])
        self.assertEqual(form, "log2")
        self.assertAlmostEqual(a, 0.4)
        self.assertAlmostEqual(b, 0.3)

    def test_linear_points_fit_linear(self):
        a, b, form = calibration.fit([(t, 1.0 + 0.05 * t) for t in (2, 32, 64, 128)])
        self.assertEqual((form, round(a, 9), round(b, 9)), ("linear", 1.0, 0.05))

    def test_one_team_size_is_a_constant(self):
        self.assertEqual(calibration.fit([(16, 2.5)]), (2.5, 0.0, "constant"))

    def test_the_model_reads_the_fit_at_the_run_team_capped_at_the_cores(self):
        c = dict(VM, REGION_US=0.4, REGION_SLOPE=0.3)
        model = estimate.Model(c, 16, SCHEDULES, CONSTRUCTS, "log2")
        self.assertAlmostEqual(model.region_us(8), 0.4 + 0.3 * 3)
        self.assertAlmostEqual(model.region_us(64), 0.4 + 0.3 * 4)   # at most the 16 cores
        self.assertAlmostEqual(estimate.Model(VM, 16, SCHEDULES, CONSTRUCTS).region_us(64), 1.0)


class CliffRun(unittest.TestCase):
    """A run with --schedules (the team-size cliff's, suite/cliff.sh) counts only what it measures."""

    def test_counts_by_key(self):
        keyed = [{"key": "serial", "role": "reference", "runs": "default", "threads": "one"},
                 {"key": "bestcase", "role": "bestcase", "runs": "default", "threads": "team"},
                 {"key": "static", "role": "checked", "runs": "default", "threads": "team"},
                 {"key": "dynamic", "role": "checked", "runs": "default", "threads": "team"},
                 {"key": "nested", "role": "checked", "runs": "default", "threads": "nested"},
                 {"key": "barrier", "role": "probe", "runs": "default", "threads": "team"},
                 {"key": "parallel", "role": "probe", "runs": "default", "threads": "team"},
                 {"key": "parallel_for", "role": "probe", "runs": "default", "threads": "team"}]
        model = estimate.Model(VM, 2, keyed, CONSTRUCTS)
        self.assertEqual(model.counts({"bestcase", "static", "barrier", "parallel", "parallel_for"}), (1, 2, 0, 3))
        line = ("oversubscribed", "3 -1 63 102 32 1 100".split(), ["--schedules=bestcase,static,barrier,parallel,parallel_for"])
        self.assertEqual(model.run(*line), estimate.whole(model.mesh_exact([3, -1, 63, 102, 32, 1, 100],
                                                                          {"bestcase", "static", "barrier", "parallel",
                                                                           "parallel_for"})))
        self.assertLess(model.run(*line), model.run("6400zones", "3 -1 63 102 32 1 100".split(), []))


class Listing(unittest.TestCase):
    def test_lines_bytes_and_total(self):
        plan = estimate.read_plan(json.dumps({"plan": [
            {"set": "key", "args": "2 -1 64 100 32 1 100".split(), "options": [], "launch": ["./clomp"]},
            {"set": "constructs", "args": "2 -1 64 100 32 1 1".split(), "options": ["--constructs=barrier"], "launch": ["./clomp"]}]}))
        text = estimate.listing(plan, ["61", "62"], "./clomp").splitlines()
        self.assertEqual(text[0], "[1/2] key        ./clomp 2 -1 64 100 32 1 100  ~61s  %d bytes" % (64 * 100 * 32 + 72 * 64))
        self.assertEqual(text[1], "[2/2] constructs ./clomp --constructs=barrier 2 -1 64 100 32 1 1  ~62s  209408 bytes")
        self.assertEqual(text[2], "Estimated total: ~02:03 (mm:ss); nothing was run.")

    def test_unknown_when_not_built(self):
        text = estimate.listing([{"set": "key", "args": "1 -1 64 100 32 1 1".split(), "launch": ["./clomp"]}], ["?"], "./clomp")
        self.assertIn("~?s", text)
        self.assertIn("Estimated total: unknown: ./clomp is not built yet", text)

    def test_a_plan_that_is_not_the_manifests_is_refused(self):
        for text in ('key||1 -1 64 100 32 1 1||./clomp', '{"plan": [{"set": "key", "args": ["1"]}]}', '{"runs": []}'):
            with self.assertRaises(ValueError):
                estimate.read_plan(text)


if __name__ == "__main__":
    unittest.main()
