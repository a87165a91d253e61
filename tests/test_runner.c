/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_runner(void)
{
    return suite_create("runner");
}
