/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_cpu(void)
{
    return suite_create("cpu");
}
