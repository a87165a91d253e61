/* placeholder: being written */
#include "config.h"
#include "suites.h"
Suite *suite_board(void)
{
    return suite_create("board");
}
