/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_report(void)
{
    return suite_create("report");
}
