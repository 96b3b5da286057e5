/* clock.h - the engine's one monotonic clock (seconds), for phase timers. */
#ifndef DS_CLOCK_H
#define DS_CLOCK_H
#include <time.h>

static inline double ds_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
