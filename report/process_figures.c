/* The process's own figures, the construct table's family and --limits' (process_figures.h). */
#include "process_figures.h"

#include <math.h>

static LimitValue value_of(double value, int has_ci, double low, double high, const char *not_a_result)
{
    LimitValue v = {!isnan(value), value, has_ci && !isnan(value), low, high, not_a_result, 0, NULL, NULL};
    if (!v.has_ci)
        v.low = v.high = NAN;
    return v;
}

/* What a figure lacks where it is N/A, in the order it is needed. */
#define NO_PAIR "no pair's round trip is a result"
#define NO_CLOCK "no core clock (not measured, no --ghz): nothing in cycles"

/* `v`, saying `missing` where it has no value. */
static LimitValue lacking(LimitValue v, const char *missing)
{
    if (!v.available)
        v.missing = missing;
    return v;
}

static const char *round_trip_missing(const LimitsRecord *l)
{
    return l->all.pairs == 0 ? NO_PAIR : NULL;
}

static const char *cycles_missing(const LimitsRecord *l)
{
    return l->all.pairs == 0 ? NO_PAIR : !(l->cycles_ghz > 0.0) ? NO_CLOCK : NULL;
}

/* A timing's median over its repetitions, times `scale` (1: ns; the clock's GHz: cycles). */
static LimitValue timing_value(const LimitsRecord *l, int id, double scale)
{
    const LimitTiming *t = &l->timing[id];
    if (!t->measured)
        return lacking(value_of(NAN, 0, NAN, NAN, NULL), "not timed");
    if (!(scale > 0.0))
        return lacking(value_of(NAN, 0, NAN, NAN, NULL), NO_CLOCK);
    LimitValue v = value_of(t->ns.median * scale, t->ns.has_ci, t->ns.ci_low * scale, t->ns.ci_high * scale,
                            t->invalid ? t->invalid_reason : NULL);
    v.note = t->name;   /* said where it is another figure's: the best reference's */
    return v;
}

static double cycles_scale(const LimitsRecord *l)
{
    return l->cycles_ghz > 0.0 ? l->cycles_ghz : NAN;
}

static LimitValue derived_value(const LimitDerived *d, double scale)
{
    const SampleStats *s = &d->stats;
    LimitValue v = value_of(s->median * scale, s->has_ci, s->ci_low * scale, s->ci_high * scale,
                            d->not_a_result[0] != '\0' ? d->not_a_result : NULL);
    v.withheld = v.not_a_result != NULL;
    return v;
}

static LimitValue round_trip(const LimitsRecord *l, double ns)
{
    return lacking(value_of(ns, 0, NAN, NAN, NULL), round_trip_missing(l));
}
static LimitValue round_trip_min(const LimitsRecord *l) { return round_trip(l, l->all.min_ns); }
static LimitValue round_trip_median(const LimitsRecord *l) { return round_trip(l, l->all.median_ns); }
static LimitValue round_trip_max(const LimitsRecord *l) { return round_trip(l, l->all.max_ns); }
/* A class's median: N/A where the team has no valid pair of that class. */
static LimitValue class_value(const LimitsRecord *l, PairClass c, const char *missing)
{
    return lacking(value_of(l->classes[c].median_ns, 0, NAN, NAN, NULL), missing);
}
static LimitValue smt(const LimitsRecord *l)
{
    return class_value(l, PAIR_SMT, "no valid pair of the team is two hardware threads of one core");
}
static LimitValue l3(const LimitsRecord *l)
{
    return class_value(l, PAIR_SAME_L3, "no valid pair of the team is on different cores sharing an L3");
}
static LimitValue socket(const LimitsRecord *l)
{
    return class_value(l, PAIR_SAME_SOCKET, "no valid pair of the team is on one socket but different L3s");
}
static LimitValue cross(const LimitsRecord *l)
{
    return class_value(l, PAIR_ACROSS_SOCKETS, "no valid pair of the team is on different sockets");
}
static LimitValue one_way_cycles(const LimitsRecord *l)
{
    return lacking(value_of(l->all.median_ns / 2.0 * cycles_scale(l), 0, NAN, NAN, NULL), cycles_missing(l));
}
static LimitValue central(const LimitsRecord *l) { return timing_value(l, LIMIT_CENTRAL, 1.0); }
static LimitValue dissemination(const LimitsRecord *l) { return timing_value(l, LIMIT_DISSEMINATION, 1.0); }
static LimitValue tournament(const LimitsRecord *l) { return timing_value(l, LIMIT_TOURNAMENT, 1.0); }
static LimitValue omp_barrier(const LimitsRecord *l) { return timing_value(l, LIMIT_OMP_BARRIER, 1.0); }
static LimitValue best_reference_cycles(const LimitsRecord *l)
{
    return l->best_reference >= 0 ? timing_value(l, l->best_reference, cycles_scale(l))
                                  : lacking(value_of(NAN, 0, NAN, NAN, NULL), "no reference barrier is a result");
}
static LimitValue omp_barrier_cycles(const LimitsRecord *l)
{
    LimitValue v = timing_value(l, LIMIT_OMP_BARRIER, cycles_scale(l));
    v.note = NULL;
    return v;
}
static LimitValue barrier_multiple(const LimitsRecord *l)
{
    if (l->best_reference < 0) {   /* withheld, as a multiple of figures that are not results is */
        LimitValue v = value_of(0.0, 0, NAN, NAN, "no reference barrier is a result");
        v.value = NAN;
        v.withheld = 1;
        return v;
    }
    if (!l->timing[LIMIT_OMP_BARRIER].measured)
        return lacking(value_of(NAN, 0, NAN, NAN, NULL), "OpenMP's barrier not timed");
    LimitValue v = derived_value(&l->barrier_multiple, 1.0);
    v.note = l->timing[l->best_reference].name;
    return v;
}
static LimitValue bound_ns(const LimitsRecord *l) { return lacking(derived_value(&l->bound, 1.0), NO_PAIR); }
static LimitValue bound_cycles(const LimitsRecord *l)
{
    return lacking(derived_value(&l->bound, cycles_scale(l)), cycles_missing(l));
}
static LimitValue reference_forkjoin(const LimitsRecord *l) { return timing_value(l, LIMIT_REF_FORKJOIN, 1.0); }
static LimitValue omp_forkjoin(const LimitsRecord *l) { return timing_value(l, LIMIT_OMP_FORKJOIN, 1.0); }
static LimitValue forkjoin_multiple(const LimitsRecord *l)
{
    if (!l->timing[LIMIT_OMP_FORKJOIN].measured)
        return lacking(value_of(NAN, 0, NAN, NAN, NULL), "OpenMP's fork/join not timed");
    return derived_value(&l->forkjoin_multiple, 1.0);
}

#define PAIRS "the median over batches of 32 round trips, per pair; over the valid pairs"
#define REPS "median over the repetitions of (repetition time / operations in it), 95% order-statistic interval"
/* A --limits row: its catalogue key and CSV column limits_<member>, its JSON limits.figures.<member>. */
#define LIMIT(member, label, unit, measures, estimator, timing, fn)                                                 \
    {"limits_" member, label, unit, measures, estimator, BETTER_LOWER, "limits.figures." member ".value",         \
     "limits_" member, "limits.figures." member ".ci_95", FIGURE_SET_LIMITS, member, timing, fn}
#define CLASS_ROW(member, label, fn, class_text)                                                                    \
    LIMIT(member, label, "ns", "round trip of one cache line between two of the team's CPUs " class_text,          \
          "median of the pairs of that class (" PAIRS ")", -1, fn)

/* run_clomp.sh --grain's figures (docs/grain.md): from the processes of a team size and loop size, in the grain
 * document (its JSON: teams[] per team size, teams[].sizes[] per loop size, best_team[] per loop size). */
#define GRAIN(key, label, unit, measures, estimator, better, json)                                                  \
    {key, label, unit, measures, estimator, better, json, NULL, NULL, FIGURE_SET_GRAIN, NOT_LIMITS}
#define GRAIN_RATIO "the Hodges-Lehmann ratio of Serial Ref's median-chunk us/Loop to Static OMP's over the processes " \
    "that gave both (clomp-stats compare, ratio scale); 95% interval: its Mann-Whitney interval (none below 4 processes)"
#define GRAIN_MEDIAN "the median over the processes of each one's median chunk (clomp-stats summary); 95% order-statistic " \
    "interval of that median (none below 6 processes)"
#define GRAIN_SEARCH "loop sizes from 64 zones in geometric steps (stopping at the first whose efficiency interval lies " \
    "above 90%, or at 1 M zones), then geometric bisection inside the bracket; the smallest size measured whose "

#define RUSAGE "getrusage at the process's end"
#define NOT_LIMITS NULL, -1, NULL

/* clang-format off */
const ProcessFigure process_figures[] = {
    {"user_cpu_seconds", "user CPU seconds", "s", "CPU time the whole process spent in user mode (every thread)",
     RUSAGE, BETTER_LOWER, "process_cost.user_cpu_seconds", "user_cpu_seconds", NULL, FIGURE_SET_KEY, NOT_LIMITS},
    {"system_cpu_seconds", "system CPU seconds", "s", "CPU time the whole process spent in the kernel (every thread)",
     RUSAGE, BETTER_LOWER, "process_cost.system_cpu_seconds", "system_cpu_seconds", NULL, FIGURE_SET_KEY, NOT_LIMITS},
    {"cpu_per_wall", "CPU/wall", "CPU s per s",
     "the cores the process kept busy: 2 = two cores throughout (a runtime whose idle threads spin burns its "
     "team's cores between loops)",
     "(user + system CPU seconds) over wall seconds, " RUSAGE, BETTER_LOWER, "process_cost.cpus_busy", NULL, NULL,
     FIGURE_SET_SWEEP, NOT_LIMITS},
    {"CONSTRUCT[_chunkC]_levelL_overhead", "CONSTRUCT NAME level L (OUTERxINNER) overhead us", "us",
     "one OpenMP construct's cost at nesting level L (clomp --constructs, docs/constructs.md)",
     "EPCC's method: each repetition's test time minus its reference time over the inner repetitions; the median "
     "over the repetitions", BETTER_LOWER, "constructs.rows[].levels[].overhead_us", "overhead_us", NULL, 0,
     NOT_LIMITS},
    GRAIN("grain_speedup", "Grain speed-up", "x",
          "Static OMP's speed-up over Serial Ref at one loop size and team size, at fixed total work",
          GRAIN_RATIO, BETTER_HIGHER, "teams[].sizes[].speedup.value"),
    GRAIN("grain_efficiency_percent", "Grain efficiency", "%",
          "the speed-up per thread: speed-up / team size x 100 (100%: perfect scaling over Serial Ref's rate)",
          "the grain speed-up and its interval divided by the team size the runtime gave", BETTER_HIGHER,
          "teams[].sizes[].efficiency_percent.value"),
    GRAIN("grain_serial_us_per_loop", "Grain serial work per loop", "us",
          "Serial Ref's time for one loop of that size: the serial work one parallel loop divides", GRAIN_MEDIAN,
          BETTER_LOWER, "teams[].sizes[].serial_loop_us.value"),
    GRAIN("grain_parallel_us_per_loop", "Grain parallel loop time", "us",
          "Static OMP's wall time for one loop of that size on the team", GRAIN_MEDIAN, BETTER_LOWER,
          "teams[].sizes[].parallel_loop_us.value"),
    GRAIN("grain_smallest_speedup_zones", "Smallest loop that speeds up", "zones",
          "the smallest loop (zones) whose threading on the team is faster than Serial Ref",
          GRAIN_SEARCH "speed-up interval lies wholly above 1; not decided while a smaller size gave no interval",
          BETTER_LOWER, "teams[].smallest_speedup.zones"),
    GRAIN("grain_smallest_speedup_serial_us", "Smallest loop that speeds up, serial work", "us",
          "the serial work per loop (Serial Ref's us/Loop) of the smallest loop that speeds up", GRAIN_MEDIAN,
          BETTER_LOWER, "teams[].smallest_speedup.serial_loop_us.value"),
    GRAIN("grain_half_efficiency_zones", "Smallest loop at 50% efficiency", "zones",
          "the smallest loop (zones) whose threading on the team reaches 50% efficiency",
          GRAIN_SEARCH "efficiency interval lies wholly at or above 50%; not decided while a smaller size gave no "
          "interval", BETTER_LOWER, "teams[].half_efficiency.zones"),
    GRAIN("grain_metg50_us", "METG(50%)", "us",
          "Task Bench's minimum effective task granularity at 50% efficiency: wall time x cores / tasks, here one task "
          "per thread per loop, so the wall time of one parallel loop at the smallest loop reaching 50% efficiency",
          "Static OMP's us/Loop at that size: " GRAIN_MEDIAN, BETTER_LOWER, "teams[].half_efficiency.metg_us.value"),
    GRAIN("grain_best_team", "Best team size", "threads",
          "per loop size, the smallest team within noise of the fastest (Serial Ref counts as a team of 1 at speed-up 1)",
          "the team of the highest grain speed-up; a smaller team whose speed-up interval reaches that one's lower end "
          "is within noise; the smallest such (a team without an interval is not judged)", BETTER_LOWER,
          "best_team[].threads"),
#define FIRST_LIMIT 13
    LIMIT("round_trip_min_ns", "Round trip, closest pair", "ns",
          "one cache line there and back between the two CPUs of the team's closest pair", "least of " PAIRS, -1,
          round_trip_min),
    LIMIT("round_trip_median_ns", "Round trip, median pair", "ns",
          "one cache line there and back between two of the team's CPUs, the typical pair", "median of " PAIRS, -1,
          round_trip_median),
    LIMIT("round_trip_max_ns", "Round trip, farthest pair", "ns",
          "one cache line there and back between the two CPUs of the team's farthest pair", "greatest of " PAIRS, -1,
          round_trip_max),
    CLASS_ROW("round_trip_smt_ns", "Round trip, SMT siblings", smt, "that are hardware threads of one core"),
    CLASS_ROW("round_trip_l3_ns", "Round trip, same L3", l3, "on different cores sharing an L3 (a CCX)"),
    CLASS_ROW("round_trip_socket_ns", "Round trip, same socket", socket, "on one socket but different L3s"),
    CLASS_ROW("round_trip_cross_socket_ns", "Round trip, across sockets", cross, "on different sockets"),
    LIMIT("one_way_cycles", "One-way latency", "cycles", "one transfer of a cache line between two of the team's CPUs",
          "half the median pair's round trip, times the team's core clock measured just before", -1, one_way_cycles),
    LIMIT("central_ns", "Central counter barrier", "ns", "one sense-reversing central counter barrier of the team",
          REPS, LIMIT_CENTRAL, central),
    LIMIT("dissemination_ns", "Dissemination barrier", "ns",
          "one dissemination barrier of the team (ceil(log2 T) rounds)", REPS, LIMIT_DISSEMINATION, dissemination),
    LIMIT("tournament_ns", "Tournament barrier", "ns", "one tournament barrier of the team, tree wake-up", REPS,
          LIMIT_TOURNAMENT, tournament),
    LIMIT("omp_barrier_ns", "OpenMP barrier", "ns", "one #pragma omp barrier of the team, as OMP Barrier times it",
          REPS, LIMIT_OMP_BARRIER, omp_barrier),
    LIMIT("best_reference_barrier_cycles", "Best reference barrier", "cycles",
          "the reference barrier with the least median, in core cycles", REPS ", times the core clock", -1,
          best_reference_cycles),
    LIMIT("omp_barrier_cycles", "OpenMP barrier", "cycles",
          "one OpenMP barrier of the team, in core cycles (LLNL: < 200)", REPS ", times the core clock", -1,
          omp_barrier_cycles),
    LIMIT("barrier_multiple", "OpenMP barrier / best reference", "x",
          "how many times the best hand-written barrier OpenMP's barrier costs on the same threads",
          "median over the repetitions of OpenMP's time / the best reference's time in the same repetition, "
          "95% order-statistic interval", -1, barrier_multiple),
    LIMIT("barrier_bound_ns", "Latency bound", "ns",
          "ceil(log2 T) one-way line transfers one after another: a dissemination barrier's critical path",
          "ceil(log2 T) x half the median pair's round trip", -1, bound_ns),
    LIMIT("barrier_bound_cycles", "Latency bound", "cycles", "the latency bound in core cycles (LLNL's barrier: < 200)",
          "ceil(log2 T) x half the median pair's round trip, times the core clock", -1, bound_cycles),
    LIMIT("reference_forkjoin_ns", "Reference fork/join", "ns",
          "one fork and join of a spinning pool: released by one flag, joined by one counter", REPS,
          LIMIT_REF_FORKJOIN, reference_forkjoin),
    LIMIT("omp_forkjoin_ns", "OpenMP fork/join", "ns",
          "one empty #pragma omp parallel of the team, as OMP Parallel times it", REPS, LIMIT_OMP_FORKJOIN,
          omp_forkjoin),
    LIMIT("forkjoin_multiple", "OpenMP fork/join / reference", "x",
          "how many times the reference fork/join OpenMP's fork/join costs on the same threads",
          "median over the repetitions of OpenMP's time / the reference's time in the same repetition, "
          "95% order-statistic interval", -1, forkjoin_multiple),
};
/* clang-format on */
const size_t process_figure_count = sizeof process_figures / sizeof process_figures[0];
const ProcessFigure *const limit_figures = &process_figures[FIRST_LIMIT];
const size_t limit_figure_count = sizeof process_figures / sizeof process_figures[0] - FIRST_LIMIT;
