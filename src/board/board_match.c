/* board_match.c - how sure it is that this board is the guide's board
 * (board.h): soc0, the CPU part, the core count and the clock checked
 * against the guide's SoC facts, the confidence, and the checks as JSON,
 * text and a warning. */
#include "config.h"
#include "board/board.h"
#include "board/board_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"

/* --- how sure -------------------------------------------------------- */

static void add_check(struct board_match *m, const char *name,
                      enum board_check_result r, char *text)
{
    struct board_check *c = &m->checks[m->n++];
    c->name = name;
    c->result = r;
    c->text = text;
    if (r == CHECK_CONFIRMS)
        m->confirms++;
    else if (r == CHECK_CONTRADICTS)
        m->contradicts++;
}

static void check_soc0(const struct board_info *b, const char *family,
                       const char *board_name, struct board_match *m)
{
    if (!b->soc0) {
        add_check(m, "soc0", CHECK_CONTRADICTS,
                  xstrdup("no /sys/devices/soc0, which every TI kernel has "
                          "(an emulator, a container or another kernel?)"));
        return;
    }
    const char *rev = b->revision ? b->revision : "unknown";
    const char *soc_family = b->family_from_soc0 ? b->family : NULL;
    if (!soc_family)
        add_check(m, "soc0", CHECK_UNCHECKED,
                  xstrdup("/sys/devices/soc0 has no family"));
    else if (!family)
        add_check(m, "soc0", CHECK_UNCHECKED,
                  xasprintf("soc0 family %s, revision %s; the SoC of %s is not known",
                            soc_family, rev, board_name));
    else if (strcasecmp(soc_family, family) == 0)
        add_check(m, "soc0", CHECK_CONFIRMS,
                  xasprintf("soc0 family %s, revision %s, the SoC of the %s",
                            soc_family, rev, board_name));
    else
        add_check(m, "soc0", CHECK_CONTRADICTS,
                  xasprintf("soc0 family %s, the %s has %s", soc_family,
                            board_name, family));
}

/* "0xd03 (Cortex-A53)" */
static char *part_text(const char *part)
{
    const char *name = board_arm_part_name((unsigned)strtoul(part, NULL, 16));
    return name ? xasprintf("%s (%s)", part, name) : xstrdup(part);
}

static void check_cpu(const struct board_info *b, const struct soc_fact *s,
                      struct board_match *m)
{
    if (!s || !s->cpu_part) {
        add_check(m, "cpu", CHECK_UNCHECKED,
                  xstrdup("no CPU facts for the guide's SoC (soc/cpu.json)"));
        return;
    }
    char *want = part_text(s->cpu_part);
    if (b->cpu_part) {
        char *have = part_text(b->cpu_part);
        if (strcasecmp(b->cpu_part, s->cpu_part) == 0)
            add_check(m, "cpu", CHECK_CONFIRMS,
                      xasprintf("CPU part %s, as on %s", have, s->family));
        else
            add_check(m, "cpu", CHECK_CONTRADICTS,
                      xasprintf("CPU part %s, %s has %s", have, s->family, want));
        free(have);
    } else if (b->cpu_name) {
        add_check(m, "cpu", CHECK_CONTRADICTS,
                  xasprintf("CPU %s (no Arm CPU part), %s has %s", b->cpu_name,
                            s->family, want));
    } else {
        add_check(m, "cpu", CHECK_UNCHECKED,
                  xasprintf("no CPU part in /proc/cpuinfo (%s has %s)", s->family, want));
    }
    free(want);
}

static void check_cores(const struct board_info *b, const struct soc_fact *s,
                        struct board_match *m)
{
    if (!s || s->cores <= 0)
        add_check(m, "cores", CHECK_UNCHECKED,
                  xstrdup("no core count for the guide's SoC (soc/cpu.json)"));
    else if (b->cores <= 0)
        add_check(m, "cores", CHECK_UNCHECKED,
                  xasprintf("no processors in /proc/cpuinfo (%s has %d)", s->family,
                            s->cores));
    else if (b->cores == s->cores)
        add_check(m, "cores", CHECK_CONFIRMS,
                  xasprintf("%d cores, as on %s", b->cores, s->family));
    else
        add_check(m, "cores", CHECK_CONTRADICTS,
                  xasprintf("%d cores, %s has %d", b->cores, s->family, s->cores));
}

static void check_clock(double guide_mhz, double clock_mhz, const char *from,
                        struct board_match *m)
{
    from = from ? from : "clock";
    if (!(guide_mhz > 0)) {
        add_check(m, "clock", CHECK_UNCHECKED,
                  clock_mhz > 0 ? xasprintf("%s %.0f MHz; the guide gives no CPU clock",
                                            from, clock_mhz)
                                : xstrdup("the guide gives no CPU clock"));
        return;
    }
    if (!(clock_mhz > 0)) {
        add_check(m, "clock", CHECK_UNCHECKED,
                  xasprintf("the clock is not known here (the guide's is %.0f MHz)",
                            guide_mhz));
        return;
    }
    double ratio = clock_mhz / guide_mhz;
    bool near = fabs(ratio - 1.0) * 100.0 <= BOARD_CLOCK_TOL_PCT;
    add_check(m, "clock", near ? CHECK_CONFIRMS : CHECK_CONTRADICTS,
              near ? xasprintf("%s %.0f MHz, the guide's %.0f MHz", from, clock_mhz,
                               guide_mhz)
                   : xasprintf("%s %.0f MHz, %.2fx the guide's %.0f MHz", from,
                               clock_mhz, ratio, guide_mhz));
}

void board_assess(const struct board_info *b, const char *key, const struct soc_facts *f,
                  double guide_mhz, double clock_mhz, const char *clock_from,
                  struct board_match *m)
{
    memset(m, 0, sizeof *m);
    if (!key)
        return;
    const struct known_board *kb = board_known_of(key);
    const char *name = kb ? kb->name : key;
    const struct soc_fact *s = kb ? soc_facts_find(f, kb->family) : NULL;
    m->key = xstrdup(key);
    m->name = xstrdup(name);
    check_soc0(b, kb ? kb->family : NULL, name, m);
    check_cpu(b, s, m);
    check_cores(b, s, m);
    check_clock(guide_mhz, clock_mhz, clock_from, m);
}

void board_match_free(struct board_match *m)
{
    free(m->key);
    free(m->name);
    for (size_t i = 0; i < m->n; i++)
        free(m->checks[i].text);
    memset(m, 0, sizeof *m);
}

const char *board_match_confidence(const struct board_match *m)
{
    if (!m->n)
        return "none";
    if (m->contradicts)
        return "doubtful";
    return m->confirms == m->n ? "confirmed" : "likely";
}

static const char *check_result_name(enum board_check_result r)
{
    switch (r) {
    case CHECK_CONFIRMS:    return "confirms";
    case CHECK_CONTRADICTS: return "contradicts";
    case CHECK_UNCHECKED:   break;
    }
    return "unchecked";
}

json_t *board_match_to_json(const struct board_match *m)
{
    if (!m->n)
        return json_null();
    json_t *checks = json_array();
    for (size_t i = 0; i < m->n; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "check", json_string(m->checks[i].name));
        json_object_set_new(c, "result",
                            json_string(check_result_name(m->checks[i].result)));
        json_object_set_new(c, "text", json_string_from_outside(m->checks[i].text));
        json_array_append_new(checks, c);
    }
    json_t *o = json_object();
    json_object_set_new(o, "board", json_string_from_outside(m->key));
    json_object_set_new(o, "confidence", json_string(board_match_confidence(m)));
    json_object_set_new(o, "confirms", json_integer((json_int_t)m->confirms));
    json_object_set_new(o, "contradicts", json_integer((json_int_t)m->contradicts));
    json_object_set_new(o, "checks", checks);
    return o;
}

void board_match_print_text(const struct board_match *m, FILE *out)
{
    if (!m->n)
        return;
    char *head;
    if (m->contradicts)
        head = xasprintf("doubtful: %zu of %zu checks contradict%s the %s (%s)",
                         m->contradicts, m->n, m->contradicts == 1 ? "s" : "", m->name,
                         m->key);
    else
        head = xasprintf("%s: %zu of %zu checks confirm the %s (%s)",
                         board_match_confidence(m), m->confirms, m->n, m->name, m->key);
    board_print_field(out, "Match", head);
    free(head);
    static const char *const labels[] = {
        [CHECK_CONFIRMS] = "Confirms", [CHECK_CONTRADICTS] = "Contradicts",
        [CHECK_UNCHECKED] = "Unchecked",
    };
    for (size_t i = 0; i < m->n; i++) {
        char *line = xasprintf("%s: %s", m->checks[i].name, m->checks[i].text);
        board_print_field(out, labels[m->checks[i].result], line);
        free(line);
    }
}

char *board_match_warning(const struct board_match *m, const char *so)
{
    if (!m->contradicts)
        return NULL;
    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "this board does not match the guide's %s (%s): ", m->name, m->key);
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->checks[i].result == CHECK_CONTRADICTS)
            sb_addf(&sb, "%s%s", k++ ? "; " : "", m->checks[i].text);
    sb_addf(&sb, "; %s", so);
    return sb_steal(&sb);
}
