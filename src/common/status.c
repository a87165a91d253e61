/* status.c - names and messages of enum status. */
#include "config.h"
#include "common/status.h"

static const char *const names[] = {
#define S(id, name, msg) name,
    STATUS_LIST
#undef S
};

static const char *const messages[] = {
#define S(id, name, msg) msg,
    STATUS_LIST
#undef S
};

const char *status_name(enum status s)
{
    return (unsigned)s < STATUS_COUNT ? names[s] : "unknown";
}

const char *status_message(enum status s)
{
    return (unsigned)s < STATUS_COUNT ? messages[s] : "unknown status";
}
