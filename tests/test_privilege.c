/* test_privilege.c - the root-only extras, probed in fixture trees. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/privilege.h"
#include "suites.h"
#include "common/util.h"

static char root[] = "/tmp/evmbench-priv-XXXXXX";

static void setup(void)
{
    strcpy(root, "/tmp/evmbench-priv-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
    char *rm = xasprintf("chmod -R u+rwx '%s' && rm -rf '%s'", root, root);
    ck_assert_int_eq(system(rm), 0);
    free(rm);
}

static void touch(const char *rel, mode_t mode)
{
    char *p = path_join(root, rel);
    char *mk = xasprintf("mkdir -p \"$(dirname '%s')\" && : > '%s'", p, p);
    ck_assert_int_eq(system(mk), 0);
    ck_assert_int_eq(chmod(p, mode), 0);
    free(mk);
    free(p);
}

static const struct priv_extra *find(const struct priv_report *r, const char *id)
{
    for (size_t i = 0; i < PRIV_NEXTRAS; i++)
        if (strcmp(r->extras[i].id, id) == 0)
            return &r->extras[i];
    ck_abort_msg("no extra %s", id);
    return NULL;
}

START_TEST(empty_tree_has_none)
{
    struct priv_report r;
    priv_probe(root, &r);
    ck_assert_uint_eq(r.uid, (unsigned)geteuid());
    ck_assert(r.root == (geteuid() == 0));
    for (size_t i = 0; i < PRIV_NEXTRAS; i++) {
        ck_assert_int_eq(r.extras[i].state, PRIV_ABSENT);
        ck_assert(strlen(r.extras[i].explain) > 20);
    }
}
END_TEST

/* Writable files make the extras available; read-only ones deny them to
 * an ordinary user (root is never denied by file modes). */
START_TEST(files_decide_the_state)
{
    touch("proc/sys/vm/drop_caches", 0644);
    touch("sys/kernel/debug/clk/clk_summary", 0444);
    touch("sys/block/mmcblk0/size", 0444);
    touch("sys/block/loop0/size", 0444);
    touch("dev/mmcblk0", 0660);
    touch("dev/loop0", 0666);
    struct priv_report r;
    priv_probe(root, &r);
    ck_assert_int_eq(find(&r, "drop_caches")->state, PRIV_AVAILABLE);
    ck_assert_int_eq(find(&r, "clk_debugfs")->state, PRIV_AVAILABLE);
    ck_assert_int_eq(find(&r, "raw_device")->state, PRIV_AVAILABLE);

    char *p = path_join(root, "proc/sys/vm/drop_caches");
    ck_assert_int_eq(chmod(p, 0444), 0);
    free(p);
    p = path_join(root, "dev/mmcblk0");
    ck_assert_int_eq(chmod(p, 0440), 0);
    free(p);
    p = path_join(root, "sys/kernel/debug");
    ck_assert_int_eq(chmod(p, 0700), 0);
    free(p);
    priv_probe(root, &r);
    enum priv_state want = geteuid() == 0 ? PRIV_AVAILABLE : PRIV_DENIED;
    ck_assert_int_eq(find(&r, "drop_caches")->state, want);
    /* the loop device does not count as storage */
    ck_assert_int_eq(find(&r, "raw_device")->state, want);
    ck_assert_int_eq(find(&r, "clk_debugfs")->state, PRIV_AVAILABLE); /* owner */
}
END_TEST

START_TEST(text_and_json_say_it)
{
    touch("proc/sys/vm/drop_caches", 0644);
    struct priv_report r;
    priv_probe(root, &r);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    priv_print_text(&r, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "Privileges:"));
    ck_assert_ptr_nonnull(strstr(buf, r.root ? "root; evmbench needs no privileges"
                                             : "ordinary user (uid"));
    ck_assert_ptr_nonnull(strstr(buf, "Page cache:   available: dropping caches"));
    ck_assert_ptr_nonnull(strstr(buf, "Clock tree:   absent: the DDR"));
    ck_assert_ptr_nonnull(strstr(buf, "Raw devices:  absent: --allow-raw-device"));
    free(buf);
    json_t *j = priv_to_json(&r);
    ck_assert(json_is_boolean(json_object_get(j, "root")));
    json_t *x = json_object_get(j, "extras");
    ck_assert_uint_eq(json_array_size(x), PRIV_NEXTRAS);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(x, 0), "id")),
                     "drop_caches");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(x, 0), "state")),
                     "available");
    json_decref(j);
}
END_TEST

Suite *suite_privilege(void)
{
    Suite *s = suite_create("privilege");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, empty_tree_has_none);
    tcase_add_test(tc, files_decide_the_state);
    tcase_add_test(tc, text_and_json_say_it);
    suite_add_tcase(s, tc);
    return s;
}
