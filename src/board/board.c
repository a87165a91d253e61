/* board.c - which board this is, read from the device tree and sysfs:
 * the boards of the guides, reading, deciding (known, TI without guide
 * numbers, another device tree, none), --board, the clock to compare.
 * Showing it: board_text.c; how sure a board is the guide's:
 * board_match.c. */
#include "config.h"
#include "board/board.h"
#include "board/board_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel/cpuclock.h"
#include "common/util.h"

#define PROP_MAX    4096        /* a device-tree property or sysfs value */
#define CPUINFO_MAX (1u << 20)  /* /proc/cpuinfo of a large machine */
#define COMPAT_MAX  32          /* entries kept from the compatible list */
#define PARTS_MAX   8           /* distinct CPU parts (big.LITTLE) */
#define CACHE_INDEX_MAX 16      /* cpu0/cache/indexN read */

/* The boards of the guides (struct known_board: board_impl.h), with the
 * strings their device trees carry (boards.def). */
#define BOARD_STRINGS(...) { __VA_ARGS__ }
#define BOARD(key, name, family, compat, model) \
    { key, name, family, BOARD_STRINGS compat, BOARD_STRINGS model },
#define TI_SOC(compat, family)
static const struct known_board known_boards[] = {
#include "board/boards.def"
};
#undef BOARD

#define BOARD(key, name, family, compat, model) key,
const char *const board_known_keys[] = {
#include "board/boards.def"
    NULL,
};
#undef BOARD
#undef TI_SOC

/* TI SoC compatibles and the soc0 family k3-socinfo reports for them. */
struct ti_soc {
    const char *compat;
    const char *family;
};

#define BOARD(key, name, family, compat, model)
#define TI_SOC(compat, family) { compat, family },
static const struct ti_soc ti_socs[] = {
#include "board/boards.def"
};
#undef BOARD
#undef TI_SOC
#undef BOARD_STRINGS

/* Part numbers of CPU implementer 0x41 (Arm). */
static const struct {
    unsigned part;
    const char *name;
} arm_parts[] = {
    { 0xb76, "ARM1176" },      { 0xc07, "Cortex-A7" },
    { 0xc08, "Cortex-A8" },    { 0xc09, "Cortex-A9" },
    { 0xc0d, "Cortex-A12" },   { 0xc0e, "Cortex-A17" },
    { 0xc0f, "Cortex-A15" },   { 0xc14, "Cortex-R4" },
    { 0xc15, "Cortex-R5" },    { 0xd01, "Cortex-A32" },
    { 0xd02, "Cortex-A34" },   { 0xd03, "Cortex-A53" },
    { 0xd04, "Cortex-A35" },   { 0xd05, "Cortex-A55" },
    { 0xd06, "Cortex-A65" },   { 0xd07, "Cortex-A57" },
    { 0xd08, "Cortex-A72" },   { 0xd09, "Cortex-A73" },
    { 0xd0a, "Cortex-A75" },   { 0xd0b, "Cortex-A76" },
    { 0xd0c, "Neoverse-N1" },  { 0xd0d, "Cortex-A77" },
    { 0xd0e, "Cortex-A76AE" }, { 0xd40, "Neoverse-V1" },
    { 0xd41, "Cortex-A78" },   { 0xd42, "Cortex-A78AE" },
    { 0xd44, "Cortex-X1" },    { 0xd46, "Cortex-A510" },
    { 0xd47, "Cortex-A710" },  { 0xd48, "Cortex-X2" },
    { 0xd49, "Neoverse-N2" },  { 0xd4a, "Neoverse-E1" },
    { 0xd4b, "Cortex-A78C" },  { 0xd4d, "Cortex-A715" },
    { 0xd4e, "Cortex-X3" },    { 0xd4f, "Neoverse-V2" },
    { 0xd80, "Cortex-A520" },  { 0xd81, "Cortex-A720" },
    { 0xd82, "Cortex-X4" },
};

/* What the device tree and soc0 say, independent of how it is shown. */
struct verdict {
    enum board_kind kind;
    const struct known_board *kb;
    bool by_model;              /* matched on the model, not compatible */
    const char *matched;        /* the string that matched */
    const char *family;         /* soc0 family, or derived from compatible */
    const char *family_from;    /* NULL = soc0, else the SoC compatible */
};

/* --- reading --------------------------------------------------------- */

/* Replaces control and non-ASCII bytes so the text is printable and valid
 * UTF-8 for JSON; trims. Returns NULL (and frees) when nothing is left. */
static char *clean(char *s)
{
    if (!s)
        return NULL;
    for (unsigned char *p = (unsigned char *)s; *p; p++) {
        if (*p == '\t')
            *p = ' ';
        else if (*p < 0x20 || *p > 0x7e)
            *p = '?';
    }
    str_trim(s);
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

static char *clean_n(const char *s, size_t n)
{
    return clean(xstrndup(s, strnlen(s, n)));
}

/* A clock value worth keeping: junk such as "inf" or "nan" is not. */
static bool sane_clock(double x)
{
    return isfinite(x) && x > 0;
}

/* First line of a sysfs/procfs file, cleaned; NULL when absent or empty. */
static char *read_value(const char *root, const char *rel)
{
    char *path = path_join(root, rel);
    char *s = read_line_file(path);
    free(path);
    return clean(s);
}

static double read_khz_as_mhz(const char *root, const char *rel)
{
    char *s = read_value(root, rel);
    if (!s)
        return 0;
    char *end;
    double khz = strtod(s, &end);
    bool ok = end != s && sane_clock(khz);
    free(s);
    return ok ? khz / 1000.0 : 0;
}

/* A device-tree property: /proc/device-tree is a link to the firmware tree,
 * either may be missing in a container or a fixture. */
static char *read_dt_prop(const char *root, const char *name, size_t *len)
{
    static const char *const bases[] = {
        "proc/device-tree", "sys/firmware/devicetree/base",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
        char *rel = path_join(bases[i], name);
        char *path = path_join(root, rel);
        char *buf = read_file(path, PROP_MAX, len);
        free(path);
        free(rel);
        if (buf)
            return buf;
    }
    return NULL;
}

static void read_device_tree(struct board_info *b, const char *root)
{
    size_t len;
    char *buf = read_dt_prop(root, "model", &len);
    if (buf) {
        b->model = clean_n(buf, len);
        free(buf);
    }
    buf = read_dt_prop(root, "compatible", &len);
    if (!buf)
        return;
    /* NUL-separated; tolerate a missing final NUL and empty entries */
    size_t cap = 0;
    for (size_t off = 0; off < len && b->ncompatible < COMPAT_MAX;) {
        size_t n = strnlen(buf + off, len - off);
        char *s = n ? clean_n(buf + off, n) : NULL;
        if (s) {
            xgrow(&b->compatible, &cap, b->ncompatible + 1, sizeof(char *));
            b->compatible[b->ncompatible++] = s;
        }
        off += n + 1;
    }
    free(buf);
}

const char *board_arm_part_name(unsigned part)
{
    for (size_t i = 0; i < ARRAY_SIZE(arm_parts); i++)
        if (arm_parts[i].part == part)
            return arm_parts[i].name;
    return NULL;
}

char *board_join_distinct(const char *const *items, size_t n, const char *sep)
{
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        bool seen = !items[i];
        for (size_t j = 0; j < i && !seen; j++)
            seen = items[j] && strcmp(items[j], items[i]) == 0;
        if (seen)
            continue;
        if (sb.len)
            sb_add(&sb, sep);
        sb_add(&sb, items[i]);
    }
    if (!sb.len) {
        sb_free(&sb);
        return NULL;
    }
    return sb_steal(&sb);
}

static void read_cpuinfo(struct board_info *b, const char *root)
{
    char *path = path_join(root, "proc/cpuinfo");
    char *text = read_file(path, CPUINFO_MAX, NULL);
    free(path);
    if (!text)
        return;

    const char *parts[PARTS_MAX] = { NULL }, *names[PARTS_MAX] = { NULL };
    size_t nparts = 0;
    unsigned long implementer = 0x41;   /* Arm, unless cpuinfo says else */
    const char *model_name = NULL;
    double cpuinfo_mhz = 0;

    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *key = str_trim(line), *val = str_trim(colon + 1);
        if (strcmp(key, "processor") == 0) {
            b->cores++;
        } else if (strcmp(key, "CPU implementer") == 0) {
            implementer = strtoul(val, NULL, 0);
        } else if (strcmp(key, "CPU part") == 0 && *val) {
            bool seen = false;
            for (size_t i = 0; i < nparts && !seen; i++)
                seen = strcasecmp(parts[i], val) == 0;
            if (!seen && nparts < PARTS_MAX) {
                unsigned part = (unsigned)strtoul(val, NULL, 0);
                parts[nparts] = val;
                names[nparts] = implementer == 0x41 ? board_arm_part_name(part) : NULL;
                nparts++;
            }
        } else if (strcmp(key, "model name") == 0 && !model_name && *val) {
            model_name = val;
        } else if (strcmp(key, "cpu MHz") == 0 && !sane_clock(cpuinfo_mhz)) {
            cpuinfo_mhz = strtod(val, NULL);
        }
    }

    b->cpu_part = clean(board_join_distinct(parts, nparts, ","));
    b->cpu_name = clean(board_join_distinct(names, nparts, " + "));
    if (!b->cpu_name && model_name)
        b->cpu_name = clean(xstrdup(model_name));
    if (sane_clock(cpuinfo_mhz)) {
        b->cpu_mhz = cpuinfo_mhz;
        b->cpu_mhz_from = "/proc/cpuinfo \"cpu MHz\"";
    }
    free(text);
}

static void read_cpufreq(struct board_info *b, const char *root)
{
    static const char *const dirs[] = {
        "sys/devices/system/cpu/cpu0/cpufreq",
        "sys/devices/system/cpu/cpufreq/policy0",
    };
    for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
        char *cur = path_join(dirs[i], "scaling_cur_freq");
        char *max = path_join(dirs[i], "cpuinfo_max_freq");
        char *gov = path_join(dirs[i], "scaling_governor");
        double mhz = read_khz_as_mhz(root, cur);
        double max_mhz = read_khz_as_mhz(root, max);
        char *governor = read_value(root, gov);
        free(cur);
        free(max);
        free(gov);
        if (mhz > 0 || max_mhz > 0 || governor) {
            b->cpufreq = true;
            if (mhz > 0) {          /* cpufreq beats cpuinfo "cpu MHz" */
                b->cpu_mhz = mhz;
                b->cpu_mhz_from = "cpufreq current";
            }
            b->cpu_max_mhz = max_mhz;
            b->governor = governor;
            return;
        }
    }
}

static void read_meminfo(struct board_info *b, const char *root)
{
    char *path = path_join(root, "proc/meminfo");
    char *text = read_file(path, 1u << 16, NULL);
    free(path);
    if (!text)
        return;
    for (char *line = text; line && *line;) {
        if (str_starts_with(line, "MemTotal:")) {
            long long kb = strtoll(line + 9, NULL, 10);
            if (kb > 0)
                b->mem_mb = (long)(kb / 1024);
            break;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    free(text);
}

/* cpu0's data and unified caches from sysfs, summed; instruction caches
 * do not hold STREAM's arrays. */
static void read_caches(struct board_info *b, const char *root)
{
    struct strbuf sb;
    sb_init(&sb);
    size_t sum = 0;
    for (int i = 0; i < CACHE_INDEX_MAX; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        char *level = read_value(root, rel);
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        char *type = read_value(root, rel);
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        char *size = read_value(root, rel);
        size_t bytes = soc_size_parse(size);
        bool data = type && (strcmp(type, "Data") == 0 || strcmp(type, "Unified") == 0);
        if (data && level && bytes && bytes <= SIZE_MAX - sum) {
            sum += bytes;
            sb_addf(&sb, "%sL%s%s %s", sb.len ? " + " : "sysfs: ", level,
                    strcmp(type, "Data") == 0 ? "d" : "", size);
        }
        free(level);
        free(type);
        free(size);
    }
    if (sum) {
        b->cache_bytes = sum;
        b->cache_from = sb_steal(&sb);
    }
    sb_free(&sb);
}

static bool is_real_root(const char *sysroot)
{
    return !sysroot || sysroot[strspn(sysroot, "/")] == '\0';
}

static void read_kernel(struct board_info *b, const char *root, bool real)
{
    b->kernel = read_value(root, "proc/sys/kernel/osrelease");
    struct utsname u;
    if (!b->kernel && real && uname(&u) == 0)
        b->kernel = clean(xstrdup(u.release));
}

/* DMI names a PC the way the model names a device-tree board. */
static char *read_dmi_name(const char *root)
{
    char *vendor = read_value(root, "sys/class/dmi/id/sys_vendor");
    char *product = read_value(root, "sys/class/dmi/id/product_name");
    static const char *const filler[] = {
        "O.E.M.", "Default string", "System manufacturer",
        "System Product Name", "Not Specified",
    };
    for (size_t i = 0; i < ARRAY_SIZE(filler); i++) {
        if (vendor && strstr(vendor, filler[i])) {
            free(vendor);
            vendor = NULL;
        }
        if (product && strstr(product, filler[i])) {
            free(product);
            product = NULL;
        }
    }
    char *name;
    if (vendor && product && !str_starts_with(product, vendor))
        name = xasprintf("%s %s", vendor, product);
    else
        name = product ? xstrdup(product) : vendor ? xstrdup(vendor) : NULL;
    free(vendor);
    free(product);
    return name;
}

/* --- deciding -------------------------------------------------------- */

static const char *ti_soc_family(const char *compat)
{
    for (size_t i = 0; i < ARRAY_SIZE(ti_socs); i++)
        if (strcmp(ti_socs[i].compat, compat) == 0)
            return ti_socs[i].family;
    return NULL;
}

static bool is_ti_family(const char *family)
{
    for (size_t i = 0; i < ARRAY_SIZE(ti_socs); i++)
        if (strcasecmp(ti_socs[i].family, family) == 0)
            return true;
    return false;
}

static void classify(const struct board_info *b, struct verdict *v)
{
    memset(v, 0, sizeof(*v));
    /* compatible, most specific first, is the primary rule */
    for (size_t i = 0; i < b->ncompatible && !v->kb; i++)
        for (size_t k = 0; k < ARRAY_SIZE(known_boards) && !v->kb; k++)
            for (size_t c = 0; c < ARRAY_SIZE(known_boards[k].compat); c++) {
                const char *s = known_boards[k].compat[c];
                if (s && strcmp(s, b->compatible[i]) == 0) {
                    v->kb = &known_boards[k];
                    v->matched = b->compatible[i];
                    break;
                }
            }
    for (size_t k = 0; k < ARRAY_SIZE(known_boards) && !v->kb && b->model; k++)
        for (size_t m = 0; m < ARRAY_SIZE(known_boards[k].model); m++) {
            const char *s = known_boards[k].model[m];
            if (s && strcasecmp(s, b->model) == 0) {
                v->kb = &known_boards[k];
                v->matched = b->model;
                v->by_model = true;
                break;
            }
        }

    v->family = b->family;
    for (size_t i = 0; i < b->ncompatible && !v->family; i++)
        if ((v->family = ti_soc_family(b->compatible[i])))
            v->family_from = b->compatible[i];

    bool ti = v->family && is_ti_family(v->family);
    for (size_t i = 0; i < b->ncompatible && !ti; i++)
        ti = str_starts_with(b->compatible[i], "ti,");

    if (v->kb)
        v->kind = BOARD_KNOWN;
    else if (ti)
        v->kind = BOARD_TI_UNKNOWN;
    else if (b->model || b->ncompatible)
        v->kind = BOARD_OTHER_DT;
    else
        v->kind = BOARD_NO_DT;
}

/* "am62xx_sk-fs, am62xx_lp_sk-fs or am62xxsip_sk-fs", NULL when none. */
static char *keys_of_family(const char *family)
{
    const char *keys[ARRAY_SIZE(known_boards)];
    size_t n = 0;
    for (size_t k = 0; k < ARRAY_SIZE(known_boards); k++)
        if (family && strcasecmp(known_boards[k].family, family) == 0)
            keys[n++] = known_boards[k].key;
    if (!n)
        return NULL;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_add(&sb, i + 1 == n ? " or " : ", ");
        sb_add(&sb, keys[i]);
    }
    return sb_steal(&sb);
}

static char *describe_ti_unknown(const struct board_info *b,
                                 const struct verdict *v)
{
    struct strbuf sb;
    sb_init(&sb);
    if (v->family && v->family_from)
        sb_addf(&sb, "TI %s SoC (compatible \"%s\")", v->family, v->family_from);
    else if (v->family)
        sb_addf(&sb, "TI %s SoC (soc0 family)", v->family);
    else
        sb_add(&sb, "TI SoC of an unknown family");
    if (b->model)
        sb_addf(&sb, " on \"%s\"", b->model);
    else if (b->ncompatible)
        sb_addf(&sb, " on \"%s\"", b->compatible[0]);
    sb_add(&sb, ", a board without guide numbers; ");
    char *keys = keys_of_family(v->family);
    if (keys)
        sb_addf(&sb, "for the guide's %s boards choose --board %s",
                v->family, keys);
    else if (v->family)
        sb_addf(&sb, "no guide board uses the %s family, choose one with "
                "--board KEY", v->family);
    else
        sb_add(&sb, "choose a reference with --board KEY");
    free(keys);
    return sb_steal(&sb);
}

static char *describe(const struct board_info *b, const struct verdict *v)
{
    switch (v->kind) {
    case BOARD_KNOWN:
        if (v->by_model)
            return xasprintf("no device-tree compatible string is known, but "
                             "the model \"%s\" matches %s (%s)",
                             v->matched, v->kb->key, v->kb->name);
        return xasprintf("device-tree compatible \"%s\" matches %s (%s)",
                         v->matched, v->kb->key, v->kb->name);
    case BOARD_TI_UNKNOWN:
        return describe_ti_unknown(b, v);
    case BOARD_OTHER_DT:
        return xasprintf("device tree of a non-TI board (%s%s%s), no guide "
                         "reference applies; choose one with --board KEY",
                         b->model ? "\"" : "compatible \"",
                         b->model ? b->model : b->compatible[0], "\"");
    case BOARD_NO_DT:
    case BOARD_OVERRIDE:
        break;
    }
    return xstrdup("no device tree: a PC or virtual machine, no guide "
                   "reference applies; choose one with --board KEY");
}

/* What detection found, in a few words, for the override sentence. */
static char *detected_summary(const struct board_info *b)
{
    struct verdict v;
    classify(b, &v);
    switch (v.kind) {
    case BOARD_KNOWN:
        return xasprintf("detected: %s, %s", v.kb->key, v.kb->name);
    case BOARD_TI_UNKNOWN:
        return v.family
            ? xasprintf("detected: TI %s board without guide numbers", v.family)
            : xstrdup("detected: TI board without guide numbers");
    case BOARD_OTHER_DT:
        return b->model ? xasprintf("detected: non-TI board \"%s\"", b->model)
                        : xstrdup("detected: non-TI device tree");
    case BOARD_NO_DT:
    case BOARD_OVERRIDE:
        break;
    }
    return xstrdup("detected: no device tree");
}

/* --- API ------------------------------------------------------------- */

void board_detect(struct board_info *b, const char *sysroot)
{
    bool real = is_real_root(sysroot);
    const char *root = real ? "" : sysroot;   /* path_join("", x) = "/x" */

    memset(b, 0, sizeof(*b));
    read_device_tree(b, root);
    b->family = read_value(root, "sys/devices/soc0/family");
    b->family_from_soc0 = b->family != NULL;
    b->machine = read_value(root, "sys/devices/soc0/machine");
    b->revision = read_value(root, "sys/devices/soc0/revision");
    char *soc0 = path_join(root, "sys/devices/soc0");
    b->soc0 = access(soc0, F_OK) == 0;
    free(soc0);
    read_cpuinfo(b, root);
    read_cpufreq(b, root);
    read_meminfo(b, root);
    read_caches(b, root);
    read_kernel(b, root, real);

    struct verdict v;
    classify(b, &v);
    b->kind = v.kind;
    b->how = describe(b, &v);
    if (!b->family && v.family)
        b->family = xstrdup(v.family);
    switch (v.kind) {
    case BOARD_KNOWN:
        b->key = xstrdup(v.kb->key);
        b->name = xstrdup(v.kb->name);
        break;
    case BOARD_TI_UNKNOWN:
        b->name = b->model ? xstrdup(b->model)
                : v.family ? xasprintf("TI %s board", v.family) : NULL;
        break;
    case BOARD_OTHER_DT:
        b->name = b->model ? xstrdup(b->model) : NULL;
        break;
    case BOARD_NO_DT:
    case BOARD_OVERRIDE:
        b->name = read_dmi_name(root);
        break;
    }
}

void board_override(struct board_info *b, const char *key)
{
    if (!key || !*key)
        return;
    char *found = detected_summary(b);
    char *how = xasprintf("chosen with --board %s (%s)", key, found);
    const char *name = board_key_name(key);
    free(found);
    free(b->key);
    free(b->name);
    free(b->how);
    b->kind = BOARD_OVERRIDE;
    b->key = xstrdup(key);
    b->name = xstrdup(name ? name : key);
    b->how = how;
}

void board_cache_from_facts(struct board_info *b, const struct soc_facts *f)
{
    const struct soc_fact *s = soc_facts_find(f, b->family);
    if (b->cache_bytes || !s || !s->cache_bytes)
        return;
    char text[64];
    soc_fact_caches_text(s, text, sizeof text);
    b->cache_bytes = s->cache_bytes;
    free(b->cache_from);
    b->cache_from = xasprintf("%s facts in soc/cpu.json: %s", s->family, text);
}

void board_free(struct board_info *b)
{
    free(b->key);
    free(b->name);
    free(b->model);
    for (size_t i = 0; i < b->ncompatible; i++)
        free(b->compatible[i]);
    free(b->compatible);
    free(b->family);
    free(b->machine);
    free(b->revision);
    free(b->cpu_part);
    free(b->cpu_name);
    free(b->governor);
    free(b->kernel);
    free(b->how);
    free(b->cache_from);
    memset(b, 0, sizeof(*b));
}

const char *board_key_name(const char *key)
{
    for (size_t k = 0; key && k < ARRAY_SIZE(known_boards); k++)
        if (strcmp(known_boards[k].key, key) == 0)
            return known_boards[k].name;
    return NULL;
}

const char *board_kind_name(enum board_kind kind)
{
    switch (kind) {
    case BOARD_KNOWN:      return "known";
    case BOARD_TI_UNKNOWN: return "ti_unknown";
    case BOARD_OTHER_DT:   return "other_dt";
    case BOARD_NO_DT:      return "no_dt";
    case BOARD_OVERRIDE:   return "override";
    }
    return "unknown";
}

const struct known_board *board_known_of(const char *key)
{
    for (size_t k = 0; key && k < ARRAY_SIZE(known_boards); k++)
        if (strcmp(known_boards[k].key, key) == 0)
            return &known_boards[k];
    return NULL;
}

double board_clock(const struct board_info *b, const char *sysroot, double seconds,
                   const char **from)
{
    return board_clock_of(b, is_real_root(sysroot) ? cpuclock_measure(-1, seconds) : 0, from);
}

double board_clock_of(const struct board_info *b, double measured_mhz, const char **from)
{
    if (measured_mhz > 0) {
        *from = "measured";
        return measured_mhz;
    }
    if (b->cpu_max_mhz > 0) {
        *from = "cpufreq maximum";
        return b->cpu_max_mhz;
    }
    *from = "reported";        /* scaling_cur_freq or cpuinfo "cpu MHz" */
    return b->cpu_mhz;
}
