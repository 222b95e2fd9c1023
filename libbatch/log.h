/* log.h - the one logging module. Library code never prints; the daemon and
 * stepd log through here (stderr in the foreground, else syslog). */
#ifndef SL_LOG_H
#define SL_LOG_H

enum sl_loglevel { SL_LOG_ERR, SL_LOG_WARN, SL_LOG_INFO, SL_LOG_DEBUG };

/* ident: program name; to_stderr: 1 = stderr with timestamps, 0 = syslog. */
void sl_log_open(const char *ident, int to_stderr, enum sl_loglevel max);
void sl_log(enum sl_loglevel lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define sl_err_log(...) sl_log(SL_LOG_ERR, __VA_ARGS__)
#define sl_warn(...) sl_log(SL_LOG_WARN, __VA_ARGS__)
#define sl_info(...) sl_log(SL_LOG_INFO, __VA_ARGS__)
#define sl_debug(...) sl_log(SL_LOG_DEBUG, __VA_ARGS__)

#endif
