/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_refdb(void)
{
    return suite_create("refdb");
}
