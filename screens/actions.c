/* actions.c - action names, key bindings and key names. */
#include "config.h"
#include "screens/actions.h"

#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#define CTRL_KEY(c) ((c) & 0x1f)
#define KEY_ESC 27

/* The name and the description of each action, in the order of the enum. */
static const struct {
    const char *name, *description;
} info[] = {
    { "NONE", "" },
#define ACT(id, desc) { #id, desc },
    ACTIONS_BEFORE_SCREENS
#define SCREEN_ACTION(name, id, help) ACT(id, help)
#include "screens/screens.def"
    ACTIONS_AFTER_SCREENS
#undef ACT
};
_Static_assert(sizeof info / sizeof info[0] == ACT_COUNT, "an action without its name");

/* vt100 keyboards have no PgUp/PgDn/Home/End: every motion also has a
 * control or vi key that any serial terminal can send. */
const struct binding action_bindings[] = {
    { KEY_UP, ACT_UP },           { 'k', ACT_UP },
    { KEY_DOWN, ACT_DOWN },       { 'j', ACT_DOWN },
    { KEY_PPAGE, ACT_PAGE_UP },   { CTRL_KEY('B'), ACT_PAGE_UP },
    { KEY_NPAGE, ACT_PAGE_DOWN }, { CTRL_KEY('F'), ACT_PAGE_DOWN },
    { ' ', ACT_PAGE_DOWN },
    { KEY_HOME, ACT_FIRST },      { 'g', ACT_FIRST },
    { KEY_END, ACT_LAST },        { 'G', ACT_LAST },
    { '\n', ACT_ENTER },          { '\r', ACT_ENTER },
    { KEY_ENTER, ACT_ENTER },     { KEY_RIGHT, ACT_ENTER },
    { 'r', ACT_RUN },
    { 'q', ACT_BACK },            { KEY_ESC, ACT_BACK },
    { KEY_LEFT, ACT_BACK },
    /* those that open a screen */
#define SCREEN_KEY(id, key) { key, ACT_##id },
#include "screens/screens.def"
    { 't', ACT_THEME },
    { '/', ACT_SEARCH },
    { 'n', ACT_NEXT },
    { 'p', ACT_PREV },
    { CTRL_KEY('L'), ACT_REDRAW },
    { 0, ACT_NONE },
};

const char *action_name(enum action a)
{
    return (unsigned)a < ACT_COUNT ? info[a].name : "NONE";
}

const char *action_description(enum action a)
{
    return (unsigned)a < ACT_COUNT ? info[a].description : "";
}

/* Compares ignoring case, with '-' and '_' equal. */
static bool name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a == '-' ? '_' : tolower((unsigned char)*a);
        int y = *b == '-' ? '_' : tolower((unsigned char)*b);
        if (x != y)
            return false;
    }
    return *a == *b;
}

enum action action_from_name(const char *name)
{
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++)
        if (name && name_eq(name, info[a].name))
            return (enum action)a;
    return ACT_NONE;
}

static enum action lookup(const struct binding *t, int key)
{
    for (; t && t->action != ACT_NONE; t++)
        if (t->key == key)
            return t->action;
    return ACT_NONE;
}

enum action action_for_key(const struct binding *local, int key)
{
    enum action a = lookup(local, key);
    return a != ACT_NONE ? a : lookup(action_bindings, key);
}

static const struct {
    int key;
    const char *name;
} key_names[] = {
    { KEY_UP, "Up" },       { KEY_DOWN, "Down" },
    { KEY_LEFT, "Left" },   { KEY_RIGHT, "Right" },
    { KEY_PPAGE, "PgUp" },  { KEY_NPAGE, "PgDn" },
    { KEY_HOME, "Home" },   { KEY_END, "End" },
    { KEY_ENTER, "Enter" }, { '\n', "Enter" }, { '\r', "Return" },
    { KEY_ESC, "Esc" },     { ' ', "Space" },  { '\t', "Tab" },
    { KEY_BACKSPACE, "Backspace" },
};

const char *action_key_name(int key, char *buf, size_t size)
{
    if (!size)
        return buf;
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (key_names[i].key == key) {
            snprintf(buf, size, "%s", key_names[i].name);
            return buf;
        }
    if (key >= KEY_F(1) && key <= KEY_F(63))
        snprintf(buf, size, "F%d", key - KEY_F0);
    else if (key > 0 && key < 32)
        snprintf(buf, size, "Ctrl-%c", key + '@');
    else if (key >= 32 && key < 127)
        snprintf(buf, size, "%c", key);
    else
        snprintf(buf, size, "key %d", key);
    return buf;
}

/* Appends the keys of `a` found in table t; skips '\r' which always
 * accompanies '\n' and would only repeat "Enter". */
static void collect(const struct binding *t, enum action a, char *buf,
                    size_t size, size_t *count)
{
    char name[24];
    for (; t && t->action != ACT_NONE; t++) {
        if (t->action != a || t->key == '\r' || t->key == KEY_ENTER)
            continue;
        action_key_name(t->key, name, sizeof name);
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", *count ? ", " : "", name);
        (*count)++;
    }
}

size_t action_keys_text(const struct binding *local, enum action a,
                        char *buf, size_t size)
{
    size_t count = 0;
    if (!size)
        return 0;
    buf[0] = '\0';
    collect(local, a, buf, size, &count);
    collect(action_bindings, a, buf, size, &count);
    return count;
}

int action_first_key(const struct binding *local, enum action a)
{
    for (const struct binding *t = local; t && t->action != ACT_NONE; t++)
        if (t->action == a)
            return t->key;
    for (const struct binding *t = action_bindings; t->action != ACT_NONE; t++)
        if (t->action == a)
            return t->key;
    return 0;
}
