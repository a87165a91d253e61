/* board_text.c - the board as detected (board.h), shown: as JSON and as
 * "Label:  value" lines word-wrapped before column 80. */
#include "config.h"
#include "board/board.h"
#include "board/board_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define TEXT_LABEL  14          /* width of "SoC revision: " */
#define TEXT_WIDTH  79          /* a line never reaches column 80 */

/* --- output ---------------------------------------------------------- */

static json_t *jstr(const char *s)
{
    return json_string_from_outside(s);
}

/* A clock in whole MHz (cpuinfo's "2096.015" carries no useful digits). */
static json_t *jmhz(double x)
{
    return x > 0 ? json_real(floor(x + 0.5)) : json_null();
}

json_t *board_to_json(const struct board_info *b)
{
    json_t *compat = json_array();
    for (size_t i = 0; i < b->ncompatible; i++)
        json_array_append_new(compat, jstr(b->compatible[i]));

    json_t *cpu = json_object();
    json_object_set_new(cpu, "cores",
                        b->cores > 0 ? json_integer(b->cores) : json_null());
    json_object_set_new(cpu, "part", jstr(b->cpu_part));
    json_object_set_new(cpu, "name", jstr(b->cpu_name));
    json_object_set_new(cpu, "mhz", jmhz(b->cpu_mhz));
    json_object_set_new(cpu, "mhz_source", b->cpu_mhz > 0 ? jstr(b->cpu_mhz_from) : json_null());
    json_object_set_new(cpu, "max_mhz", jmhz(b->cpu_max_mhz));
    json_object_set_new(cpu, "governor", jstr(b->governor));
    json_object_set_new(cpu, "cache_bytes", b->cache_bytes
                        ? json_integer((json_int_t)b->cache_bytes) : json_null());
    json_object_set_new(cpu, "cache_from", jstr(b->cache_from));

    json_t *o = json_object();
    json_object_set_new(o, "board", jstr(b->key));
    json_object_set_new(o, "board_name", jstr(b->name));
    json_object_set_new(o, "model", jstr(b->model));
    json_object_set_new(o, "family", jstr(b->family));
    json_object_set_new(o, "machine", jstr(b->machine));
    json_object_set_new(o, "revision", jstr(b->revision));
    json_object_set_new(o, "compatible", compat);
    json_object_set_new(o, "cpu", cpu);
    json_object_set_new(o, "mem_mb",
                        b->mem_mb > 0 ? json_integer(b->mem_mb) : json_null());
    json_object_set_new(o, "kernel", jstr(b->kernel));
    json_object_set_new(o, "kind", json_string(board_kind_name(b->kind)));
    json_object_set_new(o, "how", jstr(b->how));
    return o;
}

/* "Label:" padded to TEXT_LABEL, then value word-wrapped to TEXT_WIDTH;
 * `none` stands in for a missing value. */
static void print_field_or(FILE *out, const char *label, const char *value,
                           const char *none)
{
    const size_t width = TEXT_WIDTH - TEXT_LABEL;
    const char *p = value && *value ? value : none;
    fprintf(out, "%s:%*s", label, (int)(TEXT_LABEL - strlen(label) - 1), "");
    for (bool first = true; *p; first = false) {
        while (*p == ' ')
            p++;
        size_t n = strlen(p);
        if (n > width) {
            n = width;
            while (n > 0 && p[n] != ' ')    /* break before a word */
                n--;
            if (n == 0)
                n = width;                  /* one word longer than a line */
        }
        if (!first)
            fprintf(out, "%*s", TEXT_LABEL, "");
        fprintf(out, "%.*s\n", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

static void print_field(FILE *out, const char *label, const char *value)
{
    print_field_or(out, label, value, "unknown");
}

void board_print_field(FILE *out, const char *label, const char *value)
{
    print_field(out, label, value);
}

/* The current and the maximum clock, each with where it comes from:
 * "1400 MHz (cpufreq current); maximum 1400 MHz (cpufreq)". */
static void clock_text(const struct board_info *b, struct strbuf *sb)
{
    if (!(b->cpu_mhz > 0) && !b->cpufreq) {
        sb_add(sb, "unknown: no cpufreq in sysfs, no \"cpu MHz\" in /proc/cpuinfo");
        return;
    }
    if (b->cpu_mhz > 0)
        sb_addf(sb, "%.0f MHz (%s)", b->cpu_mhz, b->cpu_mhz_from);
    else
        sb_add(sb, "unknown (cpufreq gives no current clock)");
    if (b->cpu_max_mhz > 0)
        sb_addf(sb, "; maximum %.0f MHz (cpufreq)", b->cpu_max_mhz);
    else
        sb_add(sb, b->cpufreq ? "; no maximum in cpufreq" : "; no cpufreq");
}

void board_print_text(const struct board_info *b, FILE *out)
{
    char *board;
    const char *name = b->name ? b->name : "unknown";
    switch (b->kind) {
    case BOARD_KNOWN:
    case BOARD_OVERRIDE:
        board = b->key && strcmp(b->key, name) != 0
              ? xasprintf("%s (%s)", name, b->key) : xstrdup(name);
        break;
    case BOARD_TI_UNKNOWN:
        board = xasprintf("%s (TI, no guide column)", name);
        break;
    case BOARD_OTHER_DT:
        board = xasprintf("%s (not a TI board)", name);
        break;
    case BOARD_NO_DT:
    default:
        board = b->name ? xasprintf("%s (no device tree)", b->name)
                        : xstrdup("no device tree (PC or virtual machine)");
        break;
    }
    print_field(out, "Board", board);
    free(board);
    print_field(out, "Decided", b->how);
    print_field_or(out, "Model", b->model, "none");

    char *compat = board_join_distinct((const char *const *)b->compatible,
                                       b->ncompatible, " ");
    print_field_or(out, "Compatible", compat, "none");
    free(compat);
    print_field(out, "SoC family", b->family);
    print_field(out, "SoC machine", b->machine);
    print_field(out, "SoC revision", b->revision);

    struct strbuf sb;
    sb_init(&sb);
    if (b->cores > 0)
        sb_addf(&sb, "%d x ", b->cores);
    sb_add(&sb, b->cpu_name ? b->cpu_name : "unknown CPU");
    if (b->cpu_part)
        sb_addf(&sb, " (part %s)", b->cpu_part);
    print_field(out, "CPU", sb.buf);
    sb_clear(&sb);

    clock_text(b, &sb);
    print_field(out, "CPU clock", sb.buf);
    sb_clear(&sb);
    print_field(out, "Governor", b->governor);
    if (b->cache_bytes)
        sb_addf(&sb, "%zu KiB (%s)", b->cache_bytes >> 10, b->cache_from);
    print_field(out, "Caches", sb.len ? sb.buf : NULL);
    sb_clear(&sb);

    if (b->mem_mb > 0)
        sb_addf(&sb, "%ld MB", b->mem_mb);
    print_field(out, "Memory", sb.len ? sb.buf : NULL);
    sb_free(&sb);
    print_field(out, "Kernel", b->kernel);
}
