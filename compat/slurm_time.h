/* slurm_time.h - Slurm's time syntaxes: limits (-t), durations as squeue and
 * sacct print them, and timestamps (sacct -S/-E, scontrol). */
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
/* sacct -S/-E and --begin: "YYYY-MM-DD[THH:MM[:SS]]", "MMDD[YY]", "HH:MM[:SS]",
 * "now", "now[+-]N[seconds|minutes|hours|days|weeks]", "today", "midnight",
 * "noon", "tomorrow". 0 or -SL_EINVAL. */
int sl_slurm_time_parse_ts(const char *s, int64_t now, int64_t *out);
/* The same as sacct reads it (Slurm's parse_time with past set): a named
 * time of day is today's even when still to come ("midnight" is the one
 * that began today), and a date without a year in a later month is last
 * year's. On -SL_EINVAL, *errpos is the position sacct prints ("Invalid
 * time specification (pos=%d): %s"). */
int sl_slurm_time_parse_past(const char *s, int64_t now, int64_t *out, int *errpos);

/* sbatch --begin and scontrol update StartTime=: Slurm 22.05's parse_time()
 * looking forward, form for form: "HH:MM[:SS] [AM|PM]" (the next such
 * time), "midnight", "noon", "fika" (15:00), "teatime" (16:00), "today",
 * "tomorrow", "MMDD[YY]", "MM/DD[/YY]", "MM.DD[.YY]" (the next such date),
 * "YYYY-MM-DD[THH:MM[:SS]]", "now[+-]N[seconds|minutes|hours|days|weeks]"
 * (blanks allowed), "uts<unix seconds>", and combinations ("noon
 * tomorrow", "16:00 12/25"). "elevenses" is in Slurm's manual but not in
 * 22.05.8's parser, so it is refused here too. 0 with *out, or -SL_EINVAL
 * with *errpos the position Slurm prints ("Invalid time specification
 * (pos=%d): %s"), or -1 when it prints no such line (nothing was given). */
int sl_slurm_time_parse_begin(const char *s, int64_t now, int64_t *out, int *errpos);
/* *errpos when nothing at all was given: Slurm prints no line then (a -1
 * is a position it does print, "0" giving one). */
#define SL_TIME_NO_POS INT_MIN

#endif
