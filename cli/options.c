#include "options.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exit_status.h"

const char *const clomp_parameter_names[CLOMP_PARAMETER_COUNT] = {
    "numThreads", "allocThreads", "numParts", "zonesPerPart", "zoneSize", "flopScale", "timeScale",
};

static int fail(char *error, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, size, fmt, ap); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(ap);
    return EXIT_USAGE;
}

/* Strict decimal: optional '-', digits, no leading zeros, no spaces, no
 * '+', no hex or octal, no trailing text, no overflow. */
static int parse_decimal(const char *text, long *value, const char **why)
{
    const char *digits = text[0] == '-' ? text + 1 : text;
    if (*digits == '\0') {
        *why = "is not a whole number";
        return -1;
    }
    for (const char *c = digits; *c != '\0'; c++) {
        if (*c < '0' || *c > '9') {
            *why = "is not a whole number";
            return -1;
        }
    }
    if (digits[0] == '0' && digits[1] != '\0') {
        *why = "has a leading zero (octal is not accepted)";
        return -1;
    }
    errno = 0;
    *value = strtol(text, NULL, 10);
    if (errno == ERANGE) {
        *why = "is out of range";
        return -1;
    }
    return 0;
}

/* Printable copy of user text for a one-line message. */
static const char *shown(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0' && n + 5 < size; c++) {
        if (*c >= 0x20 && *c < 0x7f)
            buf[n++] = (char)*c;
        else
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *c);
    }
    buf[n] = '\0';
    return buf;
}

/* Upper limits where a value could only mean a run that never ends: the
 * work per measurement grows with timeScale, and with flopScale once an
 * iteration holds more than 1e6 x timeScale zone-flops. 0: no limit here
 * (sizes are checked against memory, exit 3). */
static const long parameter_maximum[CLOMP_PARAMETER_COUNT] = {0, 0, 0, 0, 0, 1000000000L, 1000000L};

static int parse_parameter(int index, const char *text, long *value, char *error, size_t size)
{
    const char *name = clomp_parameter_names[index];
    const char *why = NULL;
    char buf[96];
    int threads = index < 2;

    if (parse_decimal(text, value, &why) != 0)
        return fail(error, size, "%s: '%s' %s", name, shown(text, buf, sizeof buf), why);
    if (threads) {
        if (*value < 1 && *value != -1)
            return fail(error, size, "%s: '%s' must be > 0 or -1", name, shown(text, buf, sizeof buf));
        if (*value > INT_MAX)
            return fail(error, size, "%s: '%s' is more threads than OpenMP can address", name,
                        shown(text, buf, sizeof buf));
    } else if (*value < 1) {
        return fail(error, size, "%s: '%s' must be > 0", name, shown(text, buf, sizeof buf));
    } else if (parameter_maximum[index] > 0 && *value > parameter_maximum[index]) {
        return fail(error, size, "%s: '%s' is above the maximum %ld", name, shown(text, buf, sizeof buf),
                    parameter_maximum[index]);
    }
    return 0;
}

/* --NAME=N with 1 <= N <= maximum. */
static int parse_count(const char *option, const char *text, long maximum, long *value, char *error, size_t size)
{
    char buf[96];
    const char *why = NULL;
    if (parse_decimal(text, value, &why) != 0)
        return fail(error, size, "%s: '%s' %s", option, shown(text, buf, sizeof buf), why);
    if (*value < 1 || *value > maximum)
        return fail(error, size, "%s: '%s' must be 1..%ld", option, shown(text, buf, sizeof buf), maximum);
    return 0;
}

/* --ghz=F: a plain positive decimal such as 2.4 (no hex, exponent or inf). */
static int parse_ghz(const char *text, double *ghz, char *error, size_t size)
{
    char buf[96];
    int digits = 0, dots = 0;
    for (const char *c = text; *c != '\0'; c++) {
        if (*c >= '0' && *c <= '9')
            digits++;
        else if (*c == '.')
            dots++;
        else
            digits = -1000;
    }
    if (digits <= 0 || dots > 1)
        return fail(error, size, "--ghz: '%s' is not a decimal number of GHz (e.g. 2.4)", shown(text, buf, sizeof buf));
    *ghz = strtod(text, NULL);
    if (!(*ghz > 0.0) || *ghz > MAX_GHZ)
        return fail(error, size, "--ghz: '%s' must be above 0 and at most %g", shown(text, buf, sizeof buf), MAX_GHZ);
    return 0;
}

static int parse_nested(const char *text, Options *opts, char *error, size_t size)
{
    char buf[96], outer[32], inner[32];
    const char *x = strchr(text, 'x');
    const char *why = NULL;
    size_t outer_len = x != NULL ? (size_t)(x - text) : 0;

    if (x == NULL || outer_len == 0 || outer_len >= sizeof outer || strlen(x + 1) >= sizeof inner)
        return fail(error, size, "--nested: '%s' is not OUTERxINNER (e.g. 2x4)", shown(text, buf, sizeof buf));
    memcpy(outer, text, outer_len);
    outer[outer_len] = '\0';
    memcpy(inner, x + 1, strlen(x + 1) + 1);
    if (outer[0] == '-' || inner[0] == '-' || parse_decimal(outer, &opts->nestedOuter, &why) != 0 ||
        parse_decimal(inner, &opts->nestedInner, &why) != 0)
        return fail(error, size, "--nested: '%s' is not OUTERxINNER with whole numbers", shown(text, buf, sizeof buf));
    if (opts->nestedOuter < 1 || opts->nestedInner < 1 || opts->nestedOuter > INT_MAX ||
        opts->nestedInner > INT_MAX)
        return fail(error, size, "--nested: '%s' needs OUTER and INNER > 0", shown(text, buf, sizeof buf));
    return 0;
}

/* --ompt=none|trivial|census|sampling[,RATE]: RATE a positive decimal, in Hz.
 * `origin` names where it came from: the option, or CLOMP_OMPT. */
static int parse_ompt(const char *origin, const char *text, Options *opts, char *error, size_t size)
{
    static const char *const modes[] = {"none", "trivial", "census", "sampling"};
    char buf[96];
    const char *comma = strchr(text, ',');
    size_t length = comma != NULL ? (size_t)(comma - text) : strlen(text);
    for (int m = 0; m < 4; m++)
        if (strlen(modes[m]) == length && strncmp(text, modes[m], length) == 0)
            opts->ompt_mode = (OmptMode)m;
    if (opts->ompt_mode == OMPT_MODE_NONE && !(length == 4 && strncmp(text, "none", 4) == 0))
        return fail(error, size, "%s: '%s' is not none, trivial, census or sampling[,RATE]", origin,
                    shown(text, buf, sizeof buf));
    if (comma == NULL)
        return 0;
    if (opts->ompt_mode != OMPT_MODE_SAMPLING)
        return fail(error, size, "%s: only sampling takes a rate ('%s')", origin, shown(text, buf, sizeof buf));
    char *end = NULL;
    opts->ompt_rate_hz = strtod(comma + 1, &end);
    if (comma[1] < '0' || comma[1] > '9' || end == NULL || *end != '\0' || !(opts->ompt_rate_hz > 0.0) ||
        opts->ompt_rate_hz > OMPT_MAX_RATE_HZ)
        return fail(error, size, "%s: sampling rate '%s' must be a number of Hz above 0 and at most %g", origin,
                    shown(comma + 1, buf, sizeof buf), OMPT_MAX_RATE_HZ);
    return 0;
}

int parse_options(int argc, char **argv, Options *opts, char *error, size_t size)
{
    long *values[CLOMP_PARAMETER_COUNT] = {
        &opts->numThreads, &opts->allocThreads, &opts->numParts, &opts->zonesPerPart,
        &opts->zoneSize,   &opts->flopScale,    &opts->timeScale,
    };
    int count = 0, options_done = 0, ompt_given = 0;
    char buf[96];

    memset(opts, 0, sizeof *opts);
    opts->rounds = 1;
    opts->offload_device = -1;
    opts->paired_blocks = 0;   /* interleaved blocks only when asked: they double a checked schedule's time (issue 31) */
    default_construct_options(&opts->constructs);
    default_limits_options(&opts->limits);
    error[0] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && strcmp(arg, "-h") == 0) {
            opts->want_help = 1;
            continue;
        }
        if (!options_done && strncmp(arg, "--", 2) == 0) {
            int construct_option = parse_construct_option(arg, &opts->constructs, error, size);
            if (construct_option == 0)   /* --limits and its options: the same contract */
                construct_option = parse_limits_option(arg, &opts->limits, error, size);
            if (construct_option > 1)
                return construct_option;
            if (construct_option == 1) {
                continue;
            } else if (strcmp(arg, "--") == 0) {
                options_done = 1;
            } else if (strcmp(arg, "--help") == 0) {
                opts->want_help = 1;
            } else if (strcmp(arg, "--version") == 0) {
                opts->want_version = 1;
            } else if (strcmp(arg, "--list-schedules") == 0) {
                opts->want_schedule_list = 1;
            } else if (strcmp(arg, "--list-figures") == 0) {
                opts->want_figure_list = 1;
            } else if (strcmp(arg, "--json") == 0) {
                opts->figure_list_json = 1;   /* --list-figures --json; anything else needs --json=FILE (below) */
            } else if (strcmp(arg, "--dry-run") == 0) {
                opts->dry_run = 1;
            } else if (strcmp(arg, "--topology") == 0) {
                opts->want_topology = 1;
            } else if (strcmp(arg, "--oversubscribe") == 0) {
                opts->oversubscribe = 1;
            } else if (strncmp(arg, "--cores=", 8) == 0) {
                int status = parse_count("--cores", arg + 8, MAX_CORES, &opts->cores, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--numa=", 7) == 0) {
                if (parse_placement(arg + 7, &opts->placement) != 0)
                    return fail(error, size, "--numa: '%s' is not first-touch, interleave, local or node:N",
                                shown(arg + 7, buf, sizeof buf));
                opts->placement_given = 1;
            } else if (strncmp(arg, "--nested=", 9) == 0) {
                int status = parse_nested(arg + 9, opts, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--trials=", 9) == 0) {
                int status = parse_count("--trials", arg + 9, MAX_TRIALS, &opts->trials, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--paired-blocks=", 16) == 0) {
                /* 0 is allowed: no interleaved blocks, the paired overhead from the timed runs' chunks. */
                int status = strcmp(arg + 16, "0") == 0
                                 ? (opts->paired_blocks = 0, 0)
                                 : parse_count("--paired-blocks", arg + 16, MAX_TRIALS, &opts->paired_blocks, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--rounds=", 9) == 0) {
                int status = parse_count("--rounds", arg + 9, MAX_ROUNDS, &opts->rounds, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--mpi-timeout=", 14) == 0) {
                int status = parse_count("--mpi-timeout", arg + 14, MAX_MPI_TIMEOUT, &opts->mpi_timeout, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--offload-device=", 17) == 0) {
                /* A device number (0..): checked against the devices present once the runtime runs. */
                const char *why = NULL;
                if (parse_decimal(arg + 17, &opts->offload_device, &why) != 0 || opts->offload_device < 0 ||
                    opts->offload_device > MAX_OFFLOAD_DEVICE)
                    return fail(error, size, "--offload-device: '%s' is not a device number 0..%ld",
                                shown(arg + 17, buf, sizeof buf), MAX_OFFLOAD_DEVICE);
            } else if (strncmp(arg, "--ompt=", 7) == 0) {
                int status = parse_ompt("--ompt", arg + 7, opts, error, size);
                if (status != 0)
                    return status;
                ompt_given = 1;
            } else if (strncmp(arg, "--ghz=", 6) == 0) {
                int status = parse_ghz(arg + 6, &opts->ghz, error, size);
                if (status != 0)
                    return status;
            } else if (strncmp(arg, "--schedules=", 12) == 0) {
                if (arg[12] == '\0')
                    return fail(error, size, "--schedules: the list is empty (e.g. --schedules=static,dynamic)");
                opts->schedules = arg + 12;
            } else if (strncmp(arg, "--json=", 7) == 0) {
                if (arg[7] == '\0')
                    return fail(error, size, "--json: no file name (use --json=- for standard output)");
                opts->json_path = arg + 7;
            } else if (strncmp(arg, "--zone-stride=", 14) == 0) {
                if (strcmp(arg + 14, "record") == 0)
                    opts->zone_layout = ZONE_LAYOUT_CLOMP12;
                else if (strcmp(arg + 14, "zonesize") == 0)
                    opts->zone_layout = ZONE_LAYOUT_SPREAD;
                else
                    return fail(error, size, "--zone-stride: '%s' is not record (CLOMP 1.2's layout) or zonesize",
                                shown(arg + 14, buf, sizeof buf));
            } else if (strncmp(arg, "--caliper-json=", 15) == 0) {
                if (arg[15] == '\0')
                    return fail(error, size, "--caliper-json: no file name (use --caliper-json=- for standard output)");
                opts->caliper_path = arg + 15;
            } else if (strncmp(arg, "--csv=", 6) == 0) {
                if (arg[6] == '\0')
                    return fail(error, size, "--csv: no file name (use --csv=- for standard output)");
                opts->csv_path = arg + 6;
            } else if (strcmp(arg, "--quiet") == 0) {
                opts->quiet = 1;
            } else if (strcmp(arg, "--verdict") == 0) {
                opts->verdict = 1;
            } else if (strcmp(arg, "--detail") == 0) {
                opts->detail = 1;
            } else if (strncmp(arg, "--noise-census=", 15) == 0) {
                if (strcmp(arg + 15, "on") != 0 && strcmp(arg + 15, "off") != 0)
                    return fail(error, size, "--noise-census: '%s' is not on or off", shown(arg + 15, buf, sizeof buf));
                opts->noise_census_off = strcmp(arg + 15, "off") == 0;
            } else {
                return fail(error, size, "unknown option '%s' (see clomp --help)", shown(arg, buf, sizeof buf));
            }
            continue;
        }
        if (count == CLOMP_PARAMETER_COUNT)
            return fail(error, size, "too many arguments: '%s' after the seven numbers (see clomp --help)",
                        shown(arg, buf, sizeof buf));
        int status = parse_parameter(count, arg, values[count], error, size);
        if (status != 0)
            return status;
        count++;
    }
    if (opts->figure_list_json && !opts->want_figure_list)
        return fail(error, size, "--json: no file name (use --json=FILE, --json=- for standard output; a bare --json "
                                 "goes with --list-figures)");
    opts->answers_without_running = opts->want_help || opts->want_version || opts->want_schedule_list ||
                                    opts->want_figure_list || opts->constructs.want_list || opts->want_topology;
    if (opts->answers_without_running)
        return 0;
    if (count != CLOMP_PARAMETER_COUNT) {
        /* No number at all: the usage text, as CLOMP 1.2 prints it. Some: one line naming what is
         * missing and where the usage is, not the usage itself (it would bury that line). */
        if (count == 0) {
            opts->show_usage = 1;
            return fail(error, size, "%s", "");
        }
        char missing[160] = "";
        for (int i = count; i < CLOMP_PARAMETER_COUNT; i++)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     i == count ? "" : i == CLOMP_PARAMETER_COUNT - 1 ? " and " : ", ", clomp_parameter_names[i]);
        return fail(error, size, "expected 7 numbers, got %d: %s %s missing (see clomp --help)", count, missing,
                    count == CLOMP_PARAMETER_COUNT - 1 ? "is" : "are");
    }
    if (check_limits_options(&opts->limits, error, size) != 0)
        return EXIT_USAGE;
    const char *to_stdout[][2] = {{"--json", opts->json_path}, {"--csv", opts->csv_path}, {"--caliper-json", opts->caliper_path}};
    const char *first = NULL;
    for (size_t i = 0; i < sizeof to_stdout / sizeof to_stdout[0]; i++) {
        if (to_stdout[i][1] == NULL || strcmp(to_stdout[i][1], "-") != 0)
            continue;
        if (first != NULL)
            return fail(error, size, "%s=- and %s=- cannot both use standard output", first, to_stdout[i][0]);
        first = to_stdout[i][0];
    }
    /* The tool is chosen per process: CLOMP_OMPT lets a --compare side set it (+CLOMP_OMPT=trivial). */
    const char *from_environment = getenv("CLOMP_OMPT");
    if (!ompt_given && from_environment != NULL && from_environment[0] != '\0')
        return parse_ompt("CLOMP_OMPT", from_environment, opts, error, size);
    return 0;
}
