/* toolparam.c - checks --storage-dir, --allow-raw-device, --peer and
 * --audio-device. */
#include "config.h"
#include "recipe/toolparam.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "recipe/recipe.h"

bool toolparam_storage(const char *path, bool allow_raw, char **target, struct diag *d)
{
    *target = NULL;
    struct stat st;
    if (!path || !*path) {
        diag_add(d, "--storage-dir: no directory given");
        return false;
    }
    if (stat(path, &st) != 0) {
        diag_add(d, "--storage-dir %s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISBLK(st.st_mode)) {
        if (!allow_raw) {
            diag_add(d, "--storage-dir %s: refused, it is a block device and a raw test "
                        "overwrites its data; give a directory on it, or add "
                        "--allow-raw-device to write to the device itself", path);
            return false;
        }
        if (access(path, R_OK | W_OK) != 0) {
            diag_add(d, "--storage-dir %s: %s", path, strerror(errno));
            return false;
        }
        *target = xstrdup(path);
        return true;
    }
    if (!S_ISDIR(st.st_mode)) {
        diag_add(d, "--storage-dir %s: not a directory", path);
        return false;
    }
    if (access(path, W_OK | X_OK) != 0) {
        diag_add(d, "--storage-dir %s: not writable: %s", path, strerror(errno));
        return false;
    }
    size_t n = strlen(path);
    *target = xasprintf("%s%s%s", path, n && path[n - 1] == '/' ? "" : "/",
                        TOOLPARAM_STORAGE_FILE);
    return true;
}

static bool hostname_ok(const char *h)
{
    size_t n = strlen(h);
    if (n && h[n - 1] == '.')      /* a fully qualified name */
        n--;
    if (n == 0 || n > 253)
        return false;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || h[i] == '.') {
            size_t len = i - start;
            if (len == 0 || len > 63 || h[start] == '-' || h[i - 1] == '-')
                return false;
            start = i + 1;
        } else if (!isalnum((unsigned char)h[i]) && h[i] != '-') {
            return false;
        }
    }
    return true;
}

bool toolparam_audio_device(const char *pcm, struct diag *d)
{
    size_t n = pcm ? strlen(pcm) : 0;
    if (n == 0 || n > 64 || pcm[0] == '-' || !isalpha((unsigned char)pcm[0]) ||
        strspn(pcm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:,=.-") != n) {
        diag_add(d, "--audio-device %s: not an ALSA PCM name (e.g. hw:0,0, plughw:1,0, "
                    "default)", pcm ? pcm : "");
        return false;
    }
    return true;
}

bool toolparam_peer(const char *host, struct diag *d)
{
    if (!host || !*host) {
        diag_add(d, "--peer: no host given");
        return false;
    }
    unsigned char addr[16];
    if (inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1)
        return true;
    bool dotted = strspn(host, "0123456789.") == strlen(host);
    if (strchr(host, ':'))
        diag_add(d, "--peer %s: not a valid IPv6 address", host);
    else if (dotted)
        diag_add(d, "--peer %s: not a valid IPv4 address", host);
    else if (hostname_ok(host))
        return true;
    else
        diag_add(d, "--peer %s: not an IP address or a host name (letters, digits, "
                    "'-' and '.')", host);
    return false;
}

bool toolparam_apply(const char *option, const char *value, bool allow_raw, struct diag *d)
{
    if (value && !*value)
        value = NULL;
    if (strcmp(option, "storage_dir") == 0) {
        char *target = NULL;
        if (value && !toolparam_storage(value, allow_raw, &target, d))
            return false;
        recipe_set_option("storage_dir", value);
        recipe_set_option("storage_target", target);
        free(target);
        return true;
    }
    bool good = strcmp(option, "peer") == 0 ? !value || toolparam_peer(value, d)
              : strcmp(option, "audio_device") == 0 ? !value || toolparam_audio_device(value, d)
              : (diag_add(d, "%s: not a run target", option), false);
    if (good)
        recipe_set_option(option, value);
    return good;
}
