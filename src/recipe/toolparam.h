/* toolparam.h - checks the user's parameters for external tools.
 *
 * The storage and network recipes take their target from the user, never
 * from a default: `--storage-dir DIR` (fio writes one file there),
 * `--allow-raw-device` (a block device may be given instead, and is then
 * written to directly) and `--peer HOST` (netperf/iperf3's server). They
 * reach the tools only as words of an argument vector, never through a
 * shell, and are checked here first so that a bad value is refused with a
 * clear message before anything runs. Nothing here prints. */
#ifndef EVMBENCH_TOOLPARAM_H
#define EVMBENCH_TOOLPARAM_H

#include <stdbool.h>

#include "common/diag.h"

/* The name of the file a storage test writes in the storage directory. */
#define TOOLPARAM_STORAGE_FILE "evmbench-fio.tmp"

/* `path` must be an existing directory the user can write to, or, with
 * allow_raw, a block device. On success *target (caller frees) is what
 * the tool writes: DIR/TOOLPARAM_STORAGE_FILE, or the device itself.
 * False with the reason added to d otherwise. */
bool toolparam_storage(const char *path, bool allow_raw, char **target, struct diag *d);

/* An IPv4 address, an IPv6 address, or a host name (RFC 1123 labels of
 * letters, digits and '-', not starting or ending with '-', at most 253
 * characters). A dotted string of digits must be a valid IPv4 address.
 * False with the reason added to d otherwise. No name lookup is
 * done. */
bool toolparam_peer(const char *host, struct diag *d);

/* An ALSA PCM name as arecord/aplay's -D takes it: "hw:0,0",
 * "plughw:1,0", "hw:CARD=sndsoc,DEV=0", "default"; letters, digits and
 * _ : , = . - only, not starting with '-', at most 64 characters. False
 * with the reason added to d otherwise. The device is not opened here. */
bool toolparam_audio_device(const char *pcm, struct diag *d);

/* The one way a run target is set, from the command line or the
 * settings: option is "peer", "storage_dir" or "audio_device"; value is
 * checked as above (allow_raw for the storage target) and becomes the
 * recipes' option (recipe_set_option(); for storage_dir also
 * "storage_target"). NULL or "" unsets it. False, with the reason added
 * to d and nothing changed, for a bad value or an unknown option. */
bool toolparam_apply(const char *option, const char *value, bool allow_raw, struct diag *d);

#endif
