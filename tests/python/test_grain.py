"""Issue 48, item 1: run_clomp.sh --grain's bracket search and answers
(results/clomp_results/grain/grain_*.py). The search, run against synthetic
speed-up curves, finds what a plain re-implementation (geometric steps,
then bisection of one bracket at a time) finds, and its bracket holds the
crossing found by brute force; a team stops at its first size above 90%
efficiency. The "not decided" rule: a size below the answer without an
interval (busy, too few processes) leaves it undecided and says why; no size
above decides "none" only when every interval lies below. A cell's speed-up
is the Hodges-Lehmann ratio (the median of every serial / parallel pair's
ratio, computed here by brute force) from the processes that gave both
figures; the best team is the smallest within noise of the fastest."""
from __future__ import annotations

import math
import os
import random
import statistics
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_fixture import TOP  # noqa: E402
from clomp_results.core import given  # noqa: E402
from clomp_results.grain import grain_answers, grain_cells, grain_plan  # noqa: E402
from clomp_results.grain.grain_cells import NONE, Cell, Summary  # noqa: E402
from clomp_results.grain.grain_plan import Bounds  # noqa: E402

HELPER = os.environ.get("CLOMP_STATS") or os.path.join(TOP, "build", "clomp-stats")


def settings(**kw):
    base = dict(cores=8, teams=(2, 4, 8), replicates=4, factor=4, bisections=3, time_scale=1,
                max_zones=1 << 20, minutes=None, schedules=(), quick=False, exe="./clomp", out="out", dry_run=False)
    base.update(kw)
    return grain_plan.Settings(**base)


def amdahl(overhead_zones):
    """A speed-up curve: T threads at Z zones, each loop paying OVERHEAD_ZONES x T zones' worth of time."""
    return lambda t, z: t * z / (z + overhead_zones * t)


def search(s, t, curve, width):
    """The module's search to its end, each size's interval the curve's value -+ WIDTH (relative)."""
    cells, stages = {}, 0
    while True:
        sizes = grain_plan.next_sizes(s, t, cells)
        if not sizes:
            return cells, stages
        stages += 1
        for z in sizes:
            self_check = z not in cells
            assert self_check, "a size measured twice"
            v = curve(t, z)
            cells[z] = Bounds(v * (1 - width), v * (1 + width))


def plain_answer(s, t, curve, width, threshold, per_thread, inclusive):
    """The oracle: a plain re-implementation for one threshold (None: no size above it)."""
    div = t if per_thread else 1

    def good(z):
        low = curve(t, z) * (1 - width) / div
        return low >= threshold if inclusive else low > threshold

    steps, z = [], 64
    while z < s.max_zones:
        steps.append(z)
        z *= s.factor
    steps.append(s.max_zones)
    measured = []
    for nominal in steps:
        parts, zpp = grain_plan.shape(t, nominal)
        measured.append(parts * zpp)
        if curve(t, parts * zpp) * (1 - width) / t > 0.9:
            break
    first = next((z for z in measured if good(z)), None)
    if first is None:
        return None
    lower = [z for z in measured if z < first]
    if not lower:
        return first
    lo, hi = lower[-1], first
    # Bisect until the bracket is at most FACTOR^(1/2^BISECTIONS), 1% slack (the loop shapes round).
    while hi / lo > s.factor ** (1.0 / 2 ** s.bisections) * 1.01:
        parts, zpp = grain_plan.shape(t, int(round(math.sqrt(lo * hi))))
        mid = parts * zpp
        if not lo < mid < hi:
            break
        if good(mid):
            hi = mid
        else:
            lo = mid
    return hi


class BracketSearch(unittest.TestCase):
    def test_the_search_finds_what_a_plain_bisection_finds_on_synthetic_curves(self):
        rng = random.Random(48)
        both = grain_plan.THRESHOLDS
        try:
            for _ in range(60):
                s = settings(bisections=rng.choice((1, 2, 3)), factor=rng.choice((2, 4, 8)))
                curve, width = amdahl(rng.uniform(2, 3000)), rng.uniform(0.01, 0.1)
                for t in s.teams:
                    for one in both:   # one threshold searched alone: exactly the plain bisection's answer
                        grain_plan.THRESHOLDS = (one,)
                        cells, _ = search(s, t, curve, width)
                        self.assertEqual(grain_plan.crosses(cells, t, *one)[1], plain_answer(s, t, curve, width, *one),
                                         "team %d, threshold %g" % (t, one[0]))
        finally:
            grain_plan.THRESHOLDS = both

    def test_with_both_thresholds_each_bracket_is_bisected_down_to_its_ratio(self):
        rng = random.Random(49)
        for _ in range(60):
            s = settings(bisections=rng.choice((1, 2, 3)), factor=rng.choice((2, 4, 8)))
            curve, width = amdahl(rng.uniform(2, 3000)), rng.uniform(0.01, 0.1)
            for t in s.teams:
                cells, _ = search(s, t, curve, width)
                for threshold, per_thread, inclusive in grain_plan.THRESHOLDS:
                    low, got = grain_plan.crosses(cells, t, threshold, per_thread, inclusive)
                    if got is None:
                        continue
                    div = t if per_thread else 1
                    self.assertTrue(grain_plan.above(cells[got], threshold, div, inclusive))
                    if low is not None:
                        self.assertFalse(grain_plan.above(cells[low], threshold, div, inclusive))
                        mid = grain_plan.zones_of(t, int(round(math.sqrt(low * got))))
                        self.assertTrue(got / low <= grain_plan.refine_ratio(s) or not low < mid < got,
                                        "the bracket is bisected down to its stated ratio, or no loop lies between")

    def test_the_bracket_holds_the_crossing_found_by_brute_force(self):
        s = settings(teams=(4,), bisections=3)
        curve, width = amdahl(250.0), 0.03
        cells, _ = search(s, 4, curve, width)
        low, got = grain_plan.crosses(cells, 4, 1.0, False, False)
        # Brute force over every loop a team of 4 is given (the shape of every size up to 64 K zones).
        loops = sorted(set(grain_plan.zones_of(4, z) for z in range(64, 1 << 16)))
        crossing = next(z for z in loops if curve(4, z) * (1 - width) > 1.0)
        self.assertLess(low, crossing)
        self.assertGreaterEqual(got, crossing)

    def test_a_team_stops_at_its_first_size_above_90_percent_efficiency(self):
        s = settings(teams=(2,), bisections=0)
        curve = amdahl(50.0)
        cells, _ = search(s, 2, curve, 0.02)
        first = min(z for z in cells if cells[z].low / 2 > 0.9)
        self.assertEqual(max(cells), first, "no size beyond the first above 90% is measured")
        never = amdahl(1e9)   # never speeds up: every geometric size up to 1 M zones
        cells, _ = search(s, 2, never, 0.02)
        self.assertEqual(sorted(cells), [grain_plan.zones_of(2, z) for z in grain_plan.geometric(s)])

    def test_shapes_give_every_thread_the_same_parts_and_stay_within_5_percent(self):
        for t in (2, 3, 7, 8, 64, 127, 128):
            for z in (64, 100, 1000, 6400, 65536, 1 << 20):
                parts, zpp = grain_plan.shape(t, z)
                self.assertEqual(parts % t, 0)
                if z >= 64 * t:
                    self.assertLessEqual(abs(parts * zpp - z) / z, 0.05)

    def test_default_teams_double_then_take_cores_minus_one_and_cores(self):
        self.assertEqual(grain_plan.default_teams(2), [2])
        self.assertEqual(grain_plan.default_teams(12), [2, 4, 8, 11, 12])
        self.assertEqual(grain_plan.default_teams(128), [2, 4, 8, 16, 32, 64, 127, 128])


def cell(zones, value=None, width=0.05, k=4, total=4, why=None, threads=2):
    g = given.Given([1.0] * k, total, why or {})
    sp = NONE if value is None else Summary(value, value * (1 - width) if width is not None else None,
                                           value * (1 + width) if width is not None else None, k)
    return Cell(threads, zones, 64, max(1, zones // 64), "static", "Static OMP", g, sp,
                Summary(zones * 0.01, None, None, k), Summary(zones * 0.006, None, None, k))


MODEL = {"ZONE_NS_CACHED": 1.25, "ZONE_NS_MEMORY": 1.6, "MEMORY_SPEEDUP": 0.8, "REGION_US": 1.0, "PROBE_US": 0.35,
         "BUILD_NS_PER_BYTE": 1.0, "SETUP_NS_PER_BYTE": 0.15, "PROCESS_SECONDS": 0.3}


class DryRunEstimate(unittest.TestCase):
    def test_each_process_pays_its_set_up_once_in_the_estimate(self):
        s = settings(teams=(2, 4, 8), bisections=2)
        n, secs, _ = grain_plan.worst_case(s, MODEL)
        dearer = dict(MODEL, PROCESS_SECONDS=MODEL["PROCESS_SECONDS"] + 1.0)
        n2, secs2, _ = grain_plan.worst_case(s, dearer)
        self.assertEqual(n2, n)
        self.assertAlmostEqual(secs2 - secs, n * 1.0, delta=1e-6 * n, msg="one more second of set-up per process")
        sizes = sum(len(set(grain_plan.zones_of(t, z) for z in grain_plan.geometric(s))) for t in s.teams)
        self.assertEqual(n, s.replicates * sizes + len(s.teams) * 2 * s.bisections * s.replicates,
                         "every geometric size of every team, then both brackets' bisections")
        # Each process times Serial Ref's 1e7 x timeScale zone updates at least once, besides its set-up.
        self.assertGreaterEqual(secs, n * (MODEL["PROCESS_SECONDS"] + 1e7 * s.time_scale * MODEL["ZONE_NS_CACHED"] * 1e-9))

    def test_the_time_cap_is_named_as_what_stops_it_only_when_the_plan_outlasts_it(self):
        small = settings(cores=2, teams=(2,), replicates=4, bisections=1, minutes=1000.0)
        big = settings(cores=128, teams=tuple(grain_plan.default_teams(128)), replicates=6, time_scale=10, minutes=1.0)
        for s, said, unsaid in ((small, "within the time cap of 1000 min", "stops it first"),
                                (big, "the time cap of 1 min stops it first", "within")):
            text = grain_plan.dry_run(s, MODEL)
            last = text.splitlines()[-1]
            self.assertIn(said, last)
            self.assertNotIn(unsaid, last)
            self.assertEqual(grain_plan.worst_case(s, MODEL)[1] > 60 * s.minutes, "stops it first" in last)
        self.assertNotIn("time cap", grain_plan.dry_run(small._replace(minutes=None), MODEL))

    def test_the_dry_run_states_the_set_up_it_charged_and_its_source(self):
        text = grain_plan.dry_run(settings(), dict(MODEL, PROCESS_SECONDS=0.7))
        self.assertRegex(text, r"0\.7 s of set-up per process \(.*measured.*docs/suite\.md\)")


class NotDecided(unittest.TestCase):
    def test_a_busy_size_below_the_answer_leaves_it_undecided_and_says_busy(self):
        a = grain_answers.speeds_up([cell(64, None, k=0, why={"busy": 4}), cell(256, 0.8), cell(1024, 1.5)])
        self.assertFalse(a.decided)
        self.assertIn("at most 1024 zones", a.text)
        self.assertIn("64 zones (4 of 4 processes gave none: 4 busy)", a.text)

    def test_too_few_processes_for_an_interval_is_said(self):
        a = grain_answers.speeds_up([cell(64, 0.5, width=None, k=3, total=3), cell(256, 1.5)])
        self.assertFalse(a.decided)
        self.assertIn("an interval needs 4", a.text)
        few = grain_answers.speeds_up([cell(64, None, k=2, total=2)])
        self.assertIn("a median needs 3", few.text)

    def test_every_smaller_size_with_an_interval_decides_the_smallest(self):
        a = grain_answers.speeds_up([cell(64, 0.5), cell(256, 0.99, width=0.05), cell(1024, 1.5), cell(4096, 1.9)])
        self.assertTrue(a.decided)
        self.assertEqual((a.cell.zones, a.below), (1024, 256))

    def test_no_size_above_is_none_only_when_every_interval_lies_below(self):
        a = grain_answers.speeds_up([cell(64, 0.5), cell(256, 0.7)])
        self.assertTrue(a.decided)
        self.assertIsNone(a.cell)
        self.assertIn("none up to 256 zones", a.text)
        b = grain_answers.speeds_up([cell(64, 0.5), cell(256, 1.0)])
        self.assertFalse(b.decided)
        self.assertIn("reaches 1", b.text)

    def test_half_efficiency_is_judged_on_speed_up_over_threads_at_or_above_50_percent(self):
        cells = [cell(64, 1.5, threads=4), cell(256, 2.2, width=0.05, threads=4), cell(1024, 3.5, threads=4)]
        a = grain_answers.half_efficiency(cells)
        self.assertTrue(a.decided)
        self.assertEqual(a.cell.zones, 256)   # 2.2 x 0.95 / 4 = 0.5225
        self.assertEqual(grain_answers.speeds_up(cells).cell.zones, 64)


class BestTeam(unittest.TestCase):
    def test_the_smallest_team_within_noise_of_the_fastest(self):
        s = settings(teams=(2, 4, 8), max_zones=256)
        cells = [cell(64, 0.6, threads=2), cell(64, 0.5, threads=4), cell(64, 0.3, threads=8),
                 cell(256, 1.5, threads=2), cell(256, 2.4, width=0.2, threads=4), cell(256, 2.5, width=0.02, threads=8)]
        best = dict((b.nominal, b) for b in grain_answers.best_team(s, cells))
        self.assertEqual(best[64].threads, 1, "no team speeds up: Serial Ref is best")
        self.assertIsNone(best[64].fastest, "Serial Ref (speed-up 1) is the fastest")
        self.assertEqual(best[64].within, [1], "no team's interval reaches 1")
        self.assertEqual(best[256].threads, 4, "4 threads' interval reaches 8 threads' lower end")
        self.assertEqual(best[256].fastest.threads, 8)


def record(serial, parallel, threads=2, busy=False, valid=True):
    m = lambda key, v, t: {"key": key, "name": key, "role": "checked", "selected": True, "unavailable": None,  # noqa: E731
                           "valid": valid if key == "static" else True, "us_per_loop": v, "threads": t}
    return {"schema": "clomp-result", "noise_census": {"busy": busy},
            "measurements": [m("serial", serial, 1), m("static", parallel, threads)]}


@unittest.skipUnless(os.access(HELPER, os.X_OK), "clomp-stats is not built (make clomp-stats)")
class CellStatistics(unittest.TestCase):
    def test_the_speed_up_is_the_median_of_every_pair_s_ratio(self):
        rng = random.Random(7)
        serial = [rng.uniform(9, 11) for _ in range(6)]
        par = [rng.uniform(5, 7) for _ in range(6)]
        recs = [(record(a, b), True) for a, b in zip(serial, par)] + [(record(1, 1, busy=True), True),
                                                                      (None, False)]
        c = grain_cells.cell(HELPER, 2, 6400, "static", recs)
        # On the log scale (so a median of an even count is the geometric mean of the middle two).
        want = math.exp(statistics.median([math.log(a / b) for a in serial for b in par]))
        self.assertAlmostEqual(c.speedup.value, want, places=9)
        self.assertLessEqual(c.speedup.low, want)
        self.assertGreaterEqual(c.speedup.high, want)
        self.assertEqual((c.given.k, c.given.total, c.given.why["busy"], c.given.why["failed"]), (6, 8, 1, 1))
        self.assertAlmostEqual(c.efficiency().value, want * 50, places=7)
        self.assertAlmostEqual(c.serial_us.value, statistics.median(serial), places=9)

    def test_a_process_on_another_team_or_marked_invalid_gives_nothing(self):
        recs = [(record(10, 5), True)] * 3 + [(record(10, 5, threads=1), True), (record(10, 5, valid=False), True)]
        c = grain_cells.cell(HELPER, 2, 64, "static", recs)
        self.assertEqual(c.given.why[grain_cells.OTHER_TEAM], 1)
        self.assertEqual(c.given.why["invalid"], 1)
        self.assertIsNone(c.speedup.low, "3 processes: an estimate, no interval")
        self.assertIn("an interval needs 4", c.why())


class IntervalText(unittest.TestCase):
    """The printed interval is never narrower than the computed one: brute force over values, read back."""

    @staticmethod
    def values():
        rng = random.Random(48)
        out = [10 ** rng.uniform(-6, 9) for _ in range(3000)]
        for e in range(-5, 7):
            for m in range(100, 1000, 7):
                x = m * 10.0 ** (e - 2)
                tie = (m + 0.5) * 10.0 ** (e - 2)
                out += [x, math.nextafter(x, 0), math.nextafter(x, math.inf), tie, math.nextafter(tie, math.inf),
                        (m + 0.06) * 10.0 ** (e - 2), (m + 0.94) * 10.0 ** (e - 2)]
        return out

    @staticmethod
    def neighbour(text, up):
        """The next 3-significant-digit decimal above (UP) or below TEXT's (below a power of ten: a tenth
        of the step)."""
        import decimal
        d = decimal.Decimal(text)
        step = decimal.Decimal(1).scaleb(d.adjusted() - 2)
        if not up and d == decimal.Decimal(1).scaleb(d.adjusted()):
            step /= 10
        return float(d + step if up else d - step)

    def test_bounds_round_outward_to_the_nearest_three_digit_decimal_and_the_estimate_to_nearest(self):
        bad = []
        for x in self.values():
            for low, high in ((x, x * 1.5), (x / 1.5, x)):
                text = grain_answers.interval_text(Summary(x, low, high, 6))
                head, _, rest = text.partition(" [")
                lo, hi = rest.rstrip("]").split("..")
                digits = [len(t.split("e")[0].replace(".", "").replace("-", "").lstrip("0").rstrip("0") or "0")
                          for t in (lo, hi)]
                if float(lo) > low or float(hi) < high:
                    bad.append("inward: %r..%r printed %s" % (low, high, text))
                elif max(digits) > 3:
                    bad.append("more than 3 digits: %s" % text)
                elif self.neighbour(lo, True) <= low or self.neighbour(hi, False) >= high:
                    bad.append("wider than it needs: %r..%r printed %s" % (low, high, text))
                elif head != "%.3g" % x:
                    bad.append("estimate %r printed %s" % (x, head))
        self.assertEqual(bad[:5], [], "%d of the printed intervals are wrong" % len(bad))

    def test_a_scaled_interval_is_rounded_after_scaling(self):
        self.assertEqual(grain_answers.interval_text(Summary(0.5, 0.1106, 0.9001, 6), scale=100), "50 [11..90.1]")


if __name__ == "__main__":
    unittest.main()
