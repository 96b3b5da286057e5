/* c_locale.h - the "C" locale, for the numbers of every file the engine reads
 * or writes, whatever locale the program took (the TUI takes the user's for
 * its character set; a Python script may call locale.setlocale): under a
 * LC_NUMERIC with a decimal comma strtod stops at the '.' of "0.78000001907349"
 * and printf writes "4869,08", which no reader of a CSV takes. */
#ifndef DS_C_LOCALE_H
#define DS_C_LOCALE_H

#include <locale.h>

/* Made once, never freed; (locale_t)0 where it cannot be made (out of
 * memory), and the callers then use the current locale. */
locale_t ds_c_locale(void);

/* strtod in the "C" locale */
double ds_strtod_c(const char *s, char **end);

#endif
