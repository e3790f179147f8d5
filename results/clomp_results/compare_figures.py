"""The figures `run_clomp.sh --compare` compares, from each process's JSON
record (docs/json-schema.md) by member name: per selected measurement its
us/Loop and its overhead against Bestcase, the process's CPU seconds; with
--constructs, one overhead per construct, chunk and level. A figure a
process did not measure (null) is left out of that process."""
import json

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


def figures(doc):
    """[(figure name, value)] of one process, in report order."""
    constructs = doc.get("constructs")
    if isinstance(constructs, dict) and constructs.get("rows"):
        return construct_figures(constructs["rows"])
    out = []
    for m in doc.get("measurements") or []:
        if not isinstance(m, dict) or not m.get("selected"):
            continue
        name = plain(m.get("name", ""))
        if num(m.get("us_per_loop")) is not None:
            out.append(("%s us/Loop" % name, num(m.get("us_per_loop"))))
        if num(m.get("overhead_us_per_loop")) is not None:
            out.append(("%s overhead us/Loop" % name, num(m.get("overhead_us_per_loop"))))
    cost = doc.get("process_cost") or {}
    for member, name in (("user_cpu_seconds", "user CPU seconds"), ("system_cpu_seconds", "system CPU seconds")):
        if num(cost.get(member)) is not None:
            out.append((name, num(cost.get(member))))
    return out


def construct_figures(rows):
    out = []
    for row in rows:
        for level in row.get("levels") or []:
            value = num(level.get("overhead_us"))
            if value is None or level.get("status") != "measured":
                continue
            out.append(("%s level %s (%sx%s) overhead us" % (
                plain(row.get("construct_name", "")), level.get("level", ""),
                "" if level.get("outer_threads") is None else level.get("outer_threads"),
                "" if level.get("inner_threads") is None else level.get("inner_threads")), value))
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
