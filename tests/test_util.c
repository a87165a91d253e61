/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_util(void)
{
    return suite_create("util");
}
