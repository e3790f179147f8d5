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


def holm(helper, alpha, p_values):
    """Holm's step-down procedure on P_VALUES at family-wise ALPHA (clomp-stats holm --json, timing/series.c):
    {"rejected": [bool], "adjusted": [float], "step_level": [float]}, in the order given. The one place the
    package asks for Holm (issue 31's --compare and issue 33's buyer's table share it)."""
    if not p_values:
        return {"m": 0, "rejections": 0, "rejected": [], "adjusted": [], "step_level": []}
    answer = run(helper, ["holm", "--json", repr(alpha)] + [repr(float(p)) for p in p_values])
    try:
        doc = json.loads(answer.decode("utf-8", "replace"))
    except ValueError as e:
        raise StatsError("clomp-stats holm --json: not JSON (%s)" % e)
    if not isinstance(doc, dict) or any(len(doc.get(k) or []) != len(p_values) for k in ("rejected", "adjusted", "step_level")):
        raise StatsError("clomp-stats holm --json: members missing")
    doc["rejected"] = [bool(r) for r in doc["rejected"]]
    return doc


def summary(helper, values):
    """clomp-stats summary --json of VALUES (numbers), every member as its text (null: None)."""
    answer = run(helper, ["summary", "--json"] + [repr(float(v)) for v in values])
    try:
        return json.loads(answer.decode("utf-8", "replace"), parse_float=str, parse_int=str)
    except ValueError as e:
        raise StatsError("clomp-stats summary --json: not JSON (%s)" % e)
