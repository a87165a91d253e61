/* privilege.c - finds which root-only extras this process has. */
#include "config.h"
#include "board/privilege.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/board.h"
#include "common/util.h"

const char *priv_state_name(enum priv_state s)
{
    switch (s) {
    case PRIV_AVAILABLE: return "available";
    case PRIV_DENIED: return "denied";
    case PRIV_ABSENT: default: return "absent";
    }
}

/* The state of one file for access mode, or of a directory on the way. */
static enum priv_state file_state(const char *root, const char *rel, int mode)
{
    char *p = path_join(root, rel);
    enum priv_state s;
    if (access(p, mode) == 0)
        s = PRIV_AVAILABLE;
    else if (errno == EACCES || errno == EPERM || errno == EROFS)
        s = PRIV_DENIED;
    else
        s = PRIV_ABSENT;
    free(p);
    return s;
}

/* Any block device of sys/block whose node in dev/ this process may write. */
static enum priv_state raw_device_state(const char *root)
{
    char *dir = path_join(root, "sys/block");
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return PRIV_ABSENT;
    enum priv_state s = PRIV_ABSENT;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && s != PRIV_AVAILABLE) {
        if (e->d_name[0] == '.' || str_starts_with(e->d_name, "loop") ||
            str_starts_with(e->d_name, "ram") || str_starts_with(e->d_name, "zram"))
            continue;
        char *rel = xasprintf("dev/%s", e->d_name);
        enum priv_state one = file_state(root, rel, R_OK | W_OK);
        free(rel);
        if (one != PRIV_ABSENT)
            s = one;
    }
    closedir(d);
    return s;
}

void priv_probe(const char *root, struct priv_report *r)
{
    if (!root || !*root)
        root = "/";
    r->uid = (unsigned)geteuid();
    r->root = r->uid == 0;
    r->extras[0] = (struct priv_extra){
        "drop_caches", "Page cache",
        file_state(root, "proc/sys/vm/drop_caches", W_OK),
        "dropping caches is root-only and not needed: the storage tests use "
        "direct I/O (fio --direct=1) and the file kernels measure cached reads, "
        "as lmbench does",
    };
    r->extras[1] = (struct priv_extra){
        "clk_debugfs", "Clock tree",
        file_state(root, "sys/kernel/debug/clk/clk_summary", R_OK),
        "the DDR and bus clocks are in debugfs (root-only, mounted at "
        "/sys/kernel/debug); without it the DDR clock comes from the device "
        "tree or k3conf, or is said not readable; the CPU clock comes from "
        "cpufreq, which anyone may read",
    };
    r->extras[2] = (struct priv_extra){
        "raw_device", "Raw devices",
        raw_device_state(root),
        "--allow-raw-device with --storage-dir /dev/X needs write access to "
        "the device (root or group disk); without it, --storage-dir DIR tests "
        "a file in a directory on the device",
    };
}

void priv_print_text(const struct priv_report *r, FILE *out)
{
    char *who = r->root
        ? xstrdup("root; evmbench needs no privileges, an ordinary user can run "
                  "every benchmark")
        : xasprintf("ordinary user (uid %u): every benchmark runs; the root-only "
                    "extras below are optional", r->uid);
    board_print_field(out, "Privileges", who);
    free(who);
    for (size_t i = 0; i < PRIV_NEXTRAS; i++) {
        const struct priv_extra *x = &r->extras[i];
        char *line = xasprintf("%s: %s", priv_state_name(x->state), x->explain);
        board_print_field(out, x->label, line);
        free(line);
    }
}

json_t *priv_to_json(const struct priv_report *r)
{
    json_t *extras = json_array();
    for (size_t i = 0; i < PRIV_NEXTRAS; i++) {
        const struct priv_extra *x = &r->extras[i];
        json_array_append_new(extras, json_pack("{s:s, s:s, s:s}", "id", x->id,
                                                "state", priv_state_name(x->state),
                                                "explain", x->explain));
    }
    return json_pack("{s:b, s:I, s:o}", "root", r->root, "uid", (json_int_t)r->uid,
                     "extras", extras);
}
