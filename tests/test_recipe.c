/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_recipe(void)
{
    return suite_create("recipe");
}
