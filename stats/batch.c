/* clomp-stats batch: every request of a report in one process (issue 46, item 3). Each line of
 * standard input is one request, the words of its command line after "clomp-stats" separated by
 * tabs; it is answered as that command alone would answer it (its messages too: standard error is
 * standard output here, a line at a time), then one line "#end STATUS" (its exit status). A request
 * refused ends only itself (answer_exit, stats/answer_fields.h). Ends at the end of its input. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer_fields.h"
#include "batch.h"

/* One request of a batch: a refusal (answer_exit) comes back here with its status. */
static int answer_guarded(int argc, char **argv)
{
    jmp_buf refused;
    int jumped = setjmp(refused);
    if (jumped != 0) {
        answer_jump = NULL;
        if (fields_written > 0)
            putchar('\n');   /* a refusal mid-answer ends its line */
        return jumped;
    }
    answer_jump = &refused;
    int status = answer(argc, argv);
    answer_jump = NULL;
    return status;
}

int batch(void)
{
    char *line = NULL;
    size_t size = 0;
    ssize_t got;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0) {
        perror("clomp-stats: batch");
        return 2;
    }
    while ((got = getline(&line, &size, stdin)) > 0) {
        if (line[got - 1] == '\n')
            line[--got] = '\0';
        long words = 2;
        for (ssize_t k = 0; k < got; k++)
            words += line[k] == '\t';
        char **argv = malloc((size_t)(words + 1) * sizeof *argv);
        if (argv == NULL) {
            printf("clomp-stats: batch: out of memory\n#end 2\n");
            continue;
        }
        int argc = 0;
        argv[argc++] = "clomp-stats";
        for (char *word = line, *tab;; word = tab + 1) {
            tab = strchr(word, '\t');
            if (tab != NULL)
                *tab = '\0';
            argv[argc++] = word;
            if (tab == NULL)
                break;
        }
        argv[argc] = NULL;
        int status = answer_guarded(argc, argv);
        free(argv);
        printf("#end %d\n", status);
    }
    free(line);
    return 0;
}
