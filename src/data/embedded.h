/* embedded.h - data files compiled into the program (--enable-static-binary).
 *
 * A static binary copied alone onto a board has no data directory and often
 * no terminfo database. The build embeds the shipped data (refs, tools,
 * profiles, themes) and compiled terminfo entries for the usual serial and
 * emulator terminals.
 *
 * The data are read straight from this table (struct data_dir in
 * datadir.h): `list`, `refs`, `run` and `sysinfo` write nothing and need
 * no writable directory. Only ncurses reads terminfo from a directory:
 * before the screens start, and only when the installed database lacks
 * $TERM, the one entry for $TERM is written into a private directory
 * (the first of $TMPDIR, /tmp, /dev/shm, /run/user/UID that takes it),
 * which the process that made it removes when it exits. */
#ifndef EVMBENCH_EMBEDDED_H
#define EVMBENCH_EMBEDDED_H

#include <stdbool.h>
#include <stddef.h>

struct embedded_file {
    const char *path;           /* relative, '/'-separated: "refs/am62x.json" */
    const unsigned char *data;
    size_t size;
};

/* The build's table (generated src/embedded_data.c); empty without
 * --enable-embedded-data. The array ends with a { NULL } entry. */
extern const struct embedded_file embedded_files[];
extern const size_t embedded_nfiles;

/* Writes the n files into a new directory "evmbench-XXXXXX" under base,
 * mode 0700, creating the subdirectories the paths name. Returns the
 * directory (caller frees) or NULL with *err (caller frees) set; on failure
 * nothing is left behind. Paths with "..", empty or absolute components
 * are refused. */
char *embedded_extract(const char *base, const struct embedded_file *files, size_t n,
                       char **err);

/* embedded_extract into the first of bases[0..nbases) that takes the
 * files. When none does, NULL and *err has one line per base: what failed
 * there and why ("/tmp/evmbench-x3Fq1a: cannot create a directory:
 * Read-only file system"), lines joined by '\n'. */
char *embedded_extract_first(const char *const *bases, size_t nbases,
                             const struct embedded_file *files, size_t n, char **err);

/* The directories a private temporary directory may go into, in the order
 * tried: $TMPDIR (when set and not empty), /tmp, /dev/shm, /run/user/UID.
 * Fills out[] (room for 4; the caller frees each) and returns the count. */
size_t embedded_temp_bases(char *out[4]);

/* Removes what embedded_extract(files, n) created under root, and root. */
void embedded_remove(const char *root, const struct embedded_file *files, size_t n);

/* True when ncurses finds term's entry where it looks now (TERMINFO,
 * TERMINFO_DIRS, ~/.terminfo, the installed database). */
bool terminfo_found(const char *term);

/* True when the build embeds a compiled terminfo entry named term. */
bool embedded_has_terminfo(const char *term);

enum terminfo_setup {
    TERMINFO_INSTALLED,     /* ncurses finds term's entry: nothing was done */
    TERMINFO_EMBEDDED,      /* the built-in entry was written out and added to
                             * TERMINFO_DIRS (after the directories listed there) */
    TERMINFO_MISSING,       /* neither the system nor the program has the entry */
    TERMINFO_UNWRITABLE,    /* the program has it but no directory took it: *err */
};

/* Before curses starts: makes term's terminfo entry findable when the
 * installed database lacks it and the build embeds it. The directory is
 * removed at exit by this process (not by forked children). With
 * TERMINFO_UNWRITABLE, *err (caller frees) says which directories were
 * tried and why each failed; otherwise *err is NULL. */
enum terminfo_setup embedded_terminfo_setup(const char *term, char **err);

#endif
