/* clock.h - the monotonic clock in milliseconds: deadlines, timeouts and
 * intervals, which a change of the wall clock must not move. */
#ifndef SL_CLOCK_H
#define SL_CLOCK_H

#include <stdint.h>

int64_t sl_mono_ms(void);

#endif
