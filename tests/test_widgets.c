/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_widgets(void)
{
    return suite_create("widgets");
}
