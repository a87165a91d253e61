/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_stats(void)
{
    return suite_create("stats");
}
