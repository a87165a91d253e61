/* embedded.c - the built-in files: unpacks them into memory, and writes
 * some out to a private temporary directory (the data files are read from
 * memory, datadir.c; the screens write a terminfo entry this way,
 * screens/terminfo.c). */
#include "config.h"
#include "data/embedded.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/gunzip.h"
#include "common/util.h"

struct embedded_file *embedded_unpack(const struct embedded_pack *p, size_t *n,
                                      const char **why)
{
    size_t sum = 0;
    for (size_t i = 0; i < p->n; i++)
        sum += p->sizes[i];
    if (sum != p->total) {
        *why = "the file sizes do not add up to the packed length";
        return NULL;
    }
    /* the table, then the files' bytes, one after the other */
    size_t table = (p->n + 1) * sizeof(struct embedded_file);
    struct embedded_file *files = xmalloc(table + p->total);
    unsigned char *bytes = (unsigned char *)files + table;
    if (p->n && !gunzip(p->gz, p->gz_size, bytes, p->total, why)) {
        free(files);
        return NULL;
    }
    for (size_t i = 0; i < p->n; i++) {
        files[i] = (struct embedded_file){ p->paths[i], bytes, p->sizes[i] };
        bytes += p->sizes[i];
    }
    files[p->n] = (struct embedded_file){ 0 };
    *n = p->n;
    return files;
}

const struct embedded_file *embedded_builtin(size_t *n)
{
    static struct embedded_file *files;
    static size_t count;
    if (!files && embedded_pack.n) {
        const char *why = NULL;
        files = embedded_unpack(&embedded_pack, &count, &why);
        if (!files)
            die("the built-in data are damaged (%s): copy the program file again", why);
    }
    *n = count;
    return files;
}

/* A relative path of plain components: no "", ".", ".." or leading '/'. */
static bool safe_path(const char *p)
{
    if (!p || !*p || *p == '/')
        return false;
    for (const char *s = p; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += n;
        if (*s == '/')
            s++;
        if (e && !*s)
            return false;           /* trailing '/' */
    }
    return true;
}

/* Creates the directories between root and the file's last component. */
static bool make_parents(const char *root, const char *rel)
{
    char *path = path_join(root, rel);
    size_t skip = strlen(root) + 1;
    bool ok = true;
    for (char *s = path + skip; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            ok = false;
        *s = '/';
        if (!ok)
            break;
    }
    free(path);
    return ok;
}

void embedded_remove(const char *root, const struct embedded_file *files, size_t n)
{
    if (!root)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!safe_path(files[i].path))
            continue;
        char *p = path_join(root, files[i].path);
        unlink(p);
        /* the file's directories, deepest first; the ones still holding
         * other files stay until their last file goes */
        char *slash;
        while ((slash = strrchr(p, '/')) != NULL && (size_t)(slash - p) > strlen(root)) {
            *slash = '\0';
            if (rmdir(p) != 0)
                break;
        }
        free(p);
    }
    rmdir(root);
}

char *embedded_extract(const char *base, const struct embedded_file *files, size_t n,
                       struct diag *d)
{
    char *root = path_join(base, "evmbench-XXXXXX");
    if (!mkdtemp(root)) {
        diag_add(d, "%s: cannot create a directory: %s", root, strerror(errno));
        free(root);
        return NULL;
    }
    bool failed = false;
    for (size_t i = 0; i < n && !failed; i++) {
        if (!safe_path(files[i].path)) {
            diag_add(d, "embedded file name '%s' is not a relative path",
                     files[i].path ? files[i].path : "(null)");
            failed = true;
            continue;
        }
        char *p = path_join(root, files[i].path);
        int fd = -1;
        if (make_parents(root, files[i].path))
            fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        bool ok = fd >= 0 && write_all(fd, files[i].data, files[i].size);
        int saved = errno;
        if (fd >= 0 && close(fd) != 0 && ok) {
            ok = false;
            saved = errno;
        }
        if (!ok) {
            diag_add(d, "%s: cannot write: %s", p, strerror(saved));
            failed = true;
        }
        free(p);
    }
    if (failed) {
        embedded_remove(root, files, n);
        free(root);
        return NULL;
    }
    return root;
}

char *embedded_extract_first(const char *const *bases, size_t nbases,
                             const struct embedded_file *files, size_t n, struct diag *d)
{
    struct diag tried;
    diag_init(&tried);
    for (size_t i = 0; i < nbases; i++) {
        char *root = embedded_extract(bases[i], files, n, &tried);
        if (root) {
            diag_free(&tried);
            return root;
        }
    }
    if (!nbases)
        diag_add(&tried, "no directory to try");
    for (size_t i = 0; i < tried.n; i++)
        diag_add(d, "%s", tried.msgs[i]);
    diag_free(&tried);
    return NULL;
}

size_t embedded_temp_bases(char *out[4])
{
    size_t n = 0;
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp)
        out[n++] = xstrdup(tmp);
    out[n++] = xstrdup("/tmp");
    out[n++] = xstrdup("/dev/shm");
    out[n++] = xasprintf("/run/user/%lu", (unsigned long)getuid());
    return n;
}
