/* guide_re.h - the regular expressions of the guide importer.
 *
 * Private to the guide_*.c modules. One set of PCRE2 patterns, compiled
 * (with JIT) on the first match and kept for the life of the program; a
 * pattern that does not compile is a programming error and dies. All
 * patterns share one match block: the captures of the last successful
 * guide_re_match() are valid until the next match, so read them first.
 * Not thread-safe. */
#ifndef EVMBENCH_GUIDE_RE_H
#define EVMBENCH_GUIDE_RE_H

#include <stdbool.h>
#include <stddef.h>

enum guide_re_id {
    RE_HEADING_NUM,     /* "2.5.2.3.6. Stream", "2.2. Stream¶" */
    RE_CAPTION_BEFORE,  /* "Table 2.8 Stream Benchmarks" */
    RE_CAPTION_AFTER,   /* "Table: Stream" */
    RE_BOARD_CELL,      /* "am62xx_sk-fs: perf" */
    RE_BOARD_IN_ROW,    /* " j721e-idk-gw: " inside a rows-layout header */
    RE_VALUE,           /* "8869.96 (min 4996.43, max 12743.49)", "38%" */
    RE_VALUE_TAIL,      /* a value at the end of a rows-layout line */
    RE_NA,              /* "n/a", "NA", "-" */
    RE_UNIT_TAIL,       /* "name (unit)" */
    RE_NOTE_TAIL,       /* " (LOCAL_CPU_UTIL)" annotation */
    RE_COMMAND,         /* netperf, fio, openssl ... command lines */
    RE_CONTINUATION,    /* "   -k DIRECTION,..." */
    RE_EXECUTE,         /* "Execute the benchmark with the following:" */
    RE_BULLET_PAIR,     /* "- Boot Media Clock : 166.667 MHz" */
    RE_TOP_LEVEL,       /* well-known top-level section titles */
    RE_RST_UNDERLINE,   /* "=====", "-----" ... */
    RE_RST_DIRECTIVE,   /* ".. csv-table:: Title" */
    RE_RST_OPTION,      /* ":header: ..." */
    RE_MD_SEPARATOR,    /* "|---|:--:|" */
    RE_SETUP_SECTION,   /* "Setup Details", "Configuration Details" */
    RE_SIZE_HEADER,     /* key-like headers of board-less tables */
    RE_CLOCK,           /* "1.4GHz" */
    RE_DDR_TYPE,        /* "LPDDR4" */
    RE_DDR_RATE,        /* "1600 MT/S" */
    RE_COUNT
};

/* Matches s against pattern id; on success the captures can be read with
 * guide_re_group() and guide_re_start(). */
bool guide_re_match(enum guide_re_id id, const char *s);
/* guide_re_match() on the len bytes at s, which must be valid UTF-8
 * starting at a character boundary (the sanitized guide text cut at an
 * ASCII character is): they are not checked again, so matching the pieces
 * of a long line costs their length, not the line's. */
bool guide_re_match_n(enum guide_re_id id, const char *s, size_t len);
/* Capture n of the last match as a new string (the caller frees it); s
 * must be the string last matched. NULL when the capture did not take part. */
char *guide_re_group(const char *s, int n);
/* Offset in the string last matched where capture n starts; only for a
 * capture that took part. */
size_t guide_re_start(int n);

#endif
