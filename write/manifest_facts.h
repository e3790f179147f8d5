/* The facts the driver gives clomp-write manifest (write/manifest_facts.c): records "NAME<tab>VALUE",
 * each ended by a NUL byte (a value may hold any other byte), and the JSON values made of them.
 * write/manifest_writer.c names the facts. */
#ifndef CLOMP_SUITE_MANIFEST_FACTS_H
#define CLOMP_SUITE_MANIFEST_FACTS_H

#include <stddef.h>
#include <stdio.h>

struct fact {
    const char *name, *value;
};
struct facts {
    struct fact *at;
    size_t n;
    char *text;
};

/* Standard input read whole and cut into facts; 0, or -1 (unreadable, out of memory, over 64 MiB). */
int read_facts(struct facts *f);
/* The last value of fact NAME, or "" when there is none; whether there is one. */
const char *fact(const struct facts *f, const char *name);
int has_fact(const struct facts *f, const char *name);

/* S (its first N bytes) as a JSON string (RFC 8259): quote, backslash and every control character
 * escaped, DEL too; every other byte as it is (UTF-8 or not: the reader's to judge). */
void put_str_n(FILE *out, const char *s, size_t n);
void put_str(FILE *out, const char *s);
/* S as a JSON number when it is a plain decimal, -?D+(.D+)?, leading zeros dropped; else null. */
void put_num(FILE *out, const char *s);
/* The values of every fact NAME in F->at[FROM, TO), as a JSON array of strings. */
void put_strs(FILE *out, const struct facts *f, size_t from, size_t to, const char *name);

#endif
