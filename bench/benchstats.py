"""Shared by the bench/ scripts: read the figures of a clomp or CLOMP 1.2
text report, and bootstrap intervals for comparisons between processes."""
import re
import statistics

LINE = re.compile(r"^\s*(\S.*?)\s+(us/Loop|Overhead|Med\. Ovh|Checksum):\s+(.*)$")


def read_report(path):
    """{schedule: {"us": float, "overhead": float, "median_overhead": float, "checksum": str}}:
    us/Loop and Overhead are CLOMP 1.2's lines (the whole Runtime); median_overhead is
    clomp's Med. Ovh line (median chunk minus Bestcase's median chunk), when printed."""
    found = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = LINE.match(line)
                if not m:
                    continue
                name, field, rest = m.groups()
                entry = found.setdefault(name, {})
                if field == "Checksum":
                    entry["checksum"] = rest.strip()
                    continue
                try:
                    value = float(rest.split()[0])
                except (ValueError, IndexError):
                    continue
                entry[{"us/Loop": "us", "Overhead": "overhead", "Med. Ovh": "median_overhead"}[field]] = value
    except OSError:
        pass
    return found


def bootstrap_interval(a, b, statistic, rng, resamples=4000):
    """Percentile bootstrap 95% interval of statistic(median(a*), median(b*)),
    resampling each side independently; None when undefined too often."""
    values = []
    for _ in range(resamples):
        x = statistics.median(rng.choices(a, k=len(a)))
        y = statistics.median(rng.choices(b, k=len(b)))
        v = statistic(x, y)
        if v is not None:
            values.append(v)
    if len(values) < resamples * 0.9:
        return None
    values.sort()
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def ratio_interval(ours, ref, rng):
    """95% interval of median(ours) / median(ref)."""
    return bootstrap_interval(ours, ref, lambda x, y: x / y if y != 0 else None, rng)


def difference_interval(a, b, rng):
    """95% interval of median(a) - median(b)."""
    return bootstrap_interval(a, b, lambda x, y: x - y, rng)


def signed_rank_counts(n):
    """Counts of the signed-rank statistic W+ over the 2^n sign patterns."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    reach = 0
    for k in range(1, n + 1):
        reach += k
        for w in range(reach, k - 1, -1):
            counts[w] += counts[w - k]
    return counts


def paired_shift(diffs, level=0.95):
    """Hodges-Lehmann shift of paired differences with its exact signed-rank
    interval (timing/signed_rank.c's method, for n up to 50): (estimate, low,
    high, coverage); low and high None when n is too small for the level."""
    n = len(diffs)
    walsh = sorted((diffs[i] + diffs[j]) / 2 for i in range(n) for j in range(i, n))
    estimate = statistics.median(walsh) if walsh else None
    if n > 50 or n < 1:
        return estimate, None, None, None
    counts, total = signed_rank_counts(n), 2 ** n
    best, coverage, tail = 0, None, 0
    for k in range(1, len(walsh) // 2 + 1):
        tail += counts[k - 1]
        if tail / total > (1 - level) / 2:
            break
        best, coverage = k, 1 - 2 * tail / total
    if best == 0:
        return estimate, None, None, None
    return estimate, walsh[best - 1], walsh[len(walsh) - best], coverage
