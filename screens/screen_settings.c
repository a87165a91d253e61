/* screen_settings.c - theme, budget, tolerance, live updates, provider,
 * and the run targets some tool benchmarks need (peer, storage directory,
 * audio device). Each change applies at once and is saved to the settings
 * file (settings.h), which the next start loads. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "recipe/recipe.h"
#include "recipe/toolparam.h"

#define HEAD_ROWS 2
#define LABEL_W 22

enum field {
    F_THEME, F_BUDGET, F_TOLERANCE, F_UPDATES, F_PROVIDER,
    F_PEER, F_STORAGE, F_AUDIO,     /* the run targets: typed, not stepped */
    F_COUNT
};

static const char *const labels[F_COUNT] = {
    "Theme", "Time budget", "Tolerance", "Live updates", "Provider",
    "Peer host", "Storage directory", "Audio device",
};

static const char *const explain[F_COUNT] = {
    "colours of the screens (t also cycles them)",
    "quick: seconds per benchmark; full: the guide's run lengths",
    "how far beyond the guide's band is only a warning",
    "redraws per second while a benchmark runs (less for slow links)",
    "auto: the SDK's tool when installed, else the built-in kernel",
    "netserver/iperf3 -s host for the network tests (as --peer); x clears",
    "existing directory fio writes a test file in (as --storage-dir); x clears",
    "ALSA device, hw:0,0 (as --audio-device); x clears",
};

/* The recipes' option each run target sets (toolparam_apply). */
static const char *target_option(enum field f)
{
    return f == F_PEER ? "peer" : f == F_STORAGE ? "storage_dir"
         : f == F_AUDIO ? "audio_device" : NULL;
}

static const double tolerances[] = { 2, 5, 10, 15, 20, 25, 50 };
static const double updates[] = { 0.5, 1, 2, 4, 10 };

struct settings_view {
    struct list_pos pos;
};

static const struct binding keys[] = {
    { KEY_RIGHT, ACT_INC }, { '+', ACT_INC }, { 'l', ACT_INC },
    { '\n', ACT_INC },      { '\r', ACT_INC }, { KEY_ENTER, ACT_INC },
    { KEY_LEFT, ACT_DEC },  { '-', ACT_DEC }, { 'h', ACT_DEC },
    { 'x', ACT_CLEAR },     { KEY_DC, ACT_CLEAR }, { KEY_BACKSPACE, ACT_CLEAR },
    { 0, ACT_NONE },
};

static const struct hint hints[] = {
    { ACT_INC, "next value / type" },
    { ACT_DEC, "previous" },
    { ACT_CLEAR, "clear" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static void value_text(struct ui *ui, enum field f, char *buf, size_t size)
{
    const struct app *a = ui_app(ui);
    switch (f) {
    case F_THEME:
        /* what is in use: a mono terminal ignores the chosen theme */
        snprintf(buf, size, "%s", ui_theme_mono_reason(ui) ? "mono" : ui_theme_name(ui));
        break;
    case F_BUDGET:
        snprintf(buf, size, "%s", a->run_opts.params.quick ? "quick" : "full");
        break;
    case F_TOLERANCE:
        snprintf(buf, size, "%g %%", a->tolerance_pct);
        break;
    case F_UPDATES:
        snprintf(buf, size, "%g per second", ui_updates_per_s(ui));
        break;
    case F_PROVIDER:
        snprintf(buf, size, "%s", provider_pref_name(a->provider));
        break;
    case F_PEER:
    case F_STORAGE:
    case F_AUDIO: {
        const char *v = recipe_option(target_option(f));
        snprintf(buf, size, "%s", v ? v : "not set");
        break;
    }
    case F_COUNT:
        buf[0] = '\0';
        break;
    }
}

/* The settings' copy of a run target. */
static char *target_slot(struct settings *st, enum field f, size_t *size)
{
    *size = f == F_PEER ? sizeof st->peer : f == F_STORAGE ? sizeof st->storage_dir
          : sizeof st->audio_device;
    return f == F_PEER ? st->peer : f == F_STORAGE ? st->storage_dir : st->audio_device;
}

/* Sets (or, text NULL, clears) a run target as --peer and the others
 * would: a value the command line would refuse is refused, and nothing
 * is saved. */
static void set_target(struct ui *ui, enum field f, const char *text)
{
    struct diag why;
    diag_init(&why);
    size_t size;
    char *slot = target_slot(ui_settings(ui), f, &size);
    if (text && strlen(text) >= size)
        ui_message(ui, ROLE_ERROR, "%s: at most %zu characters", labels[f], size - 1);
    else if (!toolparam_apply(target_option(f), text, false, &why))
        ui_message(ui, ROLE_ERROR, "%s not set: %s", labels[f], diag_last(&why));
    else {
        snprintf(slot, size, "%s", text ? text : "");
        ui_settings_changed(ui);
    }
    diag_free(&why);
    ui_dirty(ui);
}

static void typed_peer(struct ui *ui, const char *text) { set_target(ui, F_PEER, text); }
static void typed_storage(struct ui *ui, const char *text) { set_target(ui, F_STORAGE, text); }
static void typed_audio(struct ui *ui, const char *text) { set_target(ui, F_AUDIO, text); }

static void (*const typed[F_COUNT])(struct ui *, const char *) = {
    [F_PEER] = typed_peer, [F_STORAGE] = typed_storage, [F_AUDIO] = typed_audio,
};

/* The value after (step 1) or before (-1) cur in a list of choices. */
static double step_in(const double *v, size_t n, double cur, int step)
{
    size_t i = 0;
    while (i < n && v[i] < cur - 1e-9)
        i++;
    bool exact = i < n && fabs(v[i] - cur) < 1e-9;
    if (step > 0)
        return exact ? v[(i + 1) % n] : v[i % n];
    return i == 0 ? v[n - 1] : v[i - 1];
}

static void change(struct ui *ui, enum field f, int step)
{
    struct settings *st = ui_settings(ui);
    const struct app *a = ui_app(ui);
    switch (f) {
    case F_THEME:
        ui_next_theme(ui);
        snprintf(st->theme, sizeof st->theme, "%s", ui_theme_name(ui));
        break;
    case F_BUDGET:
        st->has_budget = true;
        st->quick = !a->run_opts.params.quick;
        break;
    case F_TOLERANCE:
        st->has_tolerance = true;
        st->tolerance_pct = step_in(tolerances, ARRAY_SIZE(tolerances), a->tolerance_pct,
                                    step);
        break;
    case F_UPDATES:
        st->has_updates = true;
        st->updates_per_s = step_in(updates, ARRAY_SIZE(updates), ui_updates_per_s(ui),
                                    step);
        break;
    case F_PROVIDER:
        st->has_provider = true;
        st->provider = (enum provider_pref)((a->provider + (step > 0 ? 1 : 2)) % 3);
        break;
    case F_PEER:
    case F_STORAGE:
    case F_AUDIO:
        (void)step;
        char label[64];
        snprintf(label, sizeof label, "%s: ", labels[f]);
        ui_prompt(ui, label, typed[f]);
        return;
    case F_COUNT:
        return;
    }
    ui_settings_changed(ui);
}

static void settings_enter(struct screen *s, const struct screen_arg *arg)
{
    (void)arg;
    s->priv = xcalloc(1, sizeof(struct settings_view));
}

static void settings_leave(struct screen *s)
{
    free(s->priv);
}

static void settings_draw(struct screen *s, WINDOW *w, bool full)
{
    struct settings_view *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[256], label[64], value[64];
    (void)full;
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, "Settings", utf8);
    for (int f = 0; f < F_COUNT; f++) {
        bool sel = (size_t)f == v->pos.sel;
        value_text(s->ui, (enum field)f, value, sizeof value);
        fmt_fit(label, sizeof label, labels[f], LABEL_W, false, false);
        snprintf(line, sizeof line, "%c %s < %s >", sel ? '>' : ' ', label, value);
        widget_text(w, HEAD_ROWS + 2 * f, 0, width, sel ? ROLE_SELECTION : ROLE_NORMAL,
                    line, utf8);
        const char *why = f == F_THEME ? ui_theme_mono_reason(s->ui) : NULL;
        if (why)
            snprintf(line, sizeof line, "mono because %s; the choice '%s' applies in "
                     "colour", why, ui_theme_name(s->ui));
        widget_text(w, HEAD_ROWS + 2 * f + 1, 4, width - 5, ROLE_DIM, why ? line : explain[f],
                    utf8);
    }
    snprintf(line, sizeof line, "Changes apply at once and are saved for the next start.");
    widget_text(w, rows - 2, 1, width - 2, ROLE_DIM, line, utf8);
}

static enum action settings_action(struct screen *s, enum action a)
{
    struct settings_view *v = s->priv;
    if (list_pos_move(&v->pos, F_COUNT, F_COUNT, a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    enum field f = (enum field)v->pos.sel;
    if (a == ACT_INC || (a == ACT_DEC && !target_option(f))) {
        change(s->ui, f, a == ACT_INC ? 1 : -1);
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if (a == ACT_DEC)           /* a typed target has no previous value */
        return ACT_NONE;
    if (a == ACT_CLEAR) {
        if (target_option(f))
            set_target(s->ui, f, NULL);
        return ACT_NONE;
    }
    if (a == ACT_SETTINGS)
        return ACT_NONE;
    return a;
}

const struct screen_ops screen_settings = {
    .name = "settings",
    .keys = keys,
    .hints = hints,
    .enter = settings_enter,
    .leave = settings_leave,
    .draw = settings_draw,
    .on_action = settings_action,
};
