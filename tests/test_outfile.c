/* test_outfile.c - writing files (outfile.h): what each kind of path
 * becomes, that the target changes only when everything was written, and
 * that no temporary is left after success, failure, exit or a signal. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "common/outfile.h"
#include "data/settings.h"
#include "store/store.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The file's text ("" when it cannot be read); caller frees. */
static char *slurp(const char *path)
{
    char *s = read_file(path, 1 << 20, NULL);
    return s ? s : xstrdup("");
}

static void assert_text(const char *path, const char *want)
{
    char *s = slurp(path);
    ck_assert_str_eq(s, want);
    free(s);
}

/* Entries of dir other than . and .., as "a b c" in directory order. */
static size_t entries(const char *dir, char *names, size_t len)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    size_t n = 0;
    names[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        size_t used = strlen(names);
        snprintf(names + used, len - used, "%s%s", used ? " " : "", e->d_name);
    }
    closedir(d);
    return n;
}

static void assert_only(const char *dir, size_t want)
{
    char names[1024];
    size_t n = entries(dir, names, sizeof names);
    if (n != want)
        ck_abort_msg("%s holds %zu entries, wanted %zu: %s", dir, n, want, names);
}

/* A new file: its text, the umask's mode, nothing else in the folder,
 * and while it is written nothing at the target, one 0600 temporary. */
START_TEST(new_file)
{
    umask(027);
    char *dir = test_tmpdir("outfile");
    char *path = path_join(dir, "out.txt");
    struct diag d;
    diag_init(&d);
    struct outfile *o = outfile_open(path, &d);
    ck_assert_ptr_nonnull(o);
    fputs("hello\n", outfile_stream(o));
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), -1);
    char names[1024];
    ck_assert_uint_eq(entries(dir, names, sizeof names), 1);
    ck_assert_msg(names[0] == '.' && strstr(names, "out.txt"), "temporary %s", names);
    char *tmp = path_join(dir, names);
    ck_assert_int_eq(lstat(tmp, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(outfile_commit(o, &d), 0);
    assert_text(path, "hello\n");
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0640);
    ck_assert_int_eq(lstat(tmp, &st), -1);
    assert_only(dir, 1);
    free(tmp);
    free(path);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* An existing file is replaced (a new inode) and keeps its mode; a
 * write in progress does not touch it. */
START_TEST(replace_keeps_mode)
{
    umask(022);
    char *dir = test_tmpdir("outfile");
    char *path = path_join(dir, "secret.json");
    put(path, "old\n");
    ck_assert_int_eq(chmod(path, 0600), 0);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    struct diag d;
    diag_init(&d);
    struct outfile *o = outfile_open(path, &d);
    ck_assert_ptr_nonnull(o);
    fputs("new\n", outfile_stream(o));
    ck_assert_int_eq(fflush(outfile_stream(o)), 0);
    assert_text(path, "old\n");
    ck_assert_int_eq(outfile_commit(o, &d), 0);
    assert_text(path, "new\n");
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_uint_eq(after.st_mode & 0777, 0600);
    ck_assert(after.st_ino != before.st_ino);
    assert_only(dir, 1);
    free(path);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* Dropped, or failed (the file-size limit makes writes fail with EFBIG):
 * the old text stays and the temporary is gone; the reason is said. */
START_TEST(failure_keeps_old)
{
    char *dir = test_tmpdir("outfile");
    char *path = path_join(dir, "out.txt");
    put(path, "old\n");
    struct diag d;
    diag_init(&d);
    struct outfile *o = outfile_open(path, &d);
    ck_assert_ptr_nonnull(o);
    fputs("half", outfile_stream(o));
    outfile_abort(o);
    assert_text(path, "old\n");
    assert_only(dir, 1);

    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = { 4096, 4096 };
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
    o = outfile_open(path, &d);
    ck_assert_ptr_nonnull(o);
    for (int i = 0; i < 2000; i++)
        fputs("0123456789\n", outfile_stream(o));
    ck_assert_int_eq(outfile_commit(o, &d), -1);
    ck_assert_int_eq(errno, EFBIG);
    char *want = xasprintf("%s: %s", path, strerror(EFBIG));
    ck_assert_str_eq(diag_last(&d), want);
    free(want);
    assert_text(path, "old\n");
    assert_only(dir, 1);

    /* the same through outfile_write */
    char big[8192];
    memset(big, 'x', sizeof big);
    ck_assert_int_eq(outfile_write(path, big, sizeof big, &d), -1);
    ck_assert_ptr_nonnull(strstr(diag_last(&d), strerror(EFBIG)));
    assert_text(path, "old\n");
    assert_only(dir, 1);
    free(path);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* A link: the file it names is replaced, the link stays; a link to
 * nothing is refused and nothing is created where it points. */
START_TEST(symlinks)
{
    char *dir = test_tmpdir("outfile");
    char *real = path_join(dir, "real.json");
    char *link = path_join(dir, "link.json");
    put(real, "old\n");
    ck_assert_int_eq(symlink("real.json", link), 0);
    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(outfile_write(link, "new\n", 4, &d), 0);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    assert_text(real, "new\n");
    assert_only(dir, 2);

    char *dangling = path_join(dir, "dangling.json");
    char *victim = path_join(dir, "victim.json");
    ck_assert_int_eq(symlink(victim, dangling), 0);
    ck_assert_int_eq(outfile_write(dangling, "x\n", 2, &d), -1);
    char *want = xasprintf("%s: a symbolic link to nothing (%s); not followed", dangling, victim);
    ck_assert_str_eq(diag_last(&d), want);
    ck_assert_int_eq(lstat(victim, &st), -1);
    assert_only(dir, 3);
    free(want);
    free(victim);
    free(dangling);
    free(real);
    free(link);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* A directory, a socket: refused with the path and what it is. */
START_TEST(refused)
{
    char *dir = test_tmpdir("outfile");
    struct diag d;
    diag_init(&d);
    ck_assert_ptr_null(outfile_open(dir, &d));
    ck_assert_int_eq(errno, EISDIR);
    char *want = xasprintf("%s: is a directory; only a regular file, a character device "
                           "or a FIFO is written", dir);
    ck_assert_str_eq(diag_last(&d), want);
    free(want);

    char *sock = path_join(dir, "sock");
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_ptr_null(outfile_open(sock, &d));
    want = xasprintf("%s: is a socket; only a regular file, a character device or a FIFO "
                     "is written", sock);
    ck_assert_str_eq(diag_last(&d), want);
    struct stat st;
    ck_assert_int_eq(lstat(sock, &st), 0);
    ck_assert(S_ISSOCK(st.st_mode));
    assert_only(dir, 1);
    close(fd);
    free(want);
    free(sock);
    ck_assert_ptr_null(outfile_open("", &d));
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* What the target became while it was written (a FIFO here) is not
 * replaced at the end. */
START_TEST(target_changed)
{
    char *dir = test_tmpdir("outfile");
    char *path = path_join(dir, "report.txt");
    struct diag d;
    diag_init(&d);
    struct outfile *o = outfile_open(path, &d);
    ck_assert_ptr_nonnull(o);
    fputs("report\n", outfile_stream(o));
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    ck_assert_int_eq(outfile_commit(o, &d), -1);
    char *want = xasprintf("%s: is no longer a regular file; not replaced", path);
    ck_assert_str_eq(diag_last(&d), want);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    assert_only(dir, 1);
    free(want);
    free(path);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* A FIFO gets the output in place and stays a FIFO. */
START_TEST(fifo_written_in_place)
{
    char *dir = test_tmpdir("outfile");
    char *fifo = path_join(dir, "fifo");
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);     /* a reader, so the open does not wait */
    ck_assert_int_ge(rd, 0);
    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(outfile_write(fifo, "through\n", 8, &d), 0);
    char buf[32] = "";
    ck_assert_int_eq(read(rd, buf, sizeof buf - 1), 8);
    ck_assert_str_eq(buf, "through\n");
    close(rd);
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    assert_only(dir, 1);
    free(fifo);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* Character devices (made here as root: the null and full devices) are
 * written in place and stay devices; a full one is an error that says so. */
START_TEST(char_device)
{
    char *dir = test_tmpdir("outfile");
    char *null = path_join(dir, "null"), *full = path_join(dir, "full");
    if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        mknod(full, S_IFCHR | 0666, makedev(1, 7)) != 0) {
        /* not root: the system's own nodes, which this code never replaces */
        free(null);
        free(full);
        null = xstrdup("/dev/null");
        full = xstrdup("/dev/full");
    }
    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(outfile_write(null, "gone\n", 5, &d), 0);
    struct stat st;
    ck_assert_int_eq(lstat(null, &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    ck_assert_int_eq(outfile_write(full, "no room\n", 8, &d), -1);
    char *want = xasprintf("%s: %s", full, strerror(ENOSPC));
    ck_assert_str_eq(diag_last(&d), want);
    ck_assert_int_eq(lstat(full, &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    free(want);
    free(null);
    free(full);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* /dev/fd/N is the descriptor itself (a pipe here); a pipe nobody reads
 * (SIGPIPE ignored) is an error with the reason, for a stream opened
 * elsewhere too. */
START_TEST(descriptor_and_pipe)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char name[32];
    struct diag d;
    diag_init(&d);
    snprintf(name, sizeof name, "/dev/fd/%d", p[1]);
    ck_assert_int_eq(outfile_write(name, "piped\n", 6, &d), 0);
    char buf[32] = "";
    ck_assert_int_eq(read(p[0], buf, sizeof buf - 1), 6);
    ck_assert_str_eq(buf, "piped\n");

    signal(SIGPIPE, SIG_IGN);
    close(p[0]);
    ck_assert_int_eq(outfile_write(name, "lost\n", 5, &d), -1);
    char *want = xasprintf("%s: %s", name, strerror(EPIPE));
    ck_assert_str_eq(diag_last(&d), want);
    free(want);

    FILE *f = fdopen(p[1], "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(outfile_check_stream(f, "standard output", &d), 0);
    fputs("lost too\n", f);
    ck_assert_int_eq(outfile_check_stream(f, "standard output", &d), -1);
    want = xasprintf("standard output: %s", strerror(EPIPE));
    ck_assert_str_eq(diag_last(&d), want);
    free(want);
    fclose(f);
    diag_free(&d);
}
END_TEST

/* A signal that ends the program in the middle of a write, or exit():
 * the target keeps its old text and no temporary is left. */
static void die_while_writing(const char *path, int sig)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        signal(sig, SIG_DFL);
        struct outfile *o = outfile_open(path, NULL);
        if (!o)
            _exit(99);
        for (int i = 0; i < 1000; i++)
            fputs("partial report line\n", outfile_stream(o));
        fflush(outfile_stream(o));
        if (sig)
            raise(sig);
        else
            exit(0);
        _exit(98);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    if (sig) {
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sig,
                      "wanted death by signal %d, status 0x%x", sig, status);
    } else {
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
}

START_TEST(signal_removes_temporary)
{
    char *dir = test_tmpdir("outfile");
    char *path = path_join(dir, "report.txt");
    put(path, "old report\n");
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, 0 };
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
        die_while_writing(path, sigs[i]);
        assert_text(path, "old report\n");
        assert_only(dir, 1);
    }
    free(path);
    test_rmtree(dir);
    free(dir);
}
END_TEST

/* Baselines and settings go through the same code: a directory in the
 * way is refused and left alone; a link is kept, its file replaced. */
START_TEST(baseline_and_settings)
{
    char *dir = test_tmpdir("outfile");
    char *bdir = path_join(dir, "baselines");
    ck_assert_int_eq(mkdir(bdir, 0755), 0);
    char *in_way = path_join(bdir, "blocked.json");
    ck_assert_int_eq(mkdir(in_way, 0755), 0);
    json_t *rows = json_array();
    struct diag d;
    diag_init(&d);
    ck_assert_int_eq(store_save_baseline(dir, "blocked", NULL, rows, true, &d), -1);
    ck_assert_msg(strstr(diag_last(&d), "blocked.json: not a regular file (a directory)"), "%s",
                  diag_last(&d));
    struct stat st;
    ck_assert_int_eq(lstat(in_way, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    ck_assert_int_eq(store_save_baseline(dir, "fine", NULL, rows, false, &d), 0);
    json_decref(rows);
    assert_only(bdir, 2);

    char *cfg = path_join(dir, "config");
    char *real = path_join(dir, "config.real");
    put(real, "theme = mono\n");
    ck_assert_int_eq(symlink("config.real", cfg), 0);
    struct settings s;
    settings_init(&s);
    snprintf(s.theme, sizeof s.theme, "ti");
    ck_assert_int_eq(settings_save(&s, cfg), 0);
    ck_assert_int_eq(lstat(cfg, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    char *text = slurp(real);
    ck_assert_ptr_nonnull(strstr(text, "theme = ti\n"));
    free(text);
    ck_assert_int_eq(settings_save(&s, bdir), -1);
    ck_assert_int_eq(errno, EISDIR);
    assert_only(dir, 3);
    free(real);
    free(cfg);
    free(in_way);
    free(bdir);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

/* The store's run file is always new: a link planted at the name it
 * would take (this second's and the next's) is not followed. */
START_TEST(store_run_file_is_new)
{
    char *dir = test_tmpdir("outfile");
    char *runs = path_join(dir, "runs");
    ck_assert_int_eq(mkdir(runs, 0755), 0);
    char *victim = path_join(dir, "victim");
    put(victim, "victim\n");
    time_t now = time(NULL);
    for (int k = 0; k < 2; k++) {
        time_t t = now + k;
        struct tm tm;
        gmtime_r(&t, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        char *name = xasprintf("%s/%s-planted.evmrun", runs, stamp);
        ck_assert_int_eq(symlink(victim, name), 0);
        free(name);
    }
    struct diag d;
    diag_init(&d);
    struct store_writer *w = store_begin(dir, "planted", NULL, &d);
    ck_assert_msg(w != NULL, "%s", diag_last(&d));
    struct stat st;
    ck_assert_int_eq(lstat(store_writer_path(w), &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_int_eq(store_finish(w, true, &d), 0);
    assert_text(victim, "victim\n");
    free(victim);
    free(runs);
    test_rmtree(dir);
    free(dir);
    diag_free(&d);
}
END_TEST

Suite *suite_outfile(void)
{
    Suite *s = suite_create("outfile");
    TCase *tc = tcase_create("kinds");
    tcase_add_test(tc, new_file);
    tcase_add_test(tc, replace_keeps_mode);
    tcase_add_test(tc, failure_keeps_old);
    tcase_add_test(tc, symlinks);
    tcase_add_test(tc, refused);
    tcase_add_test(tc, fifo_written_in_place);
    tcase_add_test(tc, target_changed);
    tcase_add_test(tc, char_device);
    tcase_add_test(tc, descriptor_and_pipe);
    tcase_add_test(tc, signal_removes_temporary);
    tcase_add_test(tc, baseline_and_settings);
    tcase_add_test(tc, store_run_file_is_new);
    suite_add_tcase(s, tc);
    return s;
}
