#!/usr/bin/env bash
# The shape of the product code (docs/architecture.md): includes go only
# downward through the layers, no two folders include each other, no writer
# reaches a header that measures, the writers in report/ do not include each
# other, and no product file is longer than a reader holds in mind. Reads the
# `#include "..."` lines of every product C file (git's files outside tests/
# and bench/), resolves them as the compiler does (the including file's folder,
# then -I.) and follows them transitively. Nothing is compiled or run.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 255

if ! command -v python3 >/dev/null 2>&1; then
    skip "the include graph follows the layers" "python3 not installed"
    done_testing
fi

# One line per assertion: STATUS<TAB>DESCRIPTION<TAB>DETAILS (\n-separated).
results=$(python3 - "$top" <<'PYTHON'
import os
import re
import subprocess
import sys

top = sys.argv[1]
os.chdir(top)

# ---------------------------------------------------------------- the files
def listed_files():
    try:
        # Only when this tree is a checkout's top: a copy inside another
        # checkout's build/ (make asan's tree) is ignored by that checkout.
        root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                              check=True).stdout.strip()
        if os.path.realpath(root) != os.path.realpath("."):
            raise OSError("not the checkout's top")
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout
        return [f for f in out.splitlines() if os.path.isfile(f)]
    except (OSError, subprocess.CalledProcessError):   # not a checkout: every file but the build's
        found = []
        for root, dirs, names in os.walk("."):
            dirs[:] = [d for d in dirs if not d.startswith((".git", "build", "out"))]
            found += [os.path.normpath(os.path.join(root, n)) for n in names]
        return found

product = sorted(f for f in listed_files() if not f.startswith(("tests/", "bench/")))
sources = [f for f in product if f.endswith((".c", ".h"))]
source_set = set(sources)

def folder(f):
    return os.path.dirname(f) or "."

# Headers that make writes into the build folder: not in the tree, nothing of ours behind them.
GENERATED = {"build_info_generated.h": "written by make into $(BUILD) (compiler, flags, commit)"}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
edges, unresolved = {}, []
for f in sources:
    edges[f] = set()
    with open(f, encoding="utf-8", errors="replace") as text:
        for number, line in enumerate(text, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            # As the compiler looks: the including file's folder, then -I. (the top).
            for candidate in (os.path.normpath(os.path.join(folder(f), name)), os.path.normpath(name)):
                if candidate in source_set:
                    edges[f].add(candidate)
                    break
            else:
                if os.path.basename(name) not in GENERATED:
                    unresolved.append(f"{f}:{number}: \"{name}\"")

def reach(start):
    """Every file start includes, directly or through others, with one path to each."""
    path = {start: [start]}
    todo = [start]
    while todo:
        f = todo.pop()
        for g in sorted(edges.get(f, ())):
            if g not in path:
                path[g] = path[f] + [g]
                todo.append(g)
    del path[start]
    return path

closure = {f: reach(f) for f in sources}

results = []
def check(problems, description):
    results.append(("0" if not problems else "1", description, "\\n".join(problems)))

check([] if len(sources) >= 50 and sum(map(len, edges.values())) >= 100
      else [f"only {len(sources)} C files and {sum(map(len, edges.values()))} includes found"],
      f"the include graph covers the product ({len(sources)} C files, {sum(map(len, edges.values()))} quoted includes)")
check(unresolved, "every quoted include names a file of the product (or the generated build_info_generated.h)")

# ------------------------------------------------------ (a) the layers
# Bottom to top. A file may include its own layer or one below it.
LAYER_NAMES = ["timing/ numa/ cli/ ompt/", "mesh/ offload/", "kernels/", "the record (measure/record.h, measure/llnl_targets.h)",
               "measure/ mpi/", "setup/", "report/ (the writers)", "clomp.c stats/ write/"]
FOLDER_LAYER = {"timing": 0, "numa": 0, "cli": 0, "ompt": 0, "mesh": 1, "offload": 1, "kernels": 2, "measure": 4, "mpi": 4,
                "setup": 5, "report": 6, "stats": 7, "write": 7}
# The record is a layer of its own inside measure/: what every writer may read.
# Its two .c files implement it and sit with it, so they cannot reach the sequence either.
RECORD = {"measure/record.h", "measure/record.c", "measure/llnl_targets.h", "measure/llnl_targets.c",
          "measure/noise_record.h", "measure/construct_record.h", "measure/paired_record.h", "measure/limits_record.h"}
TOP_FILES = {"clomp.c": 7}
# Single edges the layer list gets wrong, each with why it is legitimate.
LAYER_EXCEPTIONS = {
    # Options holds the parsed --zone-stride as the mesh's ZoneLayout enum, as it holds --numa as numa/'s Placement.
    ("cli/options.h", "mesh/mesh.h"),
}
# cli/ is at the bottom so that everything may include cli/exit_status.h (constants) and cli/options.h
# (parsed options); it may itself include only cli/ and the --numa policy type.
CLI_MAY_INCLUDE = {"numa/placement.h"}
# A writer reads the record and nothing else of measure/.
WRITER_MEASURE_HEADERS = {"measure/record.h", "measure/llnl_targets.h"}

def layer(f):
    if f in RECORD:
        return 3
    if f in TOP_FILES:
        return TOP_FILES[f]
    return FOLDER_LAYER.get(f.split("/")[0] if "/" in f else None)

check([f"{f}: no layer for it (add its folder to FOLDER_LAYER in tests/layers.t)"
       for f in sources if layer(f) is None],
      "every product C file belongs to a layer")

upward = []
for f in sources:
    for g in sorted(edges[f]):
        lf, lg = layer(f), layer(g)
        if lf is None or lg is None or (f, g) in LAYER_EXCEPTIONS:
            continue
        if lg > lf:
            upward.append(f"{f} includes {g}: up from {LAYER_NAMES[lf]} to {LAYER_NAMES[lg]}")
        if f.startswith("cli/") and not (g.startswith("cli/") or g in CLI_MAY_INCLUDE):
            upward.append(f"{f} includes {g}: cli/ includes only cli/ and numa/placement.h")
        if f.startswith("report/") and g.startswith("measure/") and g not in WRITER_MEASURE_HEADERS:
            upward.append(f"{f} includes {g}: a writer includes from measure/ only record.h and llnl_targets.h")
check(upward, "every include goes to the including file's own layer or one below it "
              "(timing numa cli ompt < mesh < kernels < record < measure mpi < setup < report < clomp.c compare suite)")

# ---------------------------------------------------- (b) no cycles
def strongly_connected(nodes, succ):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in succ.get(v, ()):
                found.append(sorted(group))
    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found

folder_edges, folder_why = {}, {}
for f in sources:
    for g in edges[f]:
        a, b = folder(f), folder(g)
        if a != b:
            folder_edges.setdefault(a, set()).add(b)
            folder_why.setdefault((a, b), f"{f} -> {g}")
loops = []
for group in strongly_connected({folder(f) for f in sources}, folder_edges):
    members = set(group)
    why = [folder_why[(a, b)] for a in group for b in sorted(folder_edges.get(a, ())) if b in members]
    loops.append(f"folders {' '.join(group)} include each other: " + "; ".join(why))
check(loops, "no two folders include each other, directly or through others (the old mesh/ <-> numa/ loop stays gone)")
check([f"{' '.join(group)} include each other" for group in strongly_connected(set(sources), edges)],
      "no header includes itself through others")

# ------------------------------------------- (c) writers do not measure
# A measuring header declares what times, runs OpenMP regions, observes threads or pages, or runs the
# sequence. A writer (report/, the MPI rank view) reads the record; it must not reach one even
# through another header.
MEASURING = {
    "timing/clock.h": "reads the monotonic clock and the process CPU time",
    "timing/cycles.h": "calibrates the TSC against the clock",
    "numa/thread_placement.h": "observes where a team's threads run, inside an OpenMP region",
    "measure/locality.h": "queries the NUMA node of the mesh's pages",
    "measure/sequence.h": "runs the measurements",
    "measure/chunk_plan.h": "plans the timed chunks from a timed serial iteration",
    "measure/noise.h": "the noise census: times work quanta on the team, samples its threads around each chunk",
    "measure/warnings.h": "derives the warnings into the record (writers print them from the record)",
    "kernels/chunk_timer.h": "times each chunk of a run",
    "kernels/cycle.h": "generates the timed cycle of modules",
    "kernels/delay.h": "EPCC's delay and its calibration, which times it",
    "kernels/deposit.h": "runs calc_deposit, the serial step between the loops",
    "kernels/fault.h": "injects faults into the timed runs",
    "kernels/owned_check.h": "checks which thread updated each part after a timed chunk",
    "kernels/parallel_for.h": "runs the OpenMP parallel-for regions",
    "kernels/slice.h": "splits the parts among the threads inside an OpenMP region",
    "kernels/tasking.h": "runs the OpenMP taskloop and task regions",
    "kernels/update_part.h": "the timed kernel itself",
    "offload/device_product.h": "the offload kernels' product (part of the timed kernel on the device)",
    "mpi/cluster.h": "MPI communication between the ranks",
    "kernels/construct_region.h": "records what the runtime gave inside every construct region",
    "kernels/construct_probe.h": "records what a construct body did when its check runs it (untimed)",
    "kernels/target_probe.h": "the target probes' shared delay and reference (offload builds): what they time",
    "measure/constructs.h": "measures the construct table",
    "measure/construct_level.h": "measures one construct at one level by EPCC's method",
    "setup/setup.h": "configures OpenMP, builds and first-touches the mesh, times the serial plan",
    "ompt/tool.h": "the OMPT tool: callbacks inside the runtime, the census, the sampling timer",
    "measure/ompt_plan.h": "checks the OMPT census against each schedule's plan into the record's warnings",
    "measure/construct_resolution.h": "marks the measured construct levels that are not the construct's cost",
    "measure/construct_shape.h": "observes level 2's inner threads in an untimed nested region",
    "offload/device.h": "opens the offload device: runs a target region to prove it is not the host",
    "offload/device_mesh.h": "copies the mesh to and from the offload device around the timed chunks",
    "measure/paired_overhead.h": "times the paired overhead's blocks of adjacent chunks",
    "timing/core_clock.h": "times a chain of additions on every thread of the team",
    "kernels/ref_barrier.h": "the reference barriers of --limits: spinning waits inside the team's regions",
    "kernels/ref_spin.h": "how the reference barriers and the ping-pong spin on a flag",
    "kernels/ref_forkjoin.h": "the reference fork/join's spinning pool",
    "kernels/ref_check.h": "checks the reference barriers and fork/join inside the team's regions",
    "kernels/line_pingpong.h": "bounces a cache line between two threads and times it",
    "numa/cpu_place.h": "reads a CPU's topology from sysfs",
    "measure/limits.h": "measures --limits: the pairs, the barriers and fork/joins",
    "measure/groups.h": "measures the groups a run asks for after its sequence (--constructs, --limits)",
}
# Headers below the writers that a writer may reach: types, tables and arithmetic on recorded values.
DATA = {
    "timing/cycle_rate.h": "the cycle rate and its source; converting us to cycles",
    "timing/process_cost.h": "the process CPU cost, as data",
    "timing/statistics.h": "statistics of recorded samples",
    "timing/comparison.h": "rank tests on recorded samples (clomp-stats)",
    "numa/team_placement.h": "the observed team placement, as data",
    "numa/node_topology.h": "the node's CPUs as sysfs describes them, read as files: no region, no clock",
    "numa/root_file.h": "small files under a root (sysfs, proc or a stand-in), read with open/read: no region, no clock",
    "numa/job_cores.h": "the job's cores as counted from files and the environment, and plain functions of them",
    "numa/placement.h": "the --numa policy and its text",
    "numa/arena.h": "the mesh's NUMA-policy allocator, reached through mesh/mesh.h; observes nothing",
    "mesh/mesh.h": "the mesh types the record holds",
    "mesh/verify.h": "checksums and verification of a mesh",
    "kernels/problem.h": "the problem and the team observation, as data",
    "kernels/schedule.h": "the schedule table: names, roles, availability",
    "measure/record.h": "the run record",
    "measure/noise_record.h": "the noise census's figures, as the record holds them",
    "measure/construct_record.h": "the construct table's figures, as the record holds them",
    "measure/llnl_targets.h": "the LLNL targets table; judging a recorded figure",
    "measure/summarize.h": "figures from the recorded chunk timings (the rank view re-derives the rank it shows)",
    "cli/options.h": "the parsed options",
    "cli/construct_options.h": "the parsed --constructs options and EPCC's defaults",
    "kernels/construct.h": "the construct table: keys, names, kinds; the region log type",
    "measure/construct_overhead.h": "EPCC's overhead arithmetic on recorded times",
    "cli/exit_status.h": "exit status constants",
    "cli/ompt_mode.h": "the --ompt modes and their names",
    "ompt/census.h": "what the OMPT tool saw (census, samples, the tool's set-up), as data",
    "ompt/omp_tools.h": "the OMPT types of the OpenMP 5.x specification (omp-tools.h or our declarations)",
    "offload/device_info.h": "the opened offload device's description, as data (filled before any measurement)",
    "timing/signed_rank.h": "paired statistics of recorded samples (signed-rank, Holm, series)",
    "timing/decision.h": "decisions on recorded samples (Brunner-Munzel, group-sequential level, prediction interval)",
    "timing/replication.h": "how many processes a pilot's recorded figures ask for (--replicates auto)",
    "timing/planning.h": "what recorded differences let a plan promise (power, the spread's upper bound)",
    "timing/simulation_memo.h": "seeded simulations' results remembered by their inputs (clomp-stats, one thread)",
    "timing/outlier_rule.h": "the outlier rule on recorded figures (ranks, table rows, cluster nodes)",
    "measure/paired_record.h": "the paired overhead's figures, as the record holds them",
    "measure/limits_record.h": "--limits' figures, as the record holds them",
    "numa/cpu_classes.h": "what lies between two CPUs: the classes and their names, from CPU places as data",
    "cli/limits_options.h": "the parsed --limits options and their defaults",
}

def is_writer(f):
    return f.startswith("report/") or f.startswith("mpi/rank_view.")

check([f"{h}: neither measuring nor data: say which in MEASURING or DATA in tests/layers.t"
       for h in sources if h.endswith(".h") and not is_writer(h) and (layer(h) or 0) < 6
       and h not in MEASURING and h not in DATA] +
      [f"{h}: listed but not in the product" for h in list(MEASURING) + list(DATA) if h not in source_set],
      "every header below the writers is listed as measuring or as data, with its reason")

measuring_reached = []
for f in sources:
    if not is_writer(f):
        continue
    for h, path in sorted(closure[f].items()):
        if h in MEASURING:
            measuring_reached.append(f"{f} reaches {h} ({MEASURING[h]}): " + " -> ".join(path))
check(measuring_reached, "no writer (report/, mpi/rank_view) includes a measuring header, directly or through others")

# ----------------------------------- (d) the writers in report/ stand apart
# What each report/ file may include from report/ (besides nothing else of report/).
SHARED = {"figures.h", "build_info.h", "construct_columns.h", "process_figures.h", "figure_catalogue.h"}
REPORT_RULES = [
    (r"text_\w+\.[ch]", {"text_report.h", "text_format.h"} | SHARED, "the text writer"),
    (r"progress\.[ch]", {"progress.h", "text_report.h", "text_format.h"} | SHARED,
     "the live progress lines (they print the text writer's blocks)"),
    (r"json\w*\.[ch]", {"json_report.h", "json_sections.h", "json.h"} | SHARED, "the JSON writer"),
    (r"csv_\w+\.[ch]", {"csv_report.h", "figures.h", "construct_columns.h", "process_figures.h"}, "the CSV writer"),
    # json.h is the JSON text itself (escaping, numbers that read back), not the --json record's writer.
    (r"caliper_\w+\.[ch]", {"caliper_report.h", "caliper_sections.h", "json.h"} | SHARED,
     "the Caliper profile's writer (--caliper-json)"),
    (r"result_files\.[ch]", {"result_files.h", "csv_report.h", "json_report.h", "text_report.h", "caliper_report.h"},
     "the dispatcher (opens the files, calls each writer; --list-figures' text or JSON)"),
    (r"figures\.[ch]", {"figures.h"}, "the per-measurement table every writer loops over"),
    (r"figure_catalogue\.[ch]", {"figure_catalogue.h", "figures.h", "process_figures.h"},
     "the catalogue of figures (--list-figures): every figure's key, label, unit and estimator"),
    (r"build_info\.[ch]", {"build_info.h"}, "the build facts text and JSON print"),
    (r"construct_columns\.[ch]", {"construct_columns.h", "figures.h"},
     "the per-construct table (--constructs) every writer loops over"),
    (r"process_figures\.[ch]", {"process_figures.h"},
     "the catalogue's process, construct and --limits figures (--limits' writers loop over its slice)"),
]
crossing, unplaced = [], []
for f in sources:
    if not f.startswith("report/"):
        continue
    name = f[len("report/"):]
    rule = next((r for r in REPORT_RULES if re.fullmatch(r[0], name)), None)
    if rule is None:
        unplaced.append(f"{f}: not a known writer (add it to REPORT_RULES in tests/layers.t)")
        continue
    for g in sorted(edges[f]):
        if g.startswith("report/") and g[len("report/"):] not in rule[1]:
            crossing.append(f"{f} ({rule[2]}) includes {g}; it may include from report/ only "
                            + ", ".join(sorted(rule[1])))
check(unplaced, "every report/ file belongs to a writer, the dispatcher or the shared tables")
check(crossing, "no writer in report/ includes another writer's header; figures and build_info include no writer")

# --------------------------------------------------- (e) the file sizes
LIMIT, LIMITS = 400, {"run_clomp.sh": 421}   # the suite's driver reads top to bottom: at most 421

def is_shell(f):
    if f.endswith(".sh"):
        return True
    try:
        with open(f, "rb") as text:
            first = text.readline(200)
    except OSError:
        return False
    return re.match(rb"#!\s*(/usr/bin/env\s+)?(/bin/|/usr/bin/)?(ba|da|k)?sh\b", first) is not None

long_files = []
checked = 0
for f in product:
    if f == "Makefile" or not (f.endswith((".c", ".h")) or is_shell(f)):
        continue
    checked += 1
    with open(f, "rb") as text:
        lines = text.read().count(b"\n")
    if lines > LIMITS.get(f, LIMIT):
        long_files.append(f"{f}: {lines} lines (at most {LIMITS.get(f, LIMIT)})")
check(long_files, f"no product file is over 400 lines, run_clomp.sh over 421 ({checked} C, header and shell files)")

# Issue 46, item 6: the driver plans, runs, guards and records; what else it needs is C (write/,
# stats/) or the results package. Counted as the issue counts it: run_clomp.sh and the .sh files of
# suite/, compare/ and results/, every line.
SHELL_LIMIT = 1600
driver_shell = [f for f in product if f == "run_clomp.sh"
                or re.fullmatch(r"(suite|compare|results)/.*\.sh", f)]
shell_lines = 0
for f in driver_shell:
    with open(f, "rb") as text:
        shell_lines += text.read().count(b"\n")
check([] if shell_lines <= SHELL_LIMIT else [f"{shell_lines} lines in {len(driver_shell)} files"],
      f"the product shell (run_clomp.sh, suite/ compare/ results/ *.sh) is at most {SHELL_LIMIT} lines")

for status, description, details in results:
    print(f"{status}\t{description}\t{details}")
PYTHON
)
py_status=$?
if [ "$py_status" -ne 0 ] || [ -z "$results" ]; then
    echo "Bail out! the include graph could not be read (python3 exited $py_status)"
    exit 255
fi

while IFS=$'\t' read -r status description details; do
    ok "$status" "$description"
    [ -z "$details" ] || diag "$(printf '%b' "$details")"
done <<<"$results"

done_testing
