/* parse_options reads the CLOMP 1.2 command line strictly and names the
 * parameter in every error. */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_status.h"
#include "cli/options.h"
#include "tap.h"

static Options opts;
static char error[256];

static int parse(const char *a0, const char *a1, const char *a2, const char *a3, const char *a4,
                 const char *a5, const char *a6, const char *a7, const char *a8)
{
    char *argv[] = {"clomp", (char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4,
                    (char *)a5, (char *)a6, (char *)a7, (char *)a8, NULL};
    int argc = 1;
    while (argv[argc] != NULL)
        argc++;
    return parse_options(argc, argv, &opts, error, sizeof error);
}

int main(void)
{
    ok(parse("2", "-1", "64", "100", "32", "1", "100", NULL, NULL) == 0 && opts.numThreads == 2 &&
           opts.allocThreads == -1 && opts.numParts == 64 && opts.zonesPerPart == 100 && opts.zoneSize == 32 &&
           opts.flopScale == 1 && opts.timeScale == 100,
       "seven numbers land in the seven CLOMP parameters in order");
    ok(parse("--nested=3x2", "1", "1", "4", "10", "32", "1", "1", NULL) == 0 && opts.nestedOuter == 3 &&
           opts.nestedInner == 2,
       "--nested=3x2 before the numbers sets the nested shape");
    ok(parse("1", "1", "4", "10", "32", "1", "1", "--nested=1x4", NULL) == 0 && opts.nestedOuter == 1 &&
           opts.nestedInner == 4,
       "an option after the numbers is accepted too");
    ok(parse("1", "1", "4", "10", "32", "1", "1", NULL, NULL) == 0 && opts.nestedOuter == 0,
       "without --nested the shape is left to the default");
    ok(parse("--", "-1", "1", "4", "10", "32", "1", "1", NULL) == 0 && opts.numThreads == -1,
       "-- ends the options; -1 is still a number");
    ok(parse("--help", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == 0 && opts.want_help,
       "--help alone is a valid command line");
    ok(parse("--version", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == 0 && opts.want_version,
       "--version alone is a valid command line");
    ok(parse("--list-schedules", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == 0 && opts.want_schedule_list,
       "--list-schedules alone is a valid command line");

    ok(parse("1", "1", "4", NULL, NULL, NULL, NULL, NULL, NULL) == EXIT_USAGE &&
           strcmp(error, "expected 7 numbers, got 3: zonesPerPart, zoneSize, flopScale and timeScale are missing "
                         "(see clomp --help)") == 0,
       "three numbers are a usage error that says which four are missing and where the usage is: %s", error);
    ok(parse("1", "1", "4", NULL, NULL, NULL, NULL, NULL, NULL) == EXIT_USAGE && !opts.show_usage,
       "a missing number does not ask for the usage text (one line, issue 43)");
    ok(parse(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == EXIT_USAGE && opts.show_usage,
       "no number at all asks for the usage text, as CLOMP 1.2 prints it");
    ok(parse("1", "1", "4", "10", "32", "1", "1", "7", NULL) == EXIT_USAGE && strstr(error, "'7'") != NULL &&
           !opts.show_usage,
       "an eighth number is rejected by name, in one line");
    ok(parse("-h", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == 0 && opts.want_help, "-h asks for help");

    static const struct { int index; const char *bad; const char *says; } table[] = {
        {0, "0", "must be > 0 or -1"},  {1, "-2", "must be > 0 or -1"},   {2, "-1", "must be > 0"},
        {3, "12x", "not a whole number"}, {4, "1e3", "not a whole number"}, {5, "010", "leading zero"},
        {6, "99999999999999999999", "out of range"}, {2, "+5", "not a whole number"},
        {3, " 5", "not a whole number"}, {0, "2147483648", "more threads"}, {4, "", "not a whole number"},
        {6, "-", "not a whole number"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const char *args[7] = {"1", "1", "4", "10", "32", "1", "1"};
        args[table[i].index] = table[i].bad;
        int status = parse(args[0], args[1], args[2], args[3], args[4], args[5], args[6], NULL, NULL);
        ok(status == EXIT_USAGE && strstr(error, clomp_parameter_names[table[i].index]) == error &&
               strstr(error, table[i].says) != NULL,
           "%s '%s' is refused: \"%s\"", clomp_parameter_names[table[i].index], table[i].bad, error);
    }
    ok(parse("--nested=2x", "1", "1", "4", "10", "32", "1", "1", NULL) == EXIT_USAGE &&
           strncmp(error, "--nested", 8) == 0,
       "--nested=2x is refused naming --nested");
    ok(parse("--frob", "1", "1", "4", "10", "32", "1", "1", NULL) == EXIT_USAGE && strstr(error, "--frob") != NULL,
       "an unknown option is refused by name");
    ok(parse("1", "1", "4", "10\n", "32", "1", "1", NULL, NULL) == EXIT_USAGE && strstr(error, "\\x0a") != NULL,
       "control characters in a bad value are escaped in the message");
    /* --ompt: the tool is a mode and, for the sampler only, a rate in Hz. */
    unsetenv("CLOMP_OMPT");
    ok(parse("1", "1", "4", "10", "32", "1", "1", NULL, NULL) == 0 && opts.ompt_mode == OMPT_MODE_NONE,
       "without --ompt no tool is asked for");
    ok(parse("--ompt=census", "1", "1", "4", "10", "32", "1", "1", NULL) == 0 && opts.ompt_mode == OMPT_MODE_CENSUS &&
           opts.ompt_rate_hz == 0.0,
       "--ompt=census asks for the census tool, no rate");
    ok(parse("--ompt=sampling,50.5", "1", "1", "4", "10", "32", "1", "1", NULL) == 0 &&
           opts.ompt_mode == OMPT_MODE_SAMPLING && opts.ompt_rate_hz == 50.5,
       "--ompt=sampling,50.5 asks for the sampler at 50.5 Hz");
    static const char *const bad_ompt[] = {"--ompt=bogus", "--ompt=", "--ompt=sampling,0", "--ompt=sampling,",
                                           "--ompt=sampling,-1", "--ompt=sampling,1e9", "--ompt=census,200",
                                           "--ompt=samplingx", "--ompt=sampling,5x"};
    for (size_t i = 0; i < sizeof bad_ompt / sizeof bad_ompt[0]; i++)
        ok(parse(bad_ompt[i], "1", "1", "4", "10", "32", "1", "1", NULL) == EXIT_USAGE &&
               strncmp(error, "--ompt: ", 8) == 0,
           "%s is a usage error that names --ompt: %s", bad_ompt[i], error);
    setenv("CLOMP_OMPT", "trivial", 1);
    ok(parse("1", "1", "4", "10", "32", "1", "1", NULL, NULL) == 0 && opts.ompt_mode == OMPT_MODE_TRIVIAL,
       "CLOMP_OMPT=trivial asks for the trivial tool when --ompt is not given");
    ok(parse("--ompt=none", "1", "1", "4", "10", "32", "1", "1", NULL) == 0 && opts.ompt_mode == OMPT_MODE_NONE,
       "--ompt=none wins over CLOMP_OMPT");
    setenv("CLOMP_OMPT", "sampling,0", 1);
    ok(parse("1", "1", "4", "10", "32", "1", "1", NULL, NULL) == EXIT_USAGE && strncmp(error, "CLOMP_OMPT: ", 12) == 0,
       "a bad CLOMP_OMPT is a usage error that names it: %s", error);
    unsetenv("CLOMP_OMPT");

    return done_testing();
}
