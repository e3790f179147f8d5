/* The JSON writer produces readable documents that strict parsers accept:
 * exact layout for small documents, Python's json module as the judge of
 * escaping and numbers in bigger ones, and -1 from json_finish on misuse. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json.h"
#include "tap.h"

static char *text;
static size_t text_size;
static FILE *stream;
static JsonWriter w;

static void begin(void)
{
    free(text);
    text = NULL;
    stream = open_memstream(&text, &text_size);
    json_start(&w, stream);
}

/* Finishes the document; `text` then holds everything written. */
static int end(void)
{
    int rc = json_finish(&w);
    fclose(stream);
    return rc;
}

static int wrote(const char *expected)
{
    int same = strcmp(text, expected) == 0;
    if (!same)
        printf("# got:\n%s\n# expected:\n%s\n", text, expected);
    return same;
}

static void test_layout(void)
{
    begin();
    json_object_begin(&w, NULL);
    json_object_end(&w);
    ok(end() == 0 && wrote("{}\n"), "an empty object is written as {} and the document ends with a newline");

    begin();
    json_array_begin(&w, NULL);
    json_array_end(&w);
    ok(end() == 0 && wrote("[]\n"), "an empty array is written as []");

    begin();
    json_integer(&w, NULL, 42);
    ok(end() == 0 && wrote("42\n"), "a lone scalar is a complete document");

    begin();
    json_object_begin(&w, NULL);
    json_string(&w, "name", "clomp");
    json_integer(&w, "threads", -4);
    json_bool(&w, "verified", 1);
    json_bool(&w, "numa", 0);
    json_array_begin(&w, "sizes");
    json_integer(&w, NULL, 1);
    json_number(&w, NULL, 2.5);
    json_object_begin(&w, NULL);
    json_null(&w, "none");
    json_object_end(&w);
    json_array_end(&w);
    json_object_begin(&w, "empty");
    json_object_end(&w);
    json_array_begin(&w, "nothing");
    json_array_end(&w);
    json_object_end(&w);
    ok(end() == 0 && wrote("{\n"
                           "  \"name\": \"clomp\",\n"
                           "  \"threads\": -4,\n"
                           "  \"verified\": true,\n"
                           "  \"numa\": false,\n"
                           "  \"sizes\": [\n"
                           "    1,\n"
                           "    2.5,\n"
                           "    {\n"
                           "      \"none\": null\n"
                           "    }\n"
                           "  ],\n"
                           "  \"empty\": {},\n"
                           "  \"nothing\": []\n"
                           "}\n"),
       "members are indented two spaces per level, separated by commas, with no trailing comma");
}

static void test_exact_escapes(void)
{
    begin();
    json_string(&w, NULL, "q\" b\\ n\n t\t r\r b\b f\f \x01 \x1f \x7f");
    ok(end() == 0 && wrote("\"q\\\" b\\\\ n\\n t\\t r\\r b\\b f\\f \\u0001 \\u001f \\u007f\"\n"),
       "quotes and backslashes are escaped, common controls get short escapes, others and DEL \\u00XX");

    begin();
    json_string(&w, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    ok(end() == 0 && wrote("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n"),
       "valid UTF-8 of two, three and four bytes passes through unchanged");

    begin();
    json_string(&w, NULL, "a\xff" "b");
    ok(end() == 0 && wrote("\"a\\ufffdb\"\n"), "an invalid byte is written as the escape \\ufffd");

    begin();
    json_string(&w, NULL, NULL);
    ok(end() == 0 && wrote("null\n"), "a NULL string is written as null");

    begin();
    json_object_begin(&w, NULL);
    json_integer(&w, "say \"hi\"\n", 1);
    json_object_end(&w);
    ok(end() == 0 && wrote("{\n  \"say \\\"hi\\\"\\n\": 1\n}\n"), "keys are escaped like values");
}

static int have_python(void)
{
    return system("python3 -c pass >/dev/null 2>&1") == 0;
}

/* Python prints each member of the top-level object as key TAB value:
 * strings with everything outside printable ASCII as <U+XXXX>, so the
 * expected text is exact about code points; other values as repr().
 * NaN and Infinity, which Python would otherwise accept, are refused. */
#define DECODE_SCRIPT                                                                          \
    "import json, sys\n"                                                                       \
    "def bad(c): sys.exit(\"not JSON: \" + c)\n"                                               \
    "d = json.load(open(sys.argv[1], encoding=\"utf-8\"), parse_constant=bad)\n"               \
    "def show(v):\n"                                                                           \
    "    if not isinstance(v, str): return repr(v)\n"                                          \
    "    return \"\".join(c if 32 <= ord(c) < 127 else \"<U+%04X>\" % ord(c) for c in v)\n"    \
    "for k, v in d.items(): print(k + \"\\t\" + show(v))\n"

static char decoded[8192];

/* Has python3 parse `text`; returns 0 when it accepted the document. */
static int decode_with_python(void)
{
    char path[] = "/tmp/test_json.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int written = write(fd, text, len) == (ssize_t)len;
    close(fd);
    char command[1024];
    snprintf(command, sizeof command, "python3 -c '%s' %s", DECODE_SCRIPT, path);
    FILE *p = written ? popen(command, "r") : NULL;
    size_t got = p ? fread(decoded, 1, sizeof decoded - 1, p) : 0;
    decoded[got] = '\0';
    int status = p ? pclose(p) : -1;
    unlink(path);
    return status;
}

/* The decoded value of `key`, or "(missing)". */
static const char *member(const char *key)
{
    static char value[1024];
    size_t key_len = strlen(key);
    for (const char *line = decoded; *line; line = strchr(line, '\n') + 1) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            break;
        if (strncmp(line, key, key_len) == 0 && line[key_len] == '\t') {
            const char *start = line + key_len + 1;
            snprintf(value, sizeof value, "%.*s", (int)(eol - start), start);
            return value;
        }
    }
    return "(missing)";
}

static int decodes_to(const char *key, const char *expected)
{
    const char *got = member(key);
    int same = strcmp(got, expected) == 0;
    if (!same)
        printf("# %s: got %s, expected %s\n", key, got, expected);
    return same;
}

static void test_strings_through_python(void)
{
    begin();
    json_object_begin(&w, NULL);
    json_string(&w, "quotes", "say \"hi\"");
    json_string(&w, "backslashes", "C:\\temp\\");
    json_string(&w, "whitespace", "line\nnext\ttab\r");
    json_string(&w, "controls", "\x01\x1f\x7f");
    json_string(&w, "accented", "caf\xc3\xa9");
    json_string(&w, "euro", "\xe2\x82\xac");
    json_string(&w, "emoji", "\xf0\x9f\x98\x80");
    /* String literals are split because hex escapes would swallow a following b or c. */
    json_string(&w, "stray bytes", "a\xff" "b\xc3" "c");
    json_string(&w, "overlong", "\xc0\xaf");
    json_string(&w, "surrogate", "\xed\xa0\x80");
    json_string(&w, "beyond U+10FFFF", "\xf4\x90\x80\x80");
    json_string(&w, "truncated", "x\xe2\x82");
    json_string(&w, "null", NULL);
    json_object_end(&w);
    ok(end() == 0, "a document of awkward strings is finished");

    ok(decode_with_python() == 0, "python3's json module accepts the document of awkward strings");
    ok(decodes_to("quotes", "say \"hi\""), "double quotes survive the round trip");
    ok(decodes_to("backslashes", "C:\\temp\\"), "backslashes survive the round trip");
    ok(decodes_to("whitespace", "line<U+000A>next<U+0009>tab<U+000D>"), "newline, tab and carriage return survive");
    ok(decodes_to("controls", "<U+0001><U+001F><U+007F>"), "control bytes 0x01 and 0x1f and DEL survive");
    ok(decodes_to("accented", "caf<U+00E9>"), "a two-byte character decodes to its code point");
    ok(decodes_to("euro", "<U+20AC>"), "a three-byte character decodes to its code point");
    ok(decodes_to("emoji", "<U+1F600>"), "a four-byte emoji decodes to one code point, not a surrogate pair");
    ok(decodes_to("stray bytes", "a<U+FFFD>b<U+FFFD>c"), "a stray 0xff and a lone lead byte each become U+FFFD");
    ok(decodes_to("overlong", "<U+FFFD><U+FFFD>"), "both bytes of an overlong '/' become U+FFFD");
    ok(decodes_to("surrogate", "<U+FFFD><U+FFFD><U+FFFD>"), "each byte of an encoded surrogate becomes U+FFFD");
    ok(decodes_to("beyond U+10FFFF", "<U+FFFD><U+FFFD><U+FFFD><U+FFFD>"),
       "each byte of a code point past U+10FFFF becomes U+FFFD");
    ok(decodes_to("truncated", "x<U+FFFD><U+FFFD>"), "each byte of a sequence cut short by the end becomes U+FFFD");
    ok(decodes_to("null", "None"), "a NULL string decodes as null");
}

static void test_values_through_python(void)
{
    begin();
    json_object_begin(&w, NULL);
    json_number(&w, "tenth", 0.1);
    json_number(&w, "tiny", 1e-300);
    json_number(&w, "third", 1 / 3.);
    json_number(&w, "largest", DBL_MAX);
    json_number(&w, "smallest", 5e-324);
    json_number(&w, "negative zero", -0.0);
    json_number(&w, "nan", NAN);
    json_number(&w, "infinity", INFINITY);
    json_integer(&w, "most", LLONG_MAX);
    json_integer(&w, "least", LLONG_MIN);
    json_bool(&w, "yes", 1);
    json_bool(&w, "no", 0);
    json_array_begin(&w, "mixed");
    json_integer(&w, NULL, 1);
    json_string(&w, NULL, "two");
    json_array_begin(&w, NULL);
    json_array_end(&w);
    json_object_begin(&w, NULL);
    json_object_begin(&w, "deeper");
    json_bool(&w, "flag", 1);
    json_object_end(&w);
    json_object_end(&w);
    json_array_end(&w);
    json_object_end(&w);
    ok(end() == 0, "a document of numbers and nested containers is finished");

    ok(decode_with_python() == 0, "python3's json module accepts it, with no NaN or Infinity in it");
    /* Python's repr is the shortest text naming the same double, so equal
     * text means Python read exactly the value that was written. */
    ok(decodes_to("tenth", "0.1") && decodes_to("tiny", "1e-300") && decodes_to("third", "0.3333333333333333"),
       "0.1, 1e-300 and 1/3 are read by Python as the same doubles");
    ok(decodes_to("largest", "1.7976931348623157e+308") && decodes_to("smallest", "5e-324"),
       "DBL_MAX and the smallest denormal are read by Python as the same doubles");
    ok(decodes_to("negative zero", "0"), "negative zero is valid JSON (Python reads -0 as the integer 0)");
    ok(decodes_to("nan", "None") && decodes_to("infinity", "None"), "NaN and infinity decode as null");
    ok(decodes_to("most", "9223372036854775807") && decodes_to("least", "-9223372036854775808"),
       "the extreme long long values decode exactly");
    ok(decodes_to("yes", "True") && decodes_to("no", "False"), "booleans decode as true and false");
    ok(decodes_to("mixed", "[1, 'two', [], {'deeper': {'flag': True}}]"), "nested arrays and objects decode intact");
}

/* The text json_number writes for `value` as a top-level document. */
static const char *number_text(double value)
{
    static char number[64];
    begin();
    json_number(&w, NULL, value);
    end();
    snprintf(number, sizeof number, "%s", text);
    number[strcspn(number, "\n")] = '\0';
    return number;
}

static void test_numbers(void)
{
    const double values[] = {0.1, 1e-300, -0.0, 1 / 3., DBL_MAX, 5e-324, 123456789.0, -2.5e-7};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const char *written = number_text(values[i]);
        ok(same_bits(strtod(written, NULL), values[i]), "%a is written as %s, which strtod reads back bit for bit",
           values[i], written);
    }
    ok(strcmp(number_text(0.1), "0.1") == 0, "0.1 is written as 0.1, not 0.10000000000000001");
    ok(strcmp(number_text(1 / 3.), "0.3333333333333333") == 0, "1/3 needs 16 digits and gets no more");
    ok(strcmp(number_text(0.1 + 0.2), "0.30000000000000004") == 0, "0.1 + 0.2 needs all 17 digits");
    ok(strcmp(number_text(-0.0), "-0") == 0, "negative zero keeps its sign");
    ok(strcmp(number_text(NAN), "null") == 0, "NaN is written as null");
    ok(strcmp(number_text(INFINITY), "null") == 0 && strcmp(number_text(-INFINITY), "null") == 0,
       "positive and negative infinity are written as null");
}

static void test_misuse(void)
{
    begin();
    json_array_begin(&w, NULL);
    json_integer(&w, "n", 1);
    json_array_end(&w);
    ok(w.error && end() == -1, "a key inside an array is an error and json_finish returns -1");

    begin();
    json_object_begin(&w, NULL);
    json_integer(&w, NULL, 1);
    json_object_end(&w);
    ok(w.error && end() == -1, "a member without a key inside an object is an error");

    begin();
    json_object_begin(&w, "top");
    json_object_end(&w);
    ok(w.error && end() == -1, "a key on the top-level value is an error");

    begin();
    json_object_begin(&w, NULL);
    json_integer(&w, "n", 1);
    ok(end() == -1, "an object left open makes json_finish return -1");

    begin();
    json_object_begin(&w, NULL);
    json_array_end(&w);
    ok(w.error && end() == -1, "closing an object as an array is an error");

    begin();
    json_object_end(&w);
    ok(w.error && end() == -1, "closing when nothing is open is an error");

    begin();
    json_integer(&w, NULL, 1);
    json_integer(&w, NULL, 2);
    ok(w.error && end() == -1, "a second top-level value is an error");

    begin();
    for (int i = 0; i < JSON_MAX_DEPTH - 1; i++)
        json_array_begin(&w, NULL);
    for (int i = 0; i < JSON_MAX_DEPTH - 1; i++)
        json_array_end(&w);
    ok(!w.error && end() == 0, "%d nested arrays fit (level 0 is the document itself)", JSON_MAX_DEPTH - 1);

    begin();
    for (int i = 0; i < JSON_MAX_DEPTH; i++)
        json_array_begin(&w, NULL);
    ok(w.error && end() == -1, "%d nested arrays are too deep", JSON_MAX_DEPTH);

    begin();
    json_array_begin(&w, NULL);
    json_integer(&w, "n", 1);
    fflush(stream);
    size_t size_at_error = text_size;
    json_integer(&w, NULL, 2);
    json_array_end(&w);
    ok(end() == -1 && text_size == size_at_error, "after an error nothing more is written, not even the newline");
}

static void test_write_failure(void)
{
    char tiny[8];
    stream = fmemopen(tiny, sizeof tiny, "w");
    json_start(&w, stream);
    json_object_begin(&w, NULL);
    json_string(&w, "host", "a name much longer than eight bytes");
    json_object_end(&w);
    ok(!w.error && end() == -1, "a document that does not fit its stream makes json_finish return -1");
}

int main(void)
{
    test_layout();
    test_exact_escapes();
    if (have_python()) {
        test_strings_through_python();
        test_values_through_python();
    } else {
        ok(1, "# skip no python3");
    }
    test_numbers();
    test_misuse();
    test_write_failure();
    free(text);
    return done_testing();
}
