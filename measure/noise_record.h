/* The noise census as data: what the fixed-work-quantum probe found per
 * thread before the timed runs, and what disturbed the timed runs (thread
 * preemptions and migrations per chunk, steal time, interrupts). Measured by
 * measure/noise_probe.c and measure/noise_sampler.c; the writers only read
 * it. What each figure means: docs/noise.md. */
#ifndef CLOMP_NOISE_RECORD_H
#define CLOMP_NOISE_RECORD_H

/* The probe's defaults: quanta of about 1 us of dependent arithmetic, 20,000
 * per thread (about 20 ms, every thread of the team at once). */
#define NOISE_QUANTUM_US 1.0
#define NOISE_QUANTA 20000L
#define NOISE_MAX_THREADS 256

/* The warning rule (docs/noise.md): a measurement's overhead is comparable
 * with the noise when what the probe's noisiest thread lost, applied to the
 * measurement's own subcycle (lost fraction x its us/Loop: with a barrier
 * per subcycle one thread's detour delays the whole team), is at least this
 * share of the overhead reported; or when the probe's largest detour is as
 * long as a whole chunk's overhead (overhead x subcycles per chunk: one
 * detour can double a chunk's overhead). */
#define NOISE_COMPARABLE_SHARE 0.5

/* The busy-machine rule (docs/noise.md): the team was not the node's own
 * when some thread of it lost at least this share of the probe's time to
 * something else (its lost_fraction). One thread's loss is the team's at
 * every barrier, so the figures then measure the contention, not the node's
 * OpenMP overhead: an idle node loses well under 1%, a CPU shared with one
 * other busy process about half. */
#define NOISE_BUSY_LOST_SHARE 0.25

/* One thread of the timed team. */
typedef struct NoiseThread {
    int cpu;                   /* where it ran the probe (-1: unknown) */
    double fastest_us;         /* fastest quantum */
    double median_us;          /* median quantum */
    double p99_us;             /* 99th percentile quantum */
    double lost_fraction;      /* sum over quanta of max(0, quantum - median) / sum of quanta */
    double largest_detour_us;  /* longest quantum - median */
    /* During the timed chunks (all measurements, all rounds): */
    long switches;             /* involuntary context switches (preempted while running) */
    long migrations;           /* chunks that ended on another CPU than they started on */
    long disturbed_chunks;     /* chunks in which it was switched out or migrated */
    long chunks;               /* chunks it was sampled in */
} NoiseThread;

typedef struct NoiseCensus {
    int enabled;               /* --noise-census=on (the default) */
    int probed;                /* the probe ran (0: not enabled, or no clock / no memory: see note) */
    char note[96];             /* why something was not measured, or "" */
    double quantum_us;         /* the quantum's length asked for */
    long quantum_work;         /* dependent additions per quantum, calibrated to quantum_us */
    long quanta;               /* per thread */
    double probe_seconds;      /* wall time of the probe */
    int threads;               /* thread[0..threads-1]: the timed team (capped at NOISE_MAX_THREADS) */
    NoiseThread thread[NOISE_MAX_THREADS];
    /* The busy-machine rule (NOISE_BUSY_LOST_SHARE), judged on the probe: */
    int busy_judged;           /* 1: the probe ran and busy says something */
    int busy;                  /* some thread lost at least busy_threshold of its time */
    double busy_threshold;     /* NOISE_BUSY_LOST_SHARE */
    char busy_reason[200];     /* when busy: which thread, on which CPU, lost how much */
    int steal_reported;        /* /proc/stat has a steal column */
    double steal_seconds;      /* on the CPUs the team ran on, during the timed runs */
    int interrupts_readable;   /* /proc/interrupts could be read */
    long interrupts;           /* on the CPUs the team ran on, during the timed runs */
    double sampling_seconds;   /* what the chunk sampling took, outside the clock */
    struct NoiseState *state;  /* the sampler's own (open files, counters); NULL when not sampling */
} NoiseCensus;

/* One measurement during its timed runs (all rounds). */
typedef struct MeasurementNoise {
    int sampled;               /* 0: the census is off, or nothing was sampled */
    int threads;               /* threads sampled per chunk (1 for serial measurements) */
    int whole_runs;            /* 1: the spans below are whole timed runs (its chunks end inside one region) */
    long chunks;               /* chunks sampled (or timed runs, with whole_runs) */
    long disturbed;            /* chunks in which some sampled thread was switched out or migrated */
    long switches;             /* involuntary context switches of the sampled threads in its chunks */
    long migrations;           /* thread-chunks that ended on another CPU */
    double steal_seconds;      /* on the team's CPUs during its timed runs; NAN: not reported */
    long interrupts;           /* on the team's CPUs during its timed runs; -1: not readable */
    int comparable;            /* the probe's noise is comparable with its overhead (the warning) */
} MeasurementNoise;

#endif
