/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_os(void)
{
    return suite_create("os");
}
