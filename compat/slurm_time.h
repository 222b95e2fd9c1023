/* slurm_time.h - Slurm's time syntaxes: limits (-t), durations as squeue and
 * sacct print them, and timestamps (sacct -S/-E, --begin, scontrol). */
#ifndef SL_SLURM_TIME_H
#define SL_SLURM_TIME_H

#include <stddef.h>
#include <limits.h>
#include <stdint.h>

/* -t/--time: "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S", "UNLIMITED",
 * "INFINITE" (any case). Seconds round up to whole minutes as Slurm does
 * ("0:5" -> 1). Out: minutes, or SL_TIME_INFINITE. 0 or -SL_EINVAL. */
int sl_slurm_time_parse_limit(const char *s, int64_t *minutes);

/* Limit as squeue %l prints it: "UNLIMITED", "10:00", "1:00:00", "1-00:00:00".
 * SL_TIME_UNSET prints as "UNLIMITED" too. */
void sl_slurm_time_fmt_limit(int64_t minutes, char *buf, size_t len);
/* Limit as sacct Timelimit prints it: "UNLIMITED", "00:01:00", "1-00:00:00". */
void sl_slurm_time_fmt_limit_sacct(int64_t minutes, char *buf, size_t len);
/* Elapsed as squeue %M prints it: "0:00", "1:12", "1:00:00", "2-03:04:05". */
void sl_slurm_time_fmt_elapsed(int64_t secs, char *buf, size_t len);
/* Elapsed as sacct prints it: "00:00:00", "1-00:00:00". */
void sl_slurm_time_fmt_elapsed_sacct(int64_t secs, char *buf, size_t len);
/* Timestamp "2026-11-21T10:25:03" in local time; 0 -> "Unknown". The
 * environment's SLURM_TIME_FORMAT ("standard", "relative" or a strftime
 * format) changes it, as in Slurm's commands; read at the first call. */
void sl_slurm_time_fmt_ts(int64_t t, char *buf, size_t len);
/* Read SLURM_TIME_FORMAT again at the next call (tests). */
void sl_slurm_time_format_reset(void);
/* Slurm 22.05's parse_time(s, past), form for form: "HH:MM[:SS] [AM|PM]",
 * "midnight", "noon", "fika" (15:00), "teatime" (16:00), "today",
 * "tomorrow", "MMDD[YY]", "MM/DD[/YY]", "MM.DD[.YY]",
 * "YYYY-MM-DD[THH:MM[:SS]]", "now[+-]N[seconds|minutes|hours|days|weeks]"
 * (blanks allowed), "uts<unix seconds>", and combinations ("noon
 * tomorrow", "16:00 12/25"). What the text leaves open is filled looking
 * ahead (SL_TIME_NEXT: sbatch --begin, scontrol's StartTime=; a time of
 * day is the next such time, a date the next such date) or back
 * (SL_TIME_PAST: sacct -S/-E; a time of day is today's, a date without a
 * year in a later month last year's). "elevenses" is in Slurm's manual
 * but not in 22.05.8's parser, so it is refused here too. 0 with *out, or
 * -SL_EINVAL with *errpos (may be NULL) the position Slurm prints
 * ("Invalid time specification (pos=%d): %s"), or SL_TIME_NO_POS when
 * nothing was given: parse_time's 0 with no line, which sacct takes as
 * no -S or -E at all. */
enum { SL_TIME_NEXT = 0, SL_TIME_PAST = 1 };
int sl_slurm_time_parse(const char *s, int64_t now, int past, int64_t *out, int *errpos);
/* *errpos when nothing at all was given: Slurm prints no line then (a -1
 * is a position it does print, "0" giving one). */
#define SL_TIME_NO_POS INT_MIN

#endif
