/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_guide_import(void)
{
    return suite_create("guide_import");
}
