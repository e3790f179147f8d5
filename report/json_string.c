/* JSON's string escaping, on its own (json.h's json_put_string): clomp's --json and Caliper
 * writers (json.c) and the suite manifest's writer (clomp-write: write/manifest_facts.c) write
 * strings through it, and clomp-write links this file alone of the benchmark, so it needs nothing
 * but stdio. */
#include "json.h"

/* Length of the well-formed UTF-8 sequence at p (before END), or 0 if there is none.
 * Overlong forms, surrogates and code points past U+10FFFF are ill-formed
 * (RFC 3629) and would make the document invalid for strict readers. */
static int utf8_length(const unsigned char *p, const unsigned char *end)
{
    static const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    int n;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) /* 0xc0 and 0xc1 only start overlong forms */
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4;
    else
        return 0;
    if (end - p < n)   /* truncated */
        return 0;
    unsigned long cp = p[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < smallest[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

void json_put_string(FILE *out, const char *s, size_t len, enum json_bytes bytes)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    const int checked = bytes == JSON_UTF8_CHECKED;
    fputc('"', out);
    while (p < end) {
        int n = checked ? utf8_length(p, end) : 1;
        if (n > 1) {
            fwrite(p, 1, (size_t)n, out);
            p += n;
            continue;
        }
        unsigned char c = *p++;
        /* As an escape, so a reader of the file can tell a replaced byte
         * from a genuine U+FFFD in the input, which passes through raw. */
        if (n == 0)
            fputs("\\ufffd", out);
        else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (checked && c == '\b')
            fputs("\\b", out);
        else if (checked && c == '\f')
            fputs("\\f", out);
        else if (c < 0x20 || c == 0x7f) /* DEL is legal JSON but invisible and terminal-hostile */
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
