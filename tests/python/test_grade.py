"""Issue 35, item 9: the submission grade. A suite is fit to submit only at
timeScale 100, with bound threads, not oversubscribed, on a quiet node;
each condition broken alone gives exactly its reason. The census: the
record's own busy verdict (fig-validity's contract) where it has one, else
the stated 10% lost-time threshold, else "not measured"."""
from __future__ import annotations

import copy
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bundle_lib import GOLDEN  # noqa: E402
from clomp_results.bundle import grade  # noqa: E402
from clomp_results.core import loader  # noqa: E402
from clomp_results.core.records import PlannedRun  # noqa: E402

BASE = loader.load_suite(GOLDEN)


def submission_suite():
    """The golden suite as a submission would be: timeScale 100, bound, quiet, 8 cores."""
    s = copy.deepcopy(BASE)
    s.env.plan = [PlannedRun(p.index, p.set_name, p.policy, p.args[:6] + (("100",) if not p.is_construct else ("1",)))
                  for p in s.env.plan]
    for rec in s.records.values():
        rec.doc["numa"]["thread_placement"]["unbound_threads"] = 0
        rec.doc["noise_census"]["busy"] = False
        for t in rec.doc["noise_census"].get("threads") or []:
            t["lost_fraction"] = 0.01   # a quiet node's (the fixture was made on a busy one)
        if rec.doc.get("constructs"):
            rec.doc["constructs"]["oversubscribed"] = False
        for m in rec.doc["measurements"]:
            m["valid"] = True
    return s


class SubmissionGrade(unittest.TestCase):
    def test_a_submission_suite_has_no_reason(self):
        self.assertEqual(grade.submission_reasons(submission_suite(), 8), [])

    def test_the_golden_quick_suite_is_not_submission_grade_for_its_timescale(self):
        reasons = grade.submission_reasons(BASE, 2)
        self.assertIn("timeScale 1, not the submitted 100 (runs 1 2 3 4 5)", reasons)

    def test_each_condition_alone_gives_its_reason(self):
        cases = []
        s = submission_suite()
        s.env.plan[3] = PlannedRun(4, "6400zones", "", s.env.plan[3].args[:6] + ("20",))
        cases.append((s, r"^timeScale 20, not the submitted 100 \(runs 4\)$"))
        s = submission_suite()
        s.records[2].doc["numa"]["thread_placement"]["unbound_threads"] = 1
        cases.append((s, r"^threads not bound .* in runs 2$"))
        s = submission_suite()
        s.records[7].doc["constructs"]["oversubscribed"] = True
        cases.append((s, r"^oversubscribed: more threads than the 8 cores in runs 7$"))
        s = submission_suite()
        s.records[1].doc["noise_census"].update(busy=True, busy_reason="52% of the team's time lost")
        cases.append((s, r"^the noise census found the node busy in runs 1 \(run 1: .*52% of the team's time lost\)$"))
        s = submission_suite()
        s.records[5].doc["measurements"][4]["valid"] = False
        cases.append((s, r"^measurements the run marks invalid \(Static OMP\) in runs 5$"))
        for suite, pattern in cases:
            reasons = grade.submission_reasons(suite, 8)
            self.assertEqual(len(reasons), 1, reasons)
            self.assertRegex(reasons[0], pattern)

    def test_the_stated_lost_fraction_threshold_decides_with_or_without_a_busy_verdict(self):
        s = submission_suite()
        census = s.records[1].doc["noise_census"]
        census["threads"][0]["lost_fraction"] = grade.QUIET_LOST_FRACTION * 1.5
        self.assertIn("lost 15% of its time (above 10%)", grade.busy_reason(s.records[1]),
                      "busy false (under 25%) is not quiet enough for a submission")
        del census["busy"]
        for t in census["threads"]:
            t["lost_fraction"] = grade.QUIET_LOST_FRACTION * 0.9
        self.assertEqual(grade.busy_reason(s.records[1]), "")
        census["threads"][0]["lost_fraction"] = grade.QUIET_LOST_FRACTION * 1.5
        self.assertIn("lost 15% of its time (above 10%)", grade.busy_reason(s.records[1]))
        census["threads"] = []
        self.assertIn("not measured", grade.busy_reason(s.records[1]))
        s.records[1].doc["noise_census"] = None
        self.assertIn("did not run (not measured)", grade.busy_reason(s.records[1]))

    def test_unresolved_construct_rows_are_a_reason(self):
        s = submission_suite()
        s.constructs.rows[0]["status"] = "unresolved"
        self.assertEqual(grade.submission_reasons(s, 8), ["construct rows unresolved (not measured overheads) in runs 6"])

    def test_runs_oversubscribed_by_design_are_named_and_never_graded(self):
        """Issue 43, item 5: on a 2-core node the construct sweep's 2x2 and 2x4 (runs 7 8) and the
        cliff's cores + 1 run are oversubscribed by design: their own busy census, invalid figures and
        unresolved rows are no reason; on 8 cores, or within the key thread count, they are graded."""
        s = submission_suite()
        s.env.plan.append(PlannedRun(9, "oversubscribed", "", ("3", "-1", "63", "102", "32", "1", "100")))
        for run in (7, 8):
            rec = s.records[run].doc
            rec["constructs"]["oversubscribed"] = True
            rec["noise_census"].update(busy=True, busy_reason="a thread lost 60%")
            rec["measurements"][0]["valid"] = False
        s.constructs.rows[-1]["status"] = "unresolved"
        self.assertEqual(s.constructs.rows[-1]["run"], "8")
        self.assertEqual(grade.submission_reasons(s, 2), [])
        # A bundle leaves the cliff run (9) out: nothing of it is shown, so the line does not name it.
        self.assertRegex(grade.not_graded(s, 2), r"^runs 7 8 are oversubscribed by design \(run 7: the construct "
                         r"sweep's 2x2 \(4 threads on 2 CPUs\); run 8: the construct sweep's 2x4 \(8 threads on 2 CPUs\)\): "
                         r"shown, not graded$")
        s.records[9] = copy.deepcopy(s.records[8])   # a suite directory carries it
        self.assertRegex(grade.not_graded(s, 2), r"^runs 7 8 9 are oversubscribed by design \(run 7: the construct "
                         r"sweep's 2x2 \(4 threads on 2 CPUs\); run 8: the construct sweep's 2x4 \(8 threads on 2 CPUs\); "
                         r"run 9: the team-size cliff's cores \+ 1 run \(3 threads\)\): shown, not graded$")
        on_eight = grade.submission_reasons(s, 8)
        self.assertIn("oversubscribed: more threads than the 8 cores in runs 7 8", on_eight)
        self.assertTrue(any(r.startswith("the noise census found the node busy in runs 7 8") for r in on_eight), on_eight)
        self.assertEqual(grade.not_graded(s, 8), "run 9 is oversubscribed by design (run 9: the team-size cliff's "
                         "cores + 1 run (3 threads)): shown, not graded")
        del s.records[9]
        self.assertEqual(grade.not_graded(s, 8), "")
        s.env.facts["max threads"] = "4"   # the user asked for 4 threads on 2 cores: 2x2 is within it
        self.assertIn("oversubscribed: more threads than the 2 cores in runs 7", grade.submission_reasons(s, 2))
        self.assertNotIn("run 7:", grade.not_graded(s, 2))


if __name__ == "__main__":
    unittest.main()
