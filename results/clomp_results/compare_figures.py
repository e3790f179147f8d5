"""The figures `run_clomp.sh --compare` compares, from each process's JSON
record (docs/json-schema.md) by member name: per selected measurement its
us/Loop and its overhead against Bestcase, the process's CPU seconds; with
--constructs, one overhead per construct, chunk and level. A figure a
process did not measure (null) is left out of that process.

Each figure has a KEY (what --primary names): the measurement's key and the
figure joined by '_' (static_overhead, barrier_us_per_loop), user_cpu_seconds
and system_cpu_seconds, and per construct row <construct>[_chunk<C>]_level<L>_overhead.
Bestcase's overhead is 0 by definition: it is marked constant (never counted)."""
import json
import re

from . import safe_io
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
    except ValueError as e:
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
    """One figure of one process: its KEY, its name (the report's row), its value, and whether it is
    constant by definition (never counted among the figures compared)."""
    __slots__ = ("key", "name", "value", "constant")

    def __init__(self, key, name, value, constant=False):
        self.key, self.name, self.value, self.constant = key, name, value, constant


def figures(doc):
    """[Figure] of one process, in report order."""
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        return construct_figures(constructs["rows"])
    out = []
    for m in doc.get("measurements") or []:
        if not isinstance(m, dict) or not m.get("selected"):
            continue
        name = plain(m.get("name", ""))
        key = key_part(m.get("key") or name)
        if num(m.get("us_per_loop")) is not None:
            out.append(Figure(key + "_us_per_loop", "%s us/Loop" % name, num(m.get("us_per_loop"))))
        if num(m.get("overhead_us_per_loop")) is not None:
            out.append(Figure(key + "_overhead", "%s overhead us/Loop" % name, num(m.get("overhead_us_per_loop")),
                              m.get("role") == "bestcase"))
    cost = doc.get("process_cost") or {}
    for member, name in (("user_cpu_seconds", "user CPU seconds"), ("system_cpu_seconds", "system CPU seconds")):
        if num(cost.get(member)) is not None:
            out.append(Figure(member, name, num(cost.get(member))))
    return out


def possible_keys(doc):
    """The KEYs one process's record could give, whether or not this process gave a value (a measurement
    selected but not a result on a busy machine still names its figures): a check of --primary."""
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        return set(f.key for f in construct_figures(constructs["rows"], every=True))
    keys = {"user_cpu_seconds", "system_cpu_seconds"}
    for m in doc.get("measurements") or []:
        if isinstance(m, dict) and m.get("selected"):
            key = key_part(m.get("key") or plain(m.get("name", "")))
            keys.add(key + "_us_per_loop")
            if m.get("role") in ("checked", "bestcase") or num(m.get("overhead_us_per_loop")) is not None:
                keys.add(key + "_overhead")
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
        given = set(f.key for f in construct_figures(constructs["rows"]))
        for f, level in construct_figures(constructs["rows"], every=True, with_level=True):
            if f.key in given:
                continue
            problem = str(level.get("problem") or "")
            status = plain(level.get("status") or "no status")
            out[f.key] = ("cheap: its interval holds 0" if "contains 0" in problem else status)
        return out
    by_key = {}
    for m in doc.get("measurements") or []:
        if isinstance(m, dict) and m.get("selected"):
            by_key[key_part(m.get("key") or plain(m.get("name", "")))] = m
    bestcase = next((m for m in by_key.values() if m.get("role") == "bestcase"), None)
    given = set(f.key for f in figures(doc))
    for key in possible_keys(doc) - given:
        base = next((key[:-len(end)] for end in ("_us_per_loop", "_overhead") if key.endswith(end)), None)
        m = by_key.get(base) if base is not None else None
        if m is None or (key.endswith("_overhead") and m.get("role") == "bestcase"):
            continue   # not measured by this process at all, or 0 by definition: nothing was left out
        if m.get("unavailable"):
            out[key] = "unavailable"
        elif m.get("valid") is False:
            out[key] = invalid_kind(m)
        elif key.endswith("_overhead") and bestcase is not None and bestcase.get("valid") is False:
            out[key] = "its Bestcase: " + invalid_kind(bestcase)
        else:
            out[key] = "no value"
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
                "" if level.get("inner_threads") is None else level.get("inner_threads")), value)
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
