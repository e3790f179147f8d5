/* clomp --list-figures --json: the catalogue of figures (figure_catalogue.h)
 * for tools; docs/json-schema.md, "The catalogue of figures". */
#include "json_report.h"

#include "figure_catalogue.h"
#include "json.h"

static void write_sets(JsonWriter *w, unsigned sets)
{
    json_array_begin(w, "sets");
    for (int b = 0; b < FIGURE_SET_COUNT; b++)
        if (sets & (1u << b))
            json_string(w, NULL, figure_set_names[b]);
    json_array_end(w);
}

static const char *or_null(const char *text)
{
    return text != NULL && text[0] != '\0' ? text : NULL;
}

/* What a kind and a figure both say of themselves, after their key. */
static void write_description(JsonWriter *w, const char *label, const char *unit, const char *measures,
                              const char *estimator, FigureBetter better)
{
    json_string(w, "label", label);
    json_string(w, "unit", unit);
    json_string(w, "measures", measures);
    json_string(w, "estimator", estimator);
    json_string(w, "better", figure_better_text(better));
}

static void write_kind(JsonWriter *w, const FigureKind *k)
{
    json_object_begin(w, NULL);
    json_string(w, "suffix", k->suffix);
    write_description(w, k->label, k->unit, k->measures, k->estimator, k->better);
    json_string(w, "json", k->json);
    json_string(w, "csv", k->csv);
    json_string(w, "interval", k->interval);
    json_string(w, "text_line", k->text_line);
    json_array_begin(w, "roles");
    for (int role = ROLE_PROBE; role <= ROLE_CHECKED; role++)
        if (k->roles & (1u << role))
            json_string(w, NULL, schedule_role_text((ScheduleRole)role));
    json_array_end(w);
    json_bool(w, "compared", figure_kind_compared(k));
    json_string(w, "former", k->former);
    json_object_end(w);
}

static void write_figure(JsonWriter *w, const CatalogueFigure *f)
{
    json_object_begin(w, NULL);
    json_string(w, "key", f->key);
    write_description(w, f->label, f->unit, f->measures, f->estimator, f->better);
    if (f->target != NULL) {
        json_object_begin(w, "llnl_target");
        json_string(w, "key", f->target->key);
        json_string(w, "label", f->target->label);
        json_number(w, "below_cycles", f->target->below_cycles);
        json_string(w, "citation", f->target->citation);
        json_object_end(w);
    } else {
        json_null(w, "llnl_target");
    }
    write_sets(w, f->sets);
    json_string(w, "measurement", f->schedule != NULL ? f->schedule->key : NULL);
    json_string(w, "measurement_name", f->schedule != NULL ? f->schedule->name : NULL);
    json_string(w, "role", f->schedule != NULL ? schedule_role_text(f->schedule->role) : NULL);
    json_string(w, "kind", f->kind != NULL ? f->kind->suffix : NULL);
    json_string(w, "json", or_null(f->json));
    json_string(w, "csv", or_null(f->csv));
    json_string(w, "interval", or_null(f->interval));
    json_string(w, "text_line", or_null(f->text_line));
    json_array_begin(w, "former");
    for (const char *c = f->former; *c != '\0';) {
        char word[80];
        size_t n = 0;
        while (c[n] != '\0' && c[n] != ' ' && n + 1 < sizeof word) {
            word[n] = c[n];
            n++;
        }
        word[n] = '\0';
        json_string(w, NULL, word);
        c += n + (c[n] == ' ');
    }
    json_array_end(w);
    json_object_end(w);
}

int write_figure_list_json(FILE *out)
{
    JsonWriter w;
    CatalogueFigure f;
    size_t i = 0;
    json_document_begin(&w, out, "clomp-figures", 1);
    json_string(&w, "project_overhead", project_overhead_kind->suffix);
    json_array_begin(&w, "sets");
    for (int b = 0; b < FIGURE_SET_COUNT; b++) {
        json_object_begin(&w, NULL);
        json_string(&w, "name", figure_set_names[b]);
        json_string(&w, "uses", figure_set_uses[b]);
        json_object_end(&w);
    }
    json_array_end(&w);
    json_array_begin(&w, "kinds");
    for (size_t k = 0; k < figure_kind_count; k++)
        write_kind(&w, &figure_kinds[k]);
    json_array_end(&w);
    json_array_begin(&w, "figures");
    while (figure_catalogue_next(&i, &f))
        write_figure(&w, &f);
    json_array_end(&w);
    json_object_end(&w);
    return json_finish(&w);
}
