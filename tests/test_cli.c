/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_cli(void)
{
    return suite_create("cli");
}
