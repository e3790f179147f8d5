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

const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals)
{
    if (!isfinite(value)) {
        snprintf(buf, size, "N/A");
        return buf;
    }
    if (value != 0.0 && isfinite(uncertainty) && uncertainty > 0.0) {
        /* Never round a nonzero estimate to 0: an overhead of 11 us is not
         * "0 cycles" because its interval is wide; the interval, printed
         * beside it, says how little its digits mean. */
        double unit = uncertainty >= 10.0 ? pow(10.0, floor(log10(uncertainty) + 1e-6))
                                          : pow(10.0, -decimals_for_uncertainty(uncertainty, max_decimals));
        if (fabs(value) < 0.5 * unit)
            return first_digit_text(buf, size, value);
    }
    if (uncertainty >= 10.0 && isfinite(uncertainty)) {
        /* Tens or hundreds are the last digit the data supports. */
        double unit = pow(10.0, floor(log10(uncertainty) + 1e-6));
        snprintf(buf, size, "%.0f", nearbyint(value / unit) * unit);
        return without_negative_zero(buf);
    }
    snprintf(buf, size, "%.*f", decimals_for_uncertainty(uncertainty, max_decimals), value);
    return without_negative_zero(buf);
}

double median_uncertainty(const SampleStats *st)
{
    return st->has_ci ? 0.5 * (st->ci_high - st->ci_low) : st->sd;
}

