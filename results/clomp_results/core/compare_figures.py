"""The figures `run_clomp.sh --compare` compares, from each process's JSON
record (docs/json-schema.md) by member name: per selected measurement the
catalogue's compared kinds (its median-chunk us/Loop and the project's
overhead, catalogue.py), the process's CPU seconds; with --constructs, one
overhead per construct, chunk and level. A figure a process did not measure
(null) is left out of that process.

Each figure has a KEY (what --primary names): the catalogue's
(static_omp_median_overhead_us, omp_barrier_median_us_per_loop,
user_cpu_seconds; clomp --list-figures prints them), and per construct row
<construct>[_chunk<C>]_level<L>_overhead. Bestcase's overhead is 0 by
definition: it is marked constant (never counted)."""
import json
import re

from . import catalogue, given, safe_io
from .view import num

RECORD_BYTES = 64 << 20   # one process's record (a 64-thread nested run is a few MB)


def read_record(path):
    """One process's JSON record (read O_NOFOLLOW, bounded), or ValueError with the reason."""
    try:
        data = safe_io.read_bounded(path, RECORD_BYTES, what=path)
    except (OSError, safe_io.Refused) as e:
        raise ValueError(str(e))
    try:
        doc = json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as e:
        raise ValueError("%s: not JSON (%s)" % (path, e))
    if not isinstance(doc, dict) or doc.get("schema") != "clomp-result":
        raise ValueError("%s: not a clomp-result record" % path)
    return doc


def plain(text):
    """A name as one line of text: control characters (tab, newline: the separators of clomp-stats'
    records and of the .txt) become spaces."""
    return "".join(c if c >= " " and c != "\x7f" else " " for c in str(text))


def key_part(text):
    """A record's key or name as a KEY part: lower case, runs of anything but [a-z0-9] as one '_'."""
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_") or "unnamed"


class Figure:
    """One figure of one process: its KEY, its name (the report's row), its unit, its value, and whether it
    is constant by definition (never counted among the figures compared)."""
    __slots__ = ("key", "name", "unit", "value", "constant")

    def __init__(self, key, name, value, constant=False, unit="us"):
        self.key, self.name, self.value, self.constant, self.unit = key, name, value, constant, unit


def process_figures(cat):
    """The catalogue's figures of the process itself that --compare tests (its CPU seconds: the key set's)."""
    return [f for f in cat.in_set("key") if not f.get("measurement") and f.get("json")]


def compared_figures(cat, m):
    """The catalogue's figures --compare tests of record measurement M."""
    return cat.measurement_figures(dict(m, name=plain(m.get("name", ""))), compared_only=True)


def figures(doc, results_only=True):
    """[Figure] of one process that it gave as a result, in report order: given.py's rule (a process the noise
    census found busy, a measurement marked invalid, an overhead against an invalid Bestcase give none:
    missing_reasons says why), as the suite's, the sweep's and the grain's tables take them. RESULTS_ONLY
    false: every figure with a value, a result or not (--list-figures names what a record holds)."""
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        return construct_figures(constructs["rows"])
    cat = catalogue.load()
    out = []
    for m in doc.get("measurements") or []:
        if not isinstance(m, dict) or not m.get("selected"):
            continue
        for f in compared_figures(cat, m):
            v = given.of_measurement(doc, m, f)[0] if results_only else num(catalogue.value(m, f["json"]))
            if v is not None:
                out.append(Figure(f.key, plain(f.label), v, m.get("role") == "bestcase" and "overhead" in f["kind"],
                                  f.unit))
    for f in process_figures(cat):
        v = given.of_measurement(doc, None, f)[0] if results_only else num(catalogue.value(doc, f["json"]))
        if v is not None:
            out.append(Figure(f.key, f.label, v, unit=f.unit))
    return out


def possible_keys(doc):
    """The KEYs one process's record could give, whether or not this process gave a value (a measurement
    selected but not a result on a busy machine still names its figures): a check of --primary."""
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        return set(f.key for f in construct_figures(constructs["rows"], every=True))
    cat = catalogue.load()
    keys = set(f.key for f in process_figures(cat))
    for m in doc.get("measurements") or []:
        if isinstance(m, dict) and m.get("selected"):
            keys |= set(f.key for f in compared_figures(cat, m))
    return keys


# What clomp's judge_validity (measure/summarize.c) says, by how its reason begins, as a short name.
INVALID_KINDS = (("its Runtime us/Loop", "mean and median chunk apart"),
                 ("faster than Bestcase OMP beyond", "faster than Bestcase beyond its interval"),
                 ("faster than Bestcase OMP in every round", "faster than Bestcase in every round"),
                 ("faster than its serial reference", "below its serial reference"))


def invalid_kind(m):
    reason = str(m.get("invalid_reason") or "")
    return next((name for start, name in INVALID_KINDS if reason.startswith(start)), "marked invalid by its run")


def missing_reasons(doc):
    """{KEY: why} of the figures this process could give (possible_keys) but did not: the reason its run
    gave (not a result, and which rule), its Bestcase not a result, unavailable, or a construct level's
    status (an interval holding 0 named as such: a cheap construct, not a failed one). A figure of a
    measurement the process did not run at all is not counted as left out."""
    out = {}
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        gave = set(f.key for f in construct_figures(constructs["rows"]))
        for f, level in construct_figures(constructs["rows"], every=True, with_level=True):
            if f.key in gave:
                continue
            problem = str(level.get("problem") or "")
            status = plain(level.get("status") or "no status")
            out[f.key] = ("cheap: its interval holds 0" if "contains 0" in problem else status)
        return out
    cat = catalogue.load()
    selected = [m for m in doc.get("measurements") or [] if isinstance(m, dict) and m.get("selected")]
    bestcase = next((m for m in selected if m.get("role") == "bestcase"), None)
    given_keys = set(f.key for f in figures(doc))
    for m in selected:
        for f in compared_figures(cat, m):
            overhead = "overhead" in f["kind"]
            if f.key in given_keys or (overhead and m.get("role") == "bestcase"):
                continue   # given, or 0 by definition: nothing was left out
            # The rule of given.py (busy before invalid: the census explains the rest), its invalid named by rule.
            _, why = given.of_measurement(doc, m, f)
            if m.get("unavailable"):
                out[f.key] = "unavailable"
            elif why == given.BUSY:
                out[f.key] = why
            elif m.get("valid") is False:
                out[f.key] = invalid_kind(m)
            elif overhead and bestcase is not None and bestcase.get("valid") is False:
                out[f.key] = "its Bestcase: " + invalid_kind(bestcase)
            else:
                out[f.key] = "no value"
    for f in process_figures(cat):   # its CPU seconds: what a busy machine's contention cost, not a result
        if f.key not in given_keys and num(catalogue.value(doc, f["json"])) is not None:
            out[f.key] = given.of_measurement(doc, None, f)[1]
    return out


def construct_figures(rows, every=False, with_level=False):
    out = []
    for row in rows:
        for level in row.get("levels") or []:
            value = num(level.get("overhead_us"))
            if not every and (value is None or level.get("status") != "measured"):
                continue
            chunk = row.get("chunk")
            key = "%s%s_level%s_overhead" % (key_part(row.get("construct") or row.get("construct_name", "")),
                                             "" if chunk is None else "_chunk%s" % key_part(chunk),
                                             key_part(level.get("level", "")))
            f = Figure(key, "%s level %s (%sx%s) overhead us" % (
                plain(row.get("construct_name", "")), level.get("level", ""),
                "" if level.get("outer_threads") is None else level.get("outer_threads"),
                "" if level.get("inner_threads") is None else level.get("inner_threads")), value, unit="us")
            out.append((f, level) if with_level else f)
    return out


def construct_levels_not_compared(doc):
    """[(construct level name, status, problem)] of the construct levels of one process that give no figure
    (unresolved, failed, serialized...: construct_figures leaves them out); [] for a mesh record."""
    constructs = doc.get("constructs")
    if not (isinstance(constructs, dict) and constructs.get("rows")):
        return []
    out = []
    for row in constructs["rows"]:
        for level in row.get("levels") or []:
            if level.get("status") == "measured" and num(level.get("overhead_us")) is not None:
                continue
            out.append(("%s level %s" % (plain(row.get("construct_name", "")), level.get("level", "")),
                        plain(level.get("status") or "no status"), plain(level.get("problem") or "")))
    return out


def sampling_counts(doc):
    """[(measurement name, consistent, unavailable, inconsistent, idle)] of the sampling tool's samples."""
    out = []
    for m in doc.get("measurements") or []:
        samples = ((m.get("ompt") or {}).get("samples") or {}) if isinstance(m, dict) else {}
        if samples:
            out.append((plain(m.get("name", "")),) + tuple(int(samples.get(k) or 0)
                                                        for k in ("consistent", "unavailable", "inconsistent", "idle")))
    return out
