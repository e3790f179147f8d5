/* How clomp-stats writes one answer: field by field (stats/answer_fields.h). */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/statistics.h"
#include "answer_fields.h"

/* One answer, field by field: tab-separated in the fields' order (the
 * shell drivers' old form), or with --json one JSON object whose members
 * are the fields' names (what the results package reads: by name). NaN
 * (no such figure) is NA in the tab form, null in JSON. Numbers are the
 * same text in both. */
int json_output;
int fields_written;
jmp_buf *answer_jump;

_Noreturn void answer_exit(int status)
{
    if (answer_jump != NULL)
        longjmp(*answer_jump, status);   /* clomp-stats batch: this request refused, the next one read */
    exit(status);
}

void field_begin(const char *name)
{
    if (json_output)
        printf("%s\"%s\": ", fields_written == 0 ? "{" : ", ", name);
    else if (fields_written > 0)
        putchar('\t');
    fields_written++;
}

void answer_end(void)
{
    printf(json_output ? "}\n" : "\n");
    fields_written = 0;
}

void field_raw(const char *name, const char *text, int is_string)
{
    field_begin(name);
    if (json_output && strcmp(text, "NA") == 0)
        fputs("null", stdout);
    else if (json_output && is_string)
        printf("\"%s\"", text);   /* the texts here are numbers, NA and fixed words: nothing to escape */
    else
        fputs(text, stdout);
}

void field_number(const char *name, double v)
{
    char text[64];
    if (isnan(v))
        snprintf(text, sizeof text, "NA");
    else
        snprintf(text, sizeof text, "%.15g", v);   /* 15 digits: decimal inputs read back as written */
    field_raw(name, text, 0);
}

void field_long(const char *name, long v)
{
    char text[32];
    snprintf(text, sizeof text, "%ld", v);
    field_raw(name, text, 0);
}

/* V as text to the precision its uncertainty supports. */
void field_text(const char *name, double v, double uncertainty)
{
    char text[64];
    if (isnan(v))
        snprintf(text, sizeof text, "NA");
    else
        snprintf(text, sizeof text, "%.*f", decimals_for_uncertainty(uncertainty, 3), v);
    field_raw(name, text, 1);
}
