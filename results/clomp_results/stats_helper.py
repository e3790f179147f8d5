"""clomp-stats, the tested C statistics (timing/), asked from Python: the
package computes no statistic of its own (issue 29: one implementation).
Its answers are JSON objects read by member name (`clomp-stats compare
--json`, compare/clomp_stats.c); numbers are kept as the text clomp-stats
wrote (for the CSV) beside their values."""
import json
import subprocess

NUMBERS = ("median_a", "median_b", "estimate", "ci_low", "ci_high", "ci_coverage", "u", "p")


class StatsError(Exception):
    """clomp-stats refused its input or could not run."""


def run(helper, args, stdin=None):
    try:
        done = subprocess.run([helper] + list(args), input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise StatsError("clomp-stats could not run: %s" % e)
    if done.returncode != 0:
        raise StatsError(done.stderr.decode("utf-8", "replace").strip() or "clomp-stats failed (exit %d)" % done.returncode)
    return done.stdout


def compare(helper, a, b, level):
    """One figure's A/B comparison by member name; numbers float (None for null), their text in ["raw"]."""
    answer = run(helper, ["compare", "--json", "--level", level, ",".join(repr(v) for v in a),
                          ",".join(repr(v) for v in b)])
    try:
        doc = json.loads(answer.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats compare --json: not JSON (%s)" % e)
    if not isinstance(doc, dict) or any(k not in doc for k in NUMBERS + ("scale", "test", "detected", "n_a", "n_b")):
        raise StatsError("clomp-stats compare --json: members missing")
    out = dict(doc)
    out["raw"] = dict((k, "" if v is None else str(v)) for k, v in doc.items())
    for k in NUMBERS:
        out[k] = None if doc[k] is None else float(doc[k])
    out["n_a"], out["n_b"] = int(doc["n_a"]), int(doc["n_b"])
    out["detected"] = doc["detected"] is True or doc["detected"] in ("1", 1)
    return out


def comparison_json(helper, level, records):
    """The comparison's JSON document, written by clomp-stats comparison-json from RECORDS (text)."""
    return run(helper, ["comparison-json", "--level", level], records.encode("utf-8"))


PAIRED_NUMBERS = ("median_a", "median_b", "estimate", "ci_low", "ci_high", "ci_coverage", "w_plus", "p", "alpha",
                  "nominal_alpha", "overall_alpha", "sd_difference", "detectable_80", "pairs_needed_5pct", "p_b_greater",
                  "bm_statistic", "bm_df", "bm_p", "mad_a", "mad_b")


def answer(helper, args, numbers):
    """One `clomp-stats ... --json` answer by member name: the members in NUMBERS as floats (None for null),
    every member's text in ["raw"]."""
    text = run(helper, args)
    try:
        doc = json.loads(text.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats %s --json: not JSON (%s)" % (args[0], e))
    if not isinstance(doc, dict) or any(k not in doc for k in numbers):
        raise StatsError("clomp-stats %s --json: members missing" % args[0])
    out = dict(doc)
    out["raw"] = dict((k, "" if v is None else str(v)) for k, v in doc.items())
    for k in numbers:
        out[k] = None if doc[k] is None else float(doc[k])
    return out


def paired(helper, a, b, alpha="0.05", tests=1, looks=None):
    """The paired comparison of B with A (pair i: a[i], b[i]): clomp-stats paired (compare/paired_answer.c)."""
    args = ["paired", "--json", "--alpha", alpha, "--tests", str(tests)]
    if looks:
        args += ["--looks", ",".join(str(n) for n in looks)]
    out = answer(helper, args + [",".join(repr(v) for v in a), ",".join(repr(v) for v in b)], PAIRED_NUMBERS)
    for k in ("n", "tests", "look", "decided", "bm_degenerate"):
        out[k] = int(out[k])
    return out


def holm(helper, alpha, p_values):
    """Holm's procedure (clomp-stats holm): ([rejected 0/1], [adjusted p]) in the p-values' order."""
    if not p_values:
        return [], []
    out = answer(helper, ["holm", "--json", alpha, ",".join(repr(p) for p in p_values)], ())
    try:
        return [int(x) for x in out["reject"]], [float(x) for x in out["adjusted"]]
    except (KeyError, TypeError, ValueError):
        raise StatsError("clomp-stats holm --json: members missing")


def holm_steps(helper, alpha, p_values):
    """Holm's procedure with each figure's step (clomp-stats holm, the one Holm of the package):
    {"rejected": [bool], "adjusted": [float], "step_level": [confidence level of its step]}, in the order
    given; the buyer's table draws each figure's interval at its step level."""
    if not p_values:
        return {"rejected": [], "adjusted": [], "step_level": []}
    out = answer(helper, ["holm", "--json", repr(float(alpha)), ",".join(repr(float(p)) for p in p_values)], ())
    try:
        return {"rejected": [bool(int(x)) for x in out["reject"]], "adjusted": [float(x) for x in out["adjusted"]],
                "step_level": [float(x) for x in out["step_level"]]}
    except (KeyError, TypeError, ValueError):
        raise StatsError("clomp-stats holm --json: members missing")


def summary(helper, values):
    """clomp-stats summary --json of VALUES (numbers), every member as its text (null: None)."""
    answer = run(helper, ["summary", "--json"] + [repr(float(v)) for v in values])
    try:
        return json.loads(answer.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats summary --json: not JSON (%s)" % e)


def plan(helper, pairs, alpha="0.05"):
    """Whether PAIRS pairs can reach ALPHA with the exact signed-rank test at all (clomp-stats plan,
    compare/plan_answer.c): {"smallest_p", "pairs_needed", "reachable"}."""
    out = answer(helper, ["plan", "--json", str(int(pairs)), alpha], ("smallest_p", "pairs_needed", "reachable"))
    out["pairs_needed"], out["reachable"] = int(out["pairs_needed"]), int(out["reachable"])
    return out
