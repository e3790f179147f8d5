/* A stream read whole, for the clomp-write subcommands that read a file or their standard input
 * at once (the failure reasons, the run states of the manifest). */
#include <stdlib.h>

#include "text_file.h"

char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 12;
    char *text = malloc(cap);
    *len = 0;
    if (text == NULL)
        return NULL;
    size_t got;
    while (f != NULL && (got = fread(text + *len, 1, cap - *len - 1, f)) > 0) {
        *len += got;
        if (cap - *len - 1 == 0) {
            char *more = realloc(text, cap *= 2);
            if (more == NULL)
                break;
            text = more;
        }
    }
    text[*len] = '\0';
    return text;
}
