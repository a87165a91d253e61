/* suites.h - one Check suite per module, collected by check_main.c. */
#ifndef EVMBENCH_TEST_SUITES_H
#define EVMBENCH_TEST_SUITES_H

#include <stdarg.h>
#include <stddef.h>

#include <check.h>

Suite *suite_util(void);
Suite *suite_stats(void);
Suite *suite_change(void);
Suite *suite_report(void);
Suite *suite_runner(void);
Suite *suite_refdb(void);
Suite *suite_deviation(void);
Suite *suite_catalog(void);
Suite *suite_board(void);
Suite *suite_guide_import(void);
Suite *suite_stream(void);
Suite *suite_memory(void);
Suite *suite_os(void);
Suite *suite_cpu(void);
Suite *suite_nbench(void);
Suite *suite_recipe(void);
Suite *suite_cpuload(void);
Suite *suite_cli(void);
Suite *suite_widgets(void);
Suite *suite_list(void);
Suite *suite_format(void);
Suite *suite_job(void);
Suite *suite_engine(void);
Suite *suite_store(void);
Suite *suite_settings(void);
Suite *suite_import(void);
Suite *suite_embedded(void);
Suite *suite_privilege(void);
Suite *suite_outfile(void);
Suite *suite_spawn(void);
Suite *suite_sysstate(void);
Suite *suite_sysfacts(void);

Suite *suite_select(void);
Suite *suite_gunzip(void);

/* Runs the command line in-process with these words (NULL-terminated
 * after `first`; argv[0] is added); *out and *err get what it printed
 * (caller frees). Returns the exit status. */
int test_cli(char **out, char **err, const char *first, ...);
/* The same with the words after `first` in ap. */
int test_cli_va(char **out, char **err, const char *first, va_list ap);
/* The same with the words of a NULL-terminated array (at most 62 used),
 * and `closed` the standard streams main found closed (CLI_STDOUT_CLOSED
 * ..., see cli_main_std); test_cli() passes 0. The one runner: the others
 * call it. */
int test_cli_words(const char *const *words, unsigned closed, char **out, char **err);

/* Absolute path of a file under tests/data (from $TESTS_DATA); caller frees. */
char *test_data_path(const char *rel);

/* This machine's memcpy of `bytes` in MB/s (10^6 bytes), counting the
 * bytes read and written as STREAM's copy does; the best of 5. A yardstick
 * measured here for the kernels' rates, instead of a speed assumed. */
double test_memcpy_mbs(size_t bytes);

#endif
