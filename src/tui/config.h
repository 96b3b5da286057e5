/* config.h - the TUI's settings file, $XDG_CONFIG_HOME/dillsue/config.
 *
 * key=value lines, # comments, version=1: defaults of the next run, display
 * settings and key bindings. Reading never fails as a whole: a bad line is
 * recorded as a problem (line number and text) and skipped, the rest applies.
 * Saving writes a temporary file in the same directory and renames it over
 * the old one, so a failed save leaves the old file as it was. No curses
 * calls; UI thread only. */
#ifndef TUI_CONFIG_H
#define TUI_CONFIG_H
#include <stdio.h>

#include "tui.h"

#define TUI_CONFIG_VERSION 1
#define TUI_CONFIG_MAX_PROBLEMS 16

typedef struct tui_config_problem {
    int line; /* 1-based line of the file, 0 = the file as a whole */
    char text[200];
} tui_config_problem;

/* What the file says. Fields it does not set stay "unset" (tau, tol 0;
 * the ints -1) so command-line options and built-in defaults fill them. */
typedef struct tui_config {
    double tau, tol;
    int filter, solver, backend, threads, max_iter;
    int glyphs, color, delay_ms; /* plot_glyphset, 1 on / 0 off, milliseconds */
    int xaxis, notify, mouse;    /* tui_xaxis, 1 on / 0 off, 1 on / 0 off */
    tui_keymap keys;             /* the table's defaults with the file's bind. lines applied */
    ds_config opts;              /* the other next-run settings (settings.h rows), */
    unsigned long opts_set;      /* bit i set: the file gave tui_settings[i] */
    int version;                 /* 0 = the file has no version line */
    int n_problems;              /* all problems found; the first TUI_CONFIG_MAX_PROBLEMS kept, by line */
    tui_config_problem problem[TUI_CONFIG_MAX_PROBLEMS];
} tui_config;

/* Everything unset, default keys. */
void config_init(tui_config *c);
/* Parse the text of a config file into c (after config_init). */
void config_parse(tui_config *c, const char *text);
/* Read and parse path. 0 read (maybe with problems), 1 the file does not
 * exist (c untouched), -1 it exists but cannot be read (recorded as a problem). */
int config_load(tui_config *c, const char *path);
/* Write c, every field set, to path through a temporary file and a rename;
 * creates the directory if needed. On failure the old file is untouched, no
 * temporary file is left and err says why. */
int config_save(const char *path, const tui_config *c, ds_error *err);
/* $XDG_CONFIG_HOME/dillsue/config, else $HOME/.config/dillsue/config.
 * -1 if neither variable gives an absolute directory. */
int config_default_path(char *buf, size_t n);
/* path with the home directory written as ~, for messages. */
const char *config_display_path(const char *path, char *buf, size_t n);
/* "path:12: unknown filter 'dps'; line 14: ..." (all kept problems). */
void config_problems_format(const tui_config *c, const char *path, char *buf, size_t n);

/* Glue to the application: the settings in force, as a config to save. */
void config_capture(const tui_app *app, tui_config *c);
#endif
