/* settings.h - every setting of the next run, in one table that the settings
 * view, the prompts and the config file share. Each row parses and checks a
 * typed value with the rules `dillsue solve` applies to the same option (the
 * engine's name parsers, the same limits), and prints the value back in the
 * spelling it reads. No curses. */
#ifndef TUI_SETTINGS_H
#define TUI_SETTINGS_H
#include <stddef.h>

#include "dillsue.h"

typedef struct tui_setting {
    const char *name;   /* config key and label (solve's option without -- and with _) */
    const char *option; /* the `dillsue solve` option it mirrors */
    const char *help;   /* one line: meaning and range */
    int n_choices;      /* > 0: a name from choice(i), i < n_choices */
    const char *(*choice)(int i);
    /* Parse value into c. 0 ok; -1 with why (one phrase, no value quoted). */
    int (*set)(ds_config *c, const char *value, char *why, size_t n);
    void (*get)(const ds_config *c, char *buf, size_t n);
    void (*copy)(ds_config *dst, const ds_config *src);
} tui_setting;

extern const tui_setting tui_settings[];
extern const int tui_n_settings;
/* The settings that change a result and that no fixed summary of a run
 * shows (toll and distance factors, Newton's warm start, the factor
 * memory): the details view, the run log and the next-run line add them. */
extern const char *const tui_settings_more[];
extern const int tui_n_settings_more;
/* Whether row i's value in c differs from ds_config_default's, as the row
 * spells both; c's value into v (n bytes). */
int settings_differs(int i, const ds_config *c, char *v, size_t n);
/* Row index of a setting name, -1 if none. */
int settings_find(const char *name);
/* Set row i from text; on failure c is unchanged and msg says why, quoting the value. */
int settings_set(int i, ds_config *c, const char *value, char *msg, size_t n);
/* Choice rows: step to the next (dir 1) or previous (-1) choice. */
void settings_cycle(int i, ds_config *c, int dir);
#endif
