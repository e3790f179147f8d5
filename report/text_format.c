#include "text_format.h"

#include <math.h>
#include <string.h>

/* Text from outside (host names, environment, arguments) with every byte
 * that could break a line or a parser escaped as \xNN. */
void print_escaped(FILE *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c >= 0x20 && *c < 0x7f)
            fputc(*c, out);
        else
            fprintf(out, "\\x%02x", *c);
    }
}

void print_warnings(FILE *out, const char *label, const WarningList *warnings, WarningShown shown)
{
    for (size_t i = 0; warnings != NULL && i < warnings->count; i++)
        if (warnings->item[i].shown == shown)
            fprintf(out, "%13s  WARNING: %s\n", label, warnings->item[i].text);
}

/* A value that rounds to zero is "0", never "-0" or "-0.00". */
static const char *without_negative_zero(char *buf)
{
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
    return buf;
}

/* `value` to its own first significant digit: what is printed when the
 * uncertainty would round a nonzero estimate to 0. */
static const char *first_digit_text(char *buf, size_t size, double value)
{
    double magnitude = floor(log10(fabs(value)));
    if (magnitude >= 0.0) {
        double unit = pow(10.0, magnitude);
        snprintf(buf, size, "%.0f", nearbyint(value / unit) * unit);
    } else {
        snprintf(buf, size, "%.*f", (int)-magnitude, value);
    }
    return buf;
}

/* The last digit an uncertainty supports: its unit (tens or hundreds from 10 up, else a decimal
 * place) and the decimals that print it. One rule for an estimate and its interval's bounds. */
static double printed_unit(double uncertainty, int max_decimals, int *decimals)
{
    if (uncertainty >= 10.0 && isfinite(uncertainty)) {
        *decimals = 0;
        return pow(10.0, floor(log10(uncertainty) + 1e-6));
    }
    *decimals = decimals_for_uncertainty(uncertainty, max_decimals);
    return pow(10.0, -*decimals);
}

const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals)
{
    if (!isfinite(value)) {
        snprintf(buf, size, "N/A");
        return buf;
    }
    int decimals;
    double unit = printed_unit(uncertainty, max_decimals, &decimals);
    /* Never round a nonzero estimate to 0: an overhead of 11 us is not
     * "0 cycles" because its interval is wide; the interval, printed
     * beside it, says how little its digits mean. */
    if (value != 0.0 && isfinite(uncertainty) && uncertainty > 0.0 && fabs(value) < 0.5 * unit)
        return first_digit_text(buf, size, value);
    if (decimals == 0 && uncertainty >= 10.0)   /* tens or hundreds: the last digit the data supports */
        snprintf(buf, size, "%.0f", nearbyint(value / unit) * unit);
    else
        snprintf(buf, size, "%.*f", decimals, value);
    return without_negative_zero(buf);
}

/* An interval's bound at the digits measured_text gives its estimate, rounded outward (DIRECTION -1
 * for the low bound, +1 for the high): rounded to the nearest, "62 .. 270" would print as "100 .. 300",
 * an interval narrower than the data's. */
const char *bound_text(char *buf, size_t size, double bound, double uncertainty, int max_decimals, int direction)
{
    if (!isfinite(bound)) {
        snprintf(buf, size, "N/A");
        return buf;
    }
    int decimals;
    double unit = printed_unit(uncertainty, max_decimals, &decimals);
    /* The tolerance keeps a bound that is already a whole number of units where it is. */
    double units = direction < 0 ? floor(bound / unit + 1e-9) : ceil(bound / unit - 1e-9);
    if (bound != 0.0 && (units == 0.0 || (units < 0.0) != (bound < 0.0))) {
        /* Rounded past 0, a bound would say the interval reaches 0 when it does not: its own first
           digit instead, still outward (4 of "4 .. 90" stays 4, as measured_text keeps it). */
        double magnitude = floor(log10(fabs(bound)));
        unit = pow(10.0, magnitude);
        decimals = magnitude < 0.0 ? (int)-magnitude : 0;
        units = direction < 0 ? floor(bound / unit + 1e-9) : ceil(bound / unit - 1e-9);
    }
    snprintf(buf, size, "%.*f", decimals, units * unit);
    return without_negative_zero(buf);
}

double median_uncertainty(const SampleStats *st)
{
    return st->has_ci ? 0.5 * (st->ci_high - st->ci_low) : st->sd;
}

