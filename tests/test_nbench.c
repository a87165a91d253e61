/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_nbench(void)
{
    return suite_create("nbench");
}
