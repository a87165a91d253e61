/* test_widgets.c - the screens' keys, key help, escape sequences, theme
 * files and pacing, on fixed inputs (the formatted text: test_format.c,
 * the lists: test_list.c). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screens/actions.h"
#include "screens/ui_impl.h"
#include "common/diag.h"
#include "suites.h"
#include "screens/theme.h"
#include "common/util.h"
#include "screens/widgets.h"
#include "screens/pace.h"

/* --- actions and key help ------------------------------------------------- */

START_TEST(actions)
{
    char buf[128];
    ck_assert_int_eq(action_for_key(NULL, 'j'), ACT_DOWN);
    ck_assert_int_eq(action_for_key(NULL, 'q'), ACT_BACK);
    ck_assert_int_eq(action_for_key(NULL, 27), ACT_BACK);
    ck_assert_int_eq(action_for_key(NULL, 'Z'), ACT_NONE);
    ck_assert_int_eq(action_for_key(NULL, 'w'), ACT_DETAILS);   /* the full text */
    static const struct binding local[] = { { 'j', ACT_RUN }, { 0, ACT_NONE } };
    ck_assert_int_eq(action_for_key(local, 'j'), ACT_RUN);   /* local first */

    ck_assert_uint_eq(action_keys_text(NULL, ACT_UP, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "Up, k");
    action_keys_text(NULL, ACT_HELP, buf, sizeof buf);
    ck_assert_str_eq(buf, "?, F1");
    action_keys_text(NULL, ACT_REDRAW, buf, sizeof buf);
    ck_assert_str_eq(buf, "Ctrl-L");
    action_keys_text(NULL, ACT_BACK, buf, sizeof buf);
    ck_assert_str_eq(buf, "q, Esc, Left");
    action_keys_text(NULL, ACT_PAGE_DOWN, buf, sizeof buf);
    ck_assert_str_eq(buf, "PgDn, Ctrl-F, Space");

    ck_assert_str_eq(action_name(ACT_PAGE_DOWN), "PAGE_DOWN");
    ck_assert_int_eq(action_from_name("page-down"), ACT_PAGE_DOWN);
    ck_assert_int_eq(action_from_name("nonsense"), ACT_NONE);
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++)
        ck_assert_msg(action_description(a)[0], "action %d has no description", a);

    static const struct hint hints[] = {
        { ACT_ENTER, "open" }, { ACT_HELP, "help" }, { ACT_BACK, "quit" },
        { ACT_NONE, NULL },
    };
    ck_assert_str_eq(fmt_hints(buf, sizeof buf, hints, NULL), "Enter open  ? help  q quit");
}
END_TEST

/* --- theme files ------------------------------------------------------------- */

START_TEST(parses_themes)
{
    struct theme t;
    struct diag dg;
    diag_init(&dg);
    int errors = theme_parse(&t,
        "# a comment\n"
        "\n"
        "color better  green default bold   # trailing comment\n"
        "color off 196 black reverse underline\n", "good.theme", false, &dg);
    ck_assert_int_eq(errors, 0);
    ck_assert_uint_eq(dg.n, 0);
    ck_assert_int_eq(t.style[ROLE_BETTER].fg, 2);
    ck_assert_int_eq(t.style[ROLE_BETTER].bg, THEME_DEFAULT_COLOR);
    ck_assert_uint_eq(t.style[ROLE_BETTER].attrs, THEME_BOLD);
    ck_assert_int_eq(t.style[ROLE_OFF].fg, 196);
    ck_assert_int_eq(t.style[ROLE_OFF].bg, 0);
    ck_assert_uint_eq(t.style[ROLE_OFF].attrs, THEME_REVERSE | THEME_UNDERLINE);
    char line[96];
    theme_format_line(&t, ROLE_OFF, line, sizeof line);
    ck_assert_str_eq(line, "color off 196 black underline reverse");
    diag_free(&dg);
}
END_TEST

static const struct {
    const char *line;
    const char *msg;
} bad_lines[] = {
    { "color better purpel default", "bad.theme:3: unknown colour 'purpel'" },
    { "color betterr green default", "bad.theme:3: unknown role 'betterr'" },
    { "colr better green default", "bad.theme:3: unknown command 'colr' (expected 'color')" },
    { "color better green", "bad.theme:3: expected: color <role> <fg> <bg> [attributes...]" },
    { "color better green default shiny", "bad.theme:3: unknown attribute 'shiny'" },
    { "color better green 256", "bad.theme:3: unknown colour '256'" },
};

START_TEST(theme_bad_line)
{
    struct theme t, builtin;
    struct diag dg;
    char *text = xasprintf("# ok so far\ncolor warn red default\n%s\n", bad_lines[_i].line);
    diag_init(&dg);
    ck_assert_int_eq(theme_parse(&t, text, "bad.theme", false, &dg), 1);
    ck_assert_uint_eq(dg.n, 1);
    ck_assert_str_eq(dg.msgs[0], bad_lines[_i].msg);
    /* the whole file is dropped for the built-in theme */
    theme_builtin(&builtin, false);
    ck_assert_mem_eq(&t, &builtin, sizeof t);
    diag_free(&dg);
    free(text);
}
END_TEST

START_TEST(theme_missing_file)
{
    struct theme t, builtin;
    struct diag dg;
    diag_init(&dg);
    ck_assert_int_eq(theme_load(&t, "/nonexistent/x.theme", true, &dg), 1);
    ck_assert_uint_eq(dg.n, 1);
    ck_assert(str_starts_with(dg.msgs[0], "/nonexistent/x.theme: cannot read: "));
    theme_builtin(&builtin, true);
    ck_assert_mem_eq(&t, &builtin, sizeof t);
    diag_free(&dg);
}
END_TEST

/* The shipped files parse cleanly and match the built-in themes. */
START_TEST(theme_shipped)
{
    static const char *const files[] = { "default", "mono" };
    struct theme t, builtin;
    struct diag dg;
    char *rel = xasprintf("../../themes/%s.theme", files[_i]);
    char *path = test_data_path(rel);
    diag_init(&dg);
    ck_assert_int_eq(theme_load(&t, path, _i == 1, &dg), 0);
    theme_builtin(&builtin, _i == 1);
    for (int r = 0; r < ROLE_COUNT; r++)
        ck_assert_msg(memcmp(&t.style[r], &builtin.style[r], sizeof t.style[r]) == 0,
                      "%s: role %s differs from the built-in theme", path,
                      theme_role_name(r));
    diag_free(&dg);
    free(path);
    free(rel);
}
END_TEST

/* The other shipped themes parse without a bad line. */
START_TEST(theme_shipped_extra)
{
    static const char *const files[] = { "light", "ti", "high-contrast" };
    struct theme t;
    struct diag dg;
    char *rel = xasprintf("../../themes/%s.theme", files[_i]);
    char *path = test_data_path(rel);
    diag_init(&dg);
    ck_assert_msg(theme_load(&t, path, false, &dg) == 0, "%s: %s", path,
                  dg.n ? dg.msgs[0] : "");
    ck_assert_int_eq(theme_load(&t, path, true, &dg), 0);
    diag_free(&dg);
    free(path);
    free(rel);
}
END_TEST

/* Beyond the guide's band on the better side (VERDICT_BETTER) is good
 * news: no shipped theme draws it as an alarm (red, reverse, blink,
 * standout), nor like the worse side's "off" (a monochrome terminal always
 * gets mono, which says it with attributes alone). */
START_TEST(theme_better_is_no_alarm)
{
    static const char *const files[] = { "default", "mono", "light", "ti", "high-contrast" };
    static const short reds[] = { 1, 9, 52, 88, 124, 160, 196 };
    for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
        bool mono = strcmp(files[f], "mono") == 0;
        {
            struct theme t;
            struct diag dg;
            char *rel = xasprintf("../../themes/%s.theme", files[f]);
            char *path = test_data_path(rel);
            diag_init(&dg);
            ck_assert_int_eq(theme_load(&t, path, mono, &dg), 0);
            {
                enum verdict v = VERDICT_BETTER;
                enum role r = theme_verdict_role(v, true);
                const struct theme_style *st = &t.style[r];
                ck_assert_msg(!(st->attrs & (THEME_REVERSE | THEME_BLINK | THEME_STANDOUT)),
                              "%s (mono %d): %s on the better side is drawn as an alarm",
                              path, mono, fmt_verdict(v));
                for (size_t k = 0; !mono && k < ARRAY_SIZE(reds); k++)
                    ck_assert_msg(st->fg != reds[k] && st->bg != reds[k],
                                  "%s: %s on the better side is red", path,
                                  fmt_verdict(v));
                const struct theme_style *off = &t.style[theme_verdict_role(VERDICT_OFF, false)];
                ck_assert_msg(mono ? st->attrs != off->attrs
                                   : memcmp(st, off, sizeof *st) != 0,
                              "%s (mono %d): better looks like off", path, mono);
            }
            diag_free(&dg);
            free(path);
            free(rel);
        }
    }
    /* nor is red what every row and every run wears: the selection (a
     * highlighted better row) and the finished progress bar */
    for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
        if (strcmp(files[f], "mono") == 0)
            continue;
        struct theme t;
        struct diag dg;
        char *rel = xasprintf("../../themes/%s.theme", files[f]);
        char *path = test_data_path(rel);
        diag_init(&dg);
        ck_assert_int_eq(theme_load(&t, path, false, &dg), 0);
        static const enum role calm[] = { ROLE_SELECTION, ROLE_PROGRESS, ROLE_KEY };
        for (size_t c = 0; c < ARRAY_SIZE(calm); c++)
            for (size_t k = 0; k < ARRAY_SIZE(reds); k++)
                ck_assert_msg(t.style[calm[c]].fg != reds[k] && t.style[calm[c]].bg != reds[k],
                              "%s: %s is red, the colour of off and errors", path,
                              theme_role_name(calm[c]));
        diag_free(&dg);
        free(path);
        free(rel);
    }
    /* the worse side keeps its alarm */
    ck_assert_int_eq(theme_verdict_role(VERDICT_OFF, false), ROLE_OFF);
    ck_assert_int_eq(theme_verdict_role(VERDICT_WARN, false), ROLE_WARN);
    ck_assert_int_eq(theme_verdict_role(VERDICT_IN_RANGE, true), ROLE_IN_RANGE);
}
END_TEST

START_TEST(theme_roles)
{
    ck_assert_int_eq(theme_role_from_name("in-range"), ROLE_IN_RANGE);
    ck_assert_int_eq(theme_role_from_name("WARN"), ROLE_WARN);
    ck_assert_int_eq(theme_role_from_name("nope"), ROLE_COUNT);
    ck_assert_str_eq(theme_role_name(ROLE_SELECTION), "selection");
}
END_TEST

/* --- the line budget (pace.h) ------------------------------------------------ */

START_TEST(pace_window)
{
    struct pace p;
    pace_init(&p, 1000, 1.0);
    ck_assert_int_eq(pace_room(&p, 5.0), 1000);
    ck_assert(pace_next_room(&p, 5.0) == 5.0);          /* nothing sent: now */
    pace_record(&p, 5.0, 400);
    pace_record(&p, 5.5, 500);
    pace_record(&p, 5.7, 0);                            /* nothing: not kept */
    ck_assert_int_eq(pace_sent(&p, 5.5), 900);
    ck_assert_int_eq(pace_room(&p, 5.9), 100);
    ck_assert(pace_next_room(&p, 5.9) == 6.0);          /* the first leaves */
    ck_assert_int_eq(pace_sent(&p, 6.0), 500);          /* (5.0, 6.0] */
    pace_record(&p, 6.2, 800);
    ck_assert_int_eq(pace_room(&p, 6.2), 0);            /* over: never below 0 */
    ck_assert(pace_next_room(&p, 6.2) == 6.5);
    ck_assert_int_eq(pace_sent(&p, 7.3), 0);
    /* more frames than the ring holds: the oldest go first */
    pace_init(&p, 1 << 30, 100.0);
    for (int i = 0; i < PACE_RING + 5; i++)
        pace_record(&p, i * 0.01, 1);
    ck_assert_int_eq(pace_sent(&p, 1.0), PACE_RING);
}
END_TEST

#define ATTR 0xff00UL
#define BOLD 0x0100UL
#define REV 0x0200UL

/* cells of text s in attribute a */
static void cells(unsigned long *c, const char *s, unsigned long a)
{
    for (; *s; s++)
        *c++ = (unsigned char)*s | a;
}

START_TEST(pace_line)
{
    const struct pace_costs k = { .move = 8, .attr = 10, .frame = 16 };
    unsigned long was[20], now[20];
    cells(was, "abc  12  34  56  end", 0);
    memcpy(now, was, sizeof now);
    ck_assert_int_eq(pace_line_cost(now, was, 20, ATTR, &k), 0);
    /* one character: a move, the attribute in force, the character */
    now[6] = '9';
    ck_assert_int_eq(pace_line_cost(now, was, 20, ATTR, &k), 8 + 10 + 1);
    /* two changes: the 7 unchanged cells between are rewritten, which
     * is cheaper than a cursor move */
    now[14] = '7';
    ck_assert_int_eq(pace_line_cost(now, was, 20, ATTR, &k), 8 + 10 + 9);
    /* three bold values with normal gaps: three runs, the gaps jumped
     * over (cheaper than rewriting them with two attribute changes);
     * bold gaps too: one run */
    cells(now + 4, " 12  34  56 ", 0);
    for (int i = 5; i <= 14; i++)
        if (now[i] != ' ')
            now[i] |= BOLD;
    long cells_runs = pace_line_cost(now, was, 20, ATTR, &k);
    for (int i = 5; i <= 14; i++)
        now[i] |= BOLD;
    long one_run = pace_line_cost(now, was, 20, ATTR, &k);
    ck_assert_int_eq(cells_runs, 8 + 10 + 3 * 2 + 2 * 8 + 10);
    ck_assert_int_eq(one_run, 8 + 10 + 10 + 10);
    /* a line ending in an attribute is set back to normal; a character
     * above 127 counts as a UTF-8 sequence */
    memcpy(now, was, sizeof now);
    now[19] = 'x' | REV;
    ck_assert_int_eq(pace_line_cost(now, was, 20, ATTR, &k), 8 + 10 + 1 + 10);
    now[19] = 0xe9;
    ck_assert_int_eq(pace_line_cost(now, was, 20, ATTR, &k), 8 + 10 + 3);
}
END_TEST

/* --- escape sequences from any terminal ----------------------------------- */

/* The bytes after the Esc, one by one; -1 when they run out (no byte came
 * within the Esc delay). */
struct bytes {
    const char *p;
    bool first_seen;
};

static int next_of(void *ctx, bool first)
{
    struct bytes *b = ctx;
    ck_assert(first == !b->first_seen);
    b->first_seen = true;
    return *b->p ? (unsigned char)*b->p++ : -1;
}

static int decode(const char *after_esc, int *again, const char **left)
{
    struct bytes b = { after_esc, false };
    int key = term_decode_escape(next_of, &b, again);
    *left = b.p;
    return key;
}

static const struct {
    const char *seq;    /* after the Esc */
    int key;
} escapes[] = {
    { "[A", KEY_UP },     { "[B", KEY_DOWN },   { "[C", KEY_RIGHT },  { "[D", KEY_LEFT },
    { "OA", KEY_UP },     { "OB", KEY_DOWN },   { "OC", KEY_RIGHT },  { "OD", KEY_LEFT },
    { "[H", KEY_HOME },   { "[F", KEY_END },    { "OH", KEY_HOME },   { "OF", KEY_END },
    { "[1~", KEY_HOME },  { "[7~", KEY_HOME },  { "[4~", KEY_END },   { "[8~", KEY_END },
    { "[5~", KEY_PPAGE }, { "[6~", KEY_NPAGE }, { "[1;5A", KEY_UP },  { "[1;2B", KEY_DOWN },
    { "[15~", KEY_F(5) }, { "OP", KEY_F(1) },   { "[Z", KEY_BTAB },
    /* read whole and dropped: never an Esc */
    { "[1;5P", TERM_KEY_NONE }, { "[200~", TERM_KEY_NONE }, { "[?1;2c", TERM_KEY_NONE },
    { "OX", TERM_KEY_NONE },
    /* cut short (the rest did not come within the delay): no Esc either */
    { "[", TERM_KEY_NONE }, { "[1;5", TERM_KEY_NONE }, { "O", TERM_KEY_NONE },
    /* nothing after it: the Esc key */
    { "", 27 },
};

START_TEST(escape_sequences)
{
    int again;
    const char *left;
    int key = decode(escapes[_i].seq, &again, &left);
    ck_assert_msg(key == escapes[_i].key, "ESC %s: key %d, want %d", escapes[_i].seq, key,
                  escapes[_i].key);
    ck_assert_int_eq(again, TERM_KEY_NONE);
    ck_assert_msg(*left == '\0', "ESC %s: '%s' left unread", escapes[_i].seq, left);
}
END_TEST

/* Esc then another key (Alt-x, or Esc typed quickly before x): both. */
START_TEST(escape_then_key)
{
    int again;
    const char *left;
    ck_assert_int_eq(decode("qrest", &again, &left), 27);
    ck_assert_int_eq(again, 'q');
    ck_assert_str_eq(left, "rest");
}
END_TEST

Suite *suite_widgets(void)
{
    Suite *s = suite_create("widgets");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, actions);
    tcase_add_loop_test(tc, escape_sequences, 0, (int)ARRAY_SIZE(escapes));
    tcase_add_test(tc, escape_then_key);
    suite_add_tcase(s, tc);

    tc = tcase_create("theme");
    tcase_add_test(tc, parses_themes);
    tcase_add_loop_test(tc, theme_bad_line, 0, (int)ARRAY_SIZE(bad_lines));
    tcase_add_test(tc, theme_missing_file);
    tcase_add_loop_test(tc, theme_shipped, 0, 2);
    tcase_add_loop_test(tc, theme_shipped_extra, 0, 3);
    tcase_add_test(tc, theme_roles);
    tcase_add_test(tc, theme_better_is_no_alarm);
    suite_add_tcase(s, tc);

    tc = tcase_create("pace");
    tcase_add_test(tc, pace_window);
    tcase_add_test(tc, pace_line);
    suite_add_tcase(s, tc);
    return s;
}
