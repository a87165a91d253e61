/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_memory(void)
{
    return suite_create("memory");
}
