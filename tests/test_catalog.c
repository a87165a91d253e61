/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_catalog(void)
{
    return suite_create("catalog");
}
