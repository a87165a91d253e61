/* datadir.h - where the shipped data (reference numbers, tool recipes,
 * profiles, themes) lives, and one way to list and read it.
 *
 * The folders "refs", "tools", "profiles", "soc" and "themes" are looked for, in
 * order: under $EVMBENCH_DATADIR; in the source tree when the program runs
 * from its build tree (tests, `./evmbench` after make); under
 * $(pkgdatadir) when installed; when none of these has the folder and the
 * program embeds its data (embedded.h, --enable-embedded-data), in the
 * table compiled into the program.
 *
 * The loaders get their files through struct data_dir, which reads a
 * directory on disk and the embedded table the same way: list the names,
 * read one name into memory. Built-in data is read from memory; nothing is
 * written to read it, so no writable directory is needed. */
#ifndef EVMBENCH_DATADIR_H
#define EVMBENCH_DATADIR_H

#include <stddef.h>
#include <sys/types.h>

#include "data/embedded.h"

/* Path of a data folder ("refs", "themes") on disk, found as above but
 * without the built-in table: the installed path when no directory has it.
 * Caller frees. */
char *datadir_path(const char *sub);

/* A folder of data files: a directory, or one folder of an embedded table.
 * Contract:
 *   - Names are plain file names (no '/'); data_dir_list gives them in
 *     strcmp order without dot files, whichever the source.
 *   - data_dir_read gives a file's bytes, NUL-terminated, or NULL with
 *     errno: ENOENT (no such name), EFBIG (larger than limit) or the error
 *     reading it. The same name reads the same bytes from a directory and
 *     from a table made from that directory.
 *   - label names the folder in messages: the directory's path, or
 *     "built-in:refs" for the table; data_dir_file_label adds "/NAME".
 *   - Opening never fails: a directory that cannot be read is reported by
 *     data_dir_list (-1 and errno) or data_dir_read. */
struct data_dir {
    char *label;                        /* path, or "built-in:SUB" */
    char *path;                         /* the directory; NULL for a table */
    const struct embedded_file *table;  /* the table when path is NULL */
    size_t ntable;
    char *prefix;                       /* "SUB/": the table's folder */
};

/* The folder sub as the search above finds it (the built-in table last). */
void data_dir_default(struct data_dir *d, const char *sub);
/* A directory on disk. */
void data_dir_at(struct data_dir *d, const char *path);
/* Folder sub of the table files[0..n) (tests build their own tables). */
void data_dir_table(struct data_dir *d, const struct embedded_file *files, size_t n,
                    const char *sub);
/* True when d reads from a table, not from a directory. */
#define data_dir_builtin(d) ((d)->path == NULL)
void data_dir_free(struct data_dir *d);

/* The names in d ending with suffix (".json"; "" for all), sorted.
 * *names is allocated (free each name and the array); the count, or -1
 * with errno when the directory cannot be read (*names NULL). */
ssize_t data_dir_list(const struct data_dir *d, const char *suffix, char ***names);
/* The contents of name in d, at most limit bytes (0: 64 MiB); *len (may
 * be NULL) gets the size. Caller frees. */
char *data_dir_read(const struct data_dir *d, const char *name, size_t limit, size_t *len);
/* "LABEL/NAME", what messages call the file. Caller frees. */
char *data_dir_file_label(const struct data_dir *d, const char *name);

/* A profile or theme given as a name ("quick") or a path (anything with a
 * '/'): a path is read from disk, a name is NAME+suffix in folder sub.
 * *label always gets what messages call the file (caller frees); returns
 * the contents as data_dir_read does. */
char *data_read_named(const char *sub, const char *name_or_path, const char *suffix,
                      size_t limit, size_t *len, char **label);

#endif
