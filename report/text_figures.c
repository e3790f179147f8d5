/* clomp --list-figures: the catalogue of figures (figure_catalogue.h) as a
 * tab-separated table, columns named in a '#' header (appended, never
 * inserted: tools read them by name). */
#include "text_report.h"

#include "figure_catalogue.h"

static const char *cell(const char *text)
{
    return text != NULL && text[0] != '\0' ? text : "-";
}

void print_figure_list(FILE *out)
{
    CatalogueFigure f;
    size_t i = 0;
    fprintf(out, "# key\tlabel\tunit\tmeasures\testimator\tbetter\tllnl_target\tsets\tmeasurement\tjson\tcsv\t"
                 "interval\tformer\ttext_line\tmeasurement_name\trole\n");
    while (figure_catalogue_next(&i, &f)) {
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t", f.key, f.label, f.unit, f.measures, f.estimator,
                figure_better_text(f.better));
        if (f.target != NULL)
            fprintf(out, "%s < %.0f core cycles\t", f.target->label, f.target->below_cycles);
        else
            fprintf(out, "-\t");
        const char *sep = "";
        for (int b = 0; b < FIGURE_SET_COUNT; b++)
            if (f.sets & (1u << b)) {
                fprintf(out, "%s%s", sep, figure_set_names[b]);
                sep = ",";
            }
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", sep[0] == '\0' ? "-" : "",
                f.schedule != NULL ? f.schedule->key : "-", cell(f.json), cell(f.csv), cell(f.interval), cell(f.former),
                cell(f.text_line), f.schedule != NULL ? f.schedule->name : "-",
                f.schedule != NULL ? schedule_role_text(f.schedule->role) : "-");
    }
}
