/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_deviation(void)
{
    return suite_create("deviation");
}
