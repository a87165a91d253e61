/* guide_re.c - the importer's patterns, compiled once, matched by id. */
#include "config.h"
#include "guide/guide_impl.h"

#include <stdint.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/util.h"

static const char *const re_src[RE_COUNT] = {
    [RE_HEADING_NUM] = "^(\\d+(?:\\.\\d+)+)\\.\\s+(\\S.*?)\\s*(¶)?\\s*$",
    [RE_CAPTION_BEFORE] = "^Table\\s+\\d+(?:\\.\\d+)*\\.?\\s+(\\S.*?)\\s*$",
    [RE_CAPTION_AFTER] = "^Table:\\s*(.*?)\\s*$",
    [RE_BOARD_CELL] = "^([a-z0-9]+(?:[_-][a-z0-9]+)+):\\s*(.*?)\\s*$",
    [RE_BOARD_IN_ROW] = "(?:^|\\s)([a-z0-9]+(?:[_-][a-z0-9]+)+):\\s",
    [RE_VALUE] = "^(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*(%?)\\s*"
                 "(?:\\(\\s*min\\s+(-?\\d+(?:\\.\\d+)?)\\s*,\\s*max\\s+(-?\\d+(?:\\.\\d+)?)\\s*\\))?"
                 "\\s*%?$",
    [RE_VALUE_TAIL] = "(?:^|\\s)((?:n/a|N/A|-?\\d+(?:\\.\\d+)?%?)"
                      "(?:\\s*\\(min\\s+-?[\\d.]+,\\s*max\\s+-?[\\d.]+\\))?)\\s*$",
    [RE_NA] = "^(?:n/?a|-+|—|–)$",
    [RE_UNIT_TAIL] = "^(.*?)\\s*\\(([^()]*)\\)\\s*$",
    [RE_NOTE_TAIL] = "^(.*?)\\s*\\((?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{6,})\\)\\s*$",
    [RE_UNIT_IN] = "^(.*?\\S)\\s+in\\s+((?:[kMGT]?i?(?:bytes|bits|B|b)(?:/s(?:ec)?|ps)?|"
                   "[munµ]?s(?:ecs?)?|(?:milli|micro|nano)?seconds?|minutes?|"
                   "[kMG]?Hz|[muµ]?[WVA]|%|percent|fps|MB/s|MiB/s))\\s*(?::.*)?$",
    [RE_COMMAND] = "^\\s*(?:[-•*]\\s+)?((?:time\\s+-v\\s+)?(?:\\./)?"
                   "(?:netperf|netserver|iperf3?|fio|openssl|runltp|stream_c|runDhrystone|"
                   "runWhetstone|lmbench|cyclictest|gst-launch-1\\.0)\\b.*?)\\s*$",
    [RE_CONTINUATION] = "^\\s*(-[A-Za-z]\\s.*?)\\s*$",
    [RE_EXECUTE] = "(?i)^\\s*(?:execute|run)\\b.*\\bwith the following\\s*:\\s*$",
    [RE_BULLET_PAIR] = "^\\s*[-•*]\\s+([^:]{2,40}?)\\s*:\\s+(\\S.*?)\\s*$",
    [RE_TOP_LEVEL] = "(?i)^(?:system benchmarks|boot-time measurement|alsa soc audio|"
                     "sensor capture|display|graphics|multimedia|machine learning|"
                     "ethernet(?: driver)?$|pcie|nand|ospi|qspi|uboot|spi flash|ufs|emmc|"
                     "sata|mmc/sd|mmcsd|usb|crypto|dcan|low power|introduction|"
                     "(?:generic )?setup details|performance numbers)",
    [RE_RST_UNDERLINE] = "^([=\\-~^\"'`#*+:._])\\1{2,}\\s*$",
    [RE_RST_DIRECTIVE] = "^\\.\\.\\s+([A-Za-z][A-Za-z0-9_-]*)::\\s*(.*?)\\s*$",
    [RE_RST_OPTION] = "^\\s+:([A-Za-z-]+):\\s*(.*?)\\s*$",
    [RE_MD_SEPARATOR] = "^\\|?(?:\\s*:?[-—–]{1,}:?\\s*\\|)+\\s*(?::?[-—–]+:?\\s*)?$",
    [RE_SETUP_SECTION] = "(?i)\\b(?:setup|configuration|details)\\b",
    [RE_SIZE_HEADER] = "(?i)\\b(?:size|bytes|frame|buffer|blocks|message)\\b",
    [RE_CLOCK] = "(?i)(\\d+(?:\\.\\d+)?)\\s*(GHz|MHz)",
    [RE_DDR_TYPE] = "\\b(LPDDR\\d+X?|DDR\\d+L?)\\b",
    [RE_DDR_RATE] = "(?i)(\\d+)\\s*MT/s",
};

static pcre2_code *re_code[RE_COUNT];
static pcre2_match_data *re_md;

static void re_init(void)
{
    if (re_md)
        return;
    for (int i = 0; i < RE_COUNT; i++) {
        int err;
        PCRE2_SIZE off;
        re_code[i] = pcre2_compile((PCRE2_SPTR)re_src[i], PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF, &err, &off, NULL);
        if (!re_code[i])
            die("guide_import: bad pattern %d at %zu", i, (size_t)off);
    }
    re_md = pcre2_match_data_create(8, NULL);
}

/* Matches s against pattern id; on success the captures are in re_md. */
bool guide_re_match(enum guide_re_id id, const char *s)
{
    re_init();
    return pcre2_match(re_code[id], (PCRE2_SPTR)s, strlen(s), 0, 0, re_md, NULL) >= 0;
}

/* Matches the len bytes at s, which are valid UTF-8 (not checked again:
 * a long line matched piece by piece would be checked whole each time). */
bool guide_re_match_n(enum guide_re_id id, const char *s, size_t len)
{
    re_init();
    return pcre2_match(re_code[id], (PCRE2_SPTR)s, len, 0, PCRE2_NO_UTF_CHECK, re_md, NULL) >= 0;
}

/* Capture n of the last match as a new string; NULL when it did not take part. */
char *guide_re_group(const char *s, int n)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re_md);
    if ((uint32_t)n >= pcre2_get_ovector_count(re_md) || ov[2 * n] == PCRE2_UNSET)
        return NULL;
    return xstrndup(s + ov[2 * n], ov[2 * n + 1] - ov[2 * n]);
}

size_t guide_re_start(int n)
{
    return pcre2_get_ovector_pointer(re_md)[2 * n];
}
