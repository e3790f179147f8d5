"""The inputs of `run_clomp.sh --compare A,B`'s report (compare_report.py):
the header records compare_driver.py wrote (each side's spec, binary and
settings, and the OpenMP runtime library it loads), and the processes'
records STEM_<A|B><r>.json paired by figure, with what each side lost and
why; the note when the sides differ in compiler and runtime at once."""
import os
from collections import Counter, OrderedDict

from ..core import catalogue, compare_figures, runtime_library
from ..core.safe_io import for_terminal, no_controls


def read_header(text):
    """{name: value} of the single records, [side cells], {label: [VAR=VALUE]}."""
    single, sides, settings = {}, [], {"A": [], "B": []}
    for line in text.splitlines():
        cells = line.split("\t")
        if cells[0] == "side":
            sides.append(cells[1:])
        elif cells[0] == "setting" and len(cells) >= 4:
            settings.setdefault(cells[1], []).append("%s=%s" % (cells[2], "\t".join(cells[3:])))
        elif len(cells) >= 2:
            single[cells[0]] = "\t".join(cells[1:])
    return single, sides, settings


def zip_sides(header_text, sides):
    """Each line of the header with its side's cells (the side records in order), else None."""
    it = iter(sides)
    return [(line, next(it) if line.startswith("side\t") else None) for line in header_text.splitlines()]


def with_runtime(header_text):
    """The driver's "side LABEL SPEC WHAT BINARY LD_LIBRARY_PATH_FIRST" records with the OpenMP runtime
    the side loads (runtime_library.loaded_runtime: ldd in the side's environment as the driver runs
    it, its LD_LIBRARY_PATH first, then its settings) and its placement appended, as clomp-stats
    comparison-json reads them: with control characters as visible escapes (no_controls), as the driver's
    cells are (compare_driver.header_records; a binary path that holds one is then not found by ldd:
    its runtime is said unknown)."""
    settings, lines = read_header(header_text)[2], []
    for line in header_text.splitlines():
        cells = line.split("\t")
        if cells[0] == "side" and len(cells) == 6:
            env = dict(os.environ)
            if cells[5]:
                env["LD_LIBRARY_PATH"] = cells[5] + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
            env.update(setting.split("=", 1) for setting in settings.get(cells[1], []))
            cells += [no_controls(c) for c in runtime_library.loaded_runtime(cells[4], env)]
            cells.append(no_controls(runtime_library.placement(settings.get(cells[1], []), os.environ)))
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def loaded_libraries(docs, resolved):
    """Which OpenMP library each process of a side really loaded (its record's ompt.runtime_path: the
    file as /proc/self/maps lists it), against the one ldd RESOLVED before the run: "PATH (all N
    processes)", or each path with its count, and a note where it is not the resolved one."""
    counts = Counter(for_terminal(str((d.get("ompt") or {}).get("runtime_path") or
                                      "not recorded (a clomp before schema_minor 15)")) for d in docs)
    if not counts:
        return "no process ran"
    if len(counts) == 1:
        path, n = next(iter(counts.items()))
        said = "%s (all %d processes)" % (path, n)
    else:
        said = "; ".join("%s (%d processes)" % (p, n) for p, n in sorted(counts.items()))
    others = [p for p in counts if p.startswith("/") and resolved.startswith("/") and
              os.path.realpath(p) != os.path.realpath(resolved)]
    return said + ("; not the library ldd resolved for the side (%s)" % resolved if others else "")


def process_pairs(stem, n):
    """OrderedDict KEY -> {"name", "constant", "a": [...], "b": [...], "dropped": {"A": {why: processes},
    "B": {...}}} over the pairs 1..n: a pair gives the figure when both its processes did; a process
    that could give it but did not is counted on its side with the reason its record gives
    (compare_figures.missing_reasons); and side -> [records]."""
    figures, docs = OrderedDict(), {"A": [], "B": []}
    for r in range(1, n + 1):
        pair, missing = OrderedDict(), {}
        for k, label in enumerate("AB"):
            doc = compare_figures.read_record("%s_%s%d.json" % (stem, label, r))
            docs[label].append(doc)
            for f in compare_figures.figures(doc):
                entry = pair.setdefault(f.key, [f, None, None])
                entry[1 + k] = f.value
                entry[0].constant = entry[0].constant or f.constant
            missing[label] = compare_figures.missing_reasons(doc)
        for key, (f, a, b) in pair.items():
            e = figures.setdefault(key, {"name": f.name, "unit": f.unit, "constant": False, "a": [], "b": [],
                                         "dropped": {"A": Counter(), "B": Counter()}})
            e["constant"] = e["constant"] or f.constant
            if a is not None and b is not None:
                e["a"].append(a)
                e["b"].append(b)
        for label in "AB":
            for key, why in missing[label].items():
                fig = catalogue.load().figure(key)
                e = figures.setdefault(key, {"name": fig.label if fig else key, "unit": fig.unit if fig else "",
                                             "constant": False, "a": [], "b": [],
                                             "dropped": {"A": Counter(), "B": Counter()}})
                e["dropped"][label][why] += 1
    return figures, docs


def mixing_note(docs, sides):
    """Lines saying when A and B differ in compiler and OpenMP runtime at once (issue 35 item 10)."""
    def first(label, path):
        doc = docs[label][0] if docs[label] else {}
        for key in path:
            doc = doc.get(key) if isinstance(doc, dict) else None
        return doc
    compilers = [first(l, ("build", "compiler")) for l in "AB"]
    runtimes = [first(l, ("ompt", "runtime")) or (s[5] if len(s) > 5 else None) for l, s in zip("AB", sides + [[], []])]
    if compilers[0] == compilers[1] or runtimes[0] == runtimes[1] or None in compilers or None in runtimes:
        return []
    return ["  Note: A and B differ in the compiler (%s; %s) and the OpenMP runtime (%s; %s) at once: a difference"
            % (compilers[0], compilers[1], runtimes[0], runtimes[1]),
            "        in a figure can come from either (calc_deposit is serial code: it differs by the compiler alone).",
            "        For the runtime alone compare one build on both runtimes: --compare gnu,libomp."]
