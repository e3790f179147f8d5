#!/usr/bin/env python3
"""The golden files of tests/golden.t: one run's output, with everything that
changes from run to run, machine to machine or build to build masked, so that
what is left must be identical before and after a change of the C code.

    golden.py text OUT --exe PATH     the text report, masked line by line
    golden.py json-keys JSON          every key path of the JSON (arrays collapsed to []; not inside
                                      numa.locality.after_timed_runs or paired_overhead.ci_95, which follow the machine)
    golden.py json-values JSON        the few JSON values that are deterministic
    golden.py csv CSV                 the CSV header and the deterministic columns of every row
    golden.py without-libnuma KIND    (txt or json-keys; filter, stdin to stdout) drop what a NUMA=0 build cannot have

Text masking (by the line's label; the label itself and the line's place always stay):
  value masked (label kept, the rest becomes `*`):
      Hostname, Start time, Executable, Started, Compiler, CFLAGS, LDFLAGS, OpenMP,
      Built on, Cycle rate, Speedup (its "(NX slowdown)" suffix comes and goes with
      the timing), Thread placement, CPUs, Job cores, and every NUMA line but NUMA placement;
      consecutive NUMA lines that mask to the same text are kept once (their number
      follows the machine's node layout)
  numbers masked (every number becomes `#`, the words stay):
      Runtime, us/Loop, Efficacy and Overhead (minus the "(within noise)" and "(below
      bestcase beyond noise: ...)" suffixes a negative overhead gets), Cycles, Spread,
      Median, Med. Ovh, Ovh. CI (minus ": within noise of 0"), Mesh build time, Process CPU time, Wall time, Delay, the LLNL
      target lines (whose met / not met / undecided becomes VERDICT), the "done in"
      time of Round lines, the summary rows Runtime, us/Loop, Speedup, Efficacy,
      Overhead (whose cells are also stripped of their padding), and the CORAL RFP figures after its 7 inputs
  partly masked: Nested OMP shape (the default's reason, which names NUMA nodes and
      sockets, becomes `default: *`); Pair Ovh keeps its estimate's number masked and
      masks everything after it (its interval, or none, and how it was taken follow the
      chunks' serial correlation and the machine's cache)
  numbers masked, any label beginning with Noise: the noise census's lines (the
      probe per thread, a measurement's disturbed chunks, the timed runs' totals);
      the value of Noise busy (the busy-machine rule follows the load) becomes *
  dropped: the Oversubscribed and SMT shared lines (the team against this machine's
      cores), WARNING lines about the machine or the load (binding, the job's cores,
      shared cores or CPUs, serialised inner teams, noisy measurement, noise comparable
      with the overhead, a busy machine) and the NUMA
      lines printed only when the kernel's numa_balancing is on
  exact: everything else — banner, Invocation (the binary's path written CLOMP),
      the inputs, Memory, Iterations, Residue and error bounds, Deposit model, Zone
      layout, OpenMP env (the test sets it), NUMA placement, Trials, Measurements,
      pseudocode, #Threads, Checksum, Verify, Teams, the other WARNING lines,
      separators, the summary's header row and the CORAL RFP inputs.
"""
import csv
import json
import re
import sys

NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")

# Fields of a measurement block: "%13s %8s: value".
BLOCK_FIELDS = {"Started", "#Threads", "Checksum", "Runtime", "us/Loop", "Speedup", "Efficacy", "Overhead",
                "Verify", "WARNING", "Spread", "Median", "Med. Ovh", "Ovh. CI", "Cycles", "Teams", "CPUs", "Delay",
                "Noise", "Pair Ovh"}
BLOCK_LINE = re.compile(r"^(.{13}) (.{8}): (.*)$")
LABEL_LINE = re.compile(r"^( *)([^:|]+?): (.*)$")

VALUE_MASKED = {"Hostname", "Start time", "Executable", "Started", "Compiler", "CFLAGS", "LDFLAGS", "OpenMP",
                "Built on", "Cycle rate", "Speedup", "Thread placement", "CPUs", "Job cores",
                "Core clock before the timed runs", "Core clock after the timed runs"}
NUMBERS_MASKED = {"Runtime", "us/Loop", "Efficacy", "Overhead", "Cycles", "Spread", "Median", "Med. Ovh", "Ovh. CI",
                  "Mesh build time", "Process CPU time", "Wall time", "Delay"}
LLNL_LINES = {"Barrier latency (OMP Barrier)", "Parallel-for overhead (Parallel For, EPCC's method)",
              "Fork/join (OMP Parallel)", "CLOMP overhead (Static OMP - Bestcase OMP)"}
SUMMARY_ROWS = ("Runtime,", "us/Loop,", "Speedup,", "Efficacy,", "Overhead,")
# NUMA lines a build without libnuma does not print (it prints NUMA placement
# and "NUMA locality: not measured (clomp built without libnuma)").
LIBNUMA_ONLY = {"NUMA nodes", "NUMA threads", "NUMA part pages", "NUMA pages/node", "NUMA per thread",
                "NUMA measured", "NUMA sampling", "NUMA part records"}
# WARNING lines that follow the machine, its load or the runtime, not the input.
MACHINE_WARNINGS = re.compile(r"threads are not bound|larger than the \d+ cores? |share a core|"
                              r"inner teams share CPUs|serialised the inner teams|fewer threads than requested|"
                              r"noisy measurement|noise comparable with the overhead|this machine was busy")
OVERHEAD_NOISE = re.compile(r" \((?:within noise|below bestcase beyond noise[^)]*)\)$")  # noise_note()


def numbers(text):
    return NUM.sub("#", text)


def mask_value(label, value):
    """The masked value of a labelled line, or None to drop the line."""
    if label == "WARNING":
        return None if MACHINE_WARNINGS.search(value) else value
    if label in ("Oversubscribed", "SMT shared"):         # the team against this machine's cores: there or not
        return None
    if label.startswith("NUMA") and "after the timed runs" in label:
        return None
    if label.startswith("NUMA") and label != "NUMA placement":
        return "*"
    if label in VALUE_MASKED:
        return "*"
    if label == "Noise busy":                             # the busy-machine rule: follows the load
        return "*"
    if label.startswith("Noise"):                         # the noise census: counts and times of this machine
        return re.sub(r"\b(switch|migration)(es|s)?\b", r"\1(s)", numbers(value))
    if label in ("Efficacy", "Overhead"):
        return numbers(OVERHEAD_NOISE.sub("", value))
    if label == "Ovh. CI":
        return numbers(value.replace(": within noise of 0", ""))
    if label == "Pair Ovh":
        # Interleaved or sequential follows the machine's last-level cache; whether the interval is widened,
        # or there is none (fewer than 2 effective blocks), the chunks' correlation: the words after the estimate.
        return numbers(re.sub(r", (?:95% CI|no 95% CI) .*$", ", * (Hodges-Lehmann, *)", value))
    if label in NUMBERS_MASKED:
        return numbers(value)
    if label in LLNL_LINES:
        # The verdict, and the cores' clock range the machine reports (or not), follow the machine.
        value = re.sub(r": (?:not met|met|undecided)( \(the (?:interval|cores' clock range) straddles it\))?( \(counted in nominal TSC "
                       r"cycles at .* core cycles\)| \(core cycles at --ghz=[^)]*\))?$", r": VERDICT\2", value)
        value = re.sub(r"the cores at \S+ GHz \((?:cpufreq|assumed[^)]*|measured on the team's threads[^)]*)\)",
                       "the cores at * GHz (*)", value)
        return numbers(value)
    if label == "Round":
        return re.sub(r"done in \S+ s", "done in # s", value)
    if label == "Nested OMP shape":
        return re.sub(r"default: [^)]*", "default: *", value)
    return value


def mask_line(line):
    """(label, masked line) or (label, None) to drop it; label None for unlabelled lines."""
    if re.match(r"^.{13}:\|", line):                      # pseudocode
        return None, line
    m = BLOCK_LINE.match(line)
    if m and m.group(2).strip() in BLOCK_FIELDS:
        label = m.group(2).strip()
        value = mask_value(label, m.group(3))
        return label, None if value is None else "%s %s: %s" % (m.group(1), m.group(2), value)
    if line.startswith(SUMMARY_ROWS):                     # cells padded to the numbers' widths
        return None, ", ".join(numbers(c.strip()) for c in line.split(","))
    if line.startswith("CORAL RFP, "):
        cells = line.split(", ")
        return None, ", ".join(cells[:2] + [numbers(c) for c in cells[2:]])
    m = LABEL_LINE.match(line)
    if m:
        label = m.group(2).strip()
        value = mask_value(label, m.group(3))
        return label, None if value is None else "%s%s: %s" % (m.group(1), m.group(2), value)
    return None, line


def text(path, exe):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    out = []
    previous = None
    for line in lines:
        line = line.replace(exe, "CLOMP")
        label, masked = mask_line(line)
        if masked is None:
            continue
        if label is not None and label.startswith("NUMA") and masked == previous:
            continue                                       # one NUMA part pages line per node run
        out.append(masked)
        previous = masked
    return out


def key_paths(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            path = prefix + "." + k if prefix else k
            out.add(path)
            # Present only when the kernel's numa_balancing is on: the key is
            # compared, its contents follow the machine. The paired overhead's
            # interval is null or a pair by its blocks' serial correlation (issue
            # 44): the key is compared, whether it holds a pair is not.
            if path not in ("numa.locality.after_timed_runs", "measurements[].paired_overhead.ci_95"):
                key_paths(v, path, out)
    elif isinstance(value, list):
        out.add(prefix + "[]")
        for v in value:
            key_paths(v, prefix + "[]", out)


def json_keys(path):
    with open(path) as f:
        doc = json.load(f)
    out = set()
    key_paths(doc, "", out)
    return sorted(out)


def json_values(path):
    """Members that the input alone decides: the same in every build, machine and run."""
    with open(path) as f:
        doc = json.load(f)
    out = []

    def put(name, value):
        out.append("%s = %s" % (name, json.dumps(value, sort_keys=True)))

    for k in ("schema", "schema_version", "schema_minor", "clomp_version", "status", "exit_status", "failure"):
        put(k, doc[k])
    for k, v in doc["inputs"].items():
        put("inputs." + k, v)
    for k, v in doc["resolved"].items():
        if k not in ("nested_shape", "job_cores"):         # the default's reason names the machine's nodes; the cores are its own
            put("resolved." + k, v)
    for k, v in doc["setup"].items():
        if k != "build_seconds":
            put("setup." + k, v)
    put("openmp_environment", doc["openmp_environment"])
    put("numa.placement", doc["numa"]["placement"])
    put("numa.thread_placement.team", doc["numa"]["thread_placement"]["team"])
    for m in doc["measurements"]:
        for k in ("name", "role", "selected", "unavailable", "threads", "verification", "checksum", "subnormals"):
            put("measurements[%s].%s" % (m["key"], k), m[k])
        put("measurements[%s].chunk_iterations" % m["key"],
            [[c["iterations"] for c in r["chunks"]] for r in m["rounds"]])
    return out


# CSV columns the input alone decides.
CSV_DETERMINISTIC = ["key", "name", "role", "selected", "threads", "verification", "verified_chunks",
                     "checksum_sum", "checksum_residue", "checksum_total", "status", "exit_status", "numThreads",
                     "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale", "numa",
                     "trials", "rounds", "iterations", "zone_stride"]


def csv_lines(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    out = ["header: " + ",".join(header)]
    where = {c: header.index(c) for c in CSV_DETERMINISTIC if c in header}
    for row in rows[1:]:
        out.append(",".join("%s=%s" % (c, row[i]) for c, i in where.items()))
    return out


def without_libnuma(kind, lines):
    """What a build without libnuma cannot print: its NUMA lines and per-thread locality keys."""
    keep = []
    for line in lines:
        if kind == "txt":
            m = LABEL_LINE.match(line)
            if m and m.group(2).strip() in LIBNUMA_ONLY:
                continue
        elif kind == "json-keys" and line.startswith("numa.locality.per_thread[]."):
            continue
        keep.append(line)
    return keep


def main(argv):
    kind = argv[1]
    if kind == "text":
        exe = argv[argv.index("--exe") + 1]
        lines = text(argv[2], exe)
    elif kind == "json-keys":
        lines = json_keys(argv[2])
    elif kind == "json-values":
        lines = json_values(argv[2])
    elif kind == "csv":
        lines = csv_lines(argv[2])
    elif kind == "without-libnuma":
        lines = without_libnuma(argv[2], sys.stdin.read().splitlines())
    else:
        sys.exit("usage: golden.py text|json-keys|json-values|csv FILE, or without-libnuma KIND")
    sys.stdout.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main(sys.argv)
