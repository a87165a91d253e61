/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_stream(void)
{
    return suite_create("stream");
}
