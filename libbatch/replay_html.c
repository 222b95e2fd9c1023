/* replay_html.c - a replay as one self-contained page: the figures of the
 * text report as tables, and SVG charts (utilisation over time per
 * resource and per ClusterQueue, wait-time CDFs, queue depth). No script is
 * needed to draw; the one script on the page only marks, for tests and
 * curious admins, that every chart has a line of non-zero length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay_int.h"
#include "buf.h"
#include "xalloc.h"

#define W 640
#define H 260
#define PAD 48
#define MAXPTS 300

static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				       "#8c564b", "#e377c2", "#7f7f7f"};

struct line {
	const char *label;
	double *x, *y;
	size_t n;
};

static void esc(struct sl_buf *b, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': sl_buf_addstr(b, "&lt;"); break;
		case '>': sl_buf_addstr(b, "&gt;"); break;
		case '&': sl_buf_addstr(b, "&amp;"); break;
		case '"': sl_buf_addstr(b, "&quot;"); break;
		default: sl_buf_addc(b, *s);
		}
}

static void chart(struct sl_buf *b, const char *title, const char *xlab, const char *ylab,
		  const struct line *l, size_t n)
{
	double xmax = 0, ymax = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < l[i].n; j++) {
			if (l[i].x[j] > xmax)
				xmax = l[i].x[j];
			if (l[i].y[j] > ymax)
				ymax = l[i].y[j];
		}
	if (xmax <= 0)
		xmax = 1;
	if (ymax <= 0)
		ymax = 1;
	sl_buf_addstr(b, "<figure><figcaption>");
	esc(b, title);
	sl_buf_addf(b, "</figcaption>\n<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H, W, H);
	sl_buf_addf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		       "stroke=\"#999\"/>\n", PAD, 10, W - PAD - 10, H - PAD - 10);
	sl_buf_addf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%.3g</text>", 2, 18, ymax);
	sl_buf_addf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0</text>", PAD - 12, H - PAD + 14);
	sl_buf_addf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%.3g</text>",
		    W - 10, H - PAD + 14, xmax);
	sl_buf_addf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">",
		    W / 2, H - PAD + 28);
	esc(b, xlab);
	sl_buf_addf(b, "</text><text x=\"12\" y=\"%d\" font-size=\"11\" "
		       "transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">", H / 2, H / 2);
	esc(b, ylab);
	sl_buf_addstr(b, "</text>\n");
	for (size_t i = 0; i < n; i++) {
		const char *c = colours[i % (sizeof(colours) / sizeof(colours[0]))];
		sl_buf_addf(b, "<path class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", c);
		for (size_t j = 0; j < l[i].n; j++) {
			double px = PAD + l[i].x[j] / xmax * (W - PAD - 10);
			double py = (H - PAD) - l[i].y[j] / ymax * (H - PAD - 10);
			sl_buf_addf(b, "%s%.1f %.1f", j ? " L" : "M", px, py);
		}
		sl_buf_addstr(b, "\"/>\n");
		sl_buf_addf(b, "<text x=\"%d\" y=\"%zu\" font-size=\"11\" fill=\"%s\">", PAD + 8,
			    24 + 13 * i, c);
		esc(b, l[i].label);
		sl_buf_addstr(b, "</text>\n");
	}
	sl_buf_addstr(b, "</svg></figure>\n");
}

/* A bucketed integral as at most MAXPTS points of (hours, mean level x scale). */
static void series_line(const struct sl_replay *r, const double *area, double scale, struct line *l)
{
	size_t step = r->nbuckets / MAXPTS + 1, n = 0;
	l->x = sl_xmalloc((r->nbuckets / step + 2) * sizeof(double));
	l->y = sl_xmalloc((r->nbuckets / step + 2) * sizeof(double));
	for (size_t b = 0; b < r->nbuckets; b += step) {
		double sum = 0;
		size_t k = 0;
		for (; k < step && b + k < r->nbuckets; k++)
			sum += area[b + k];
		l->x[n] = (double)((int64_t)b * r->width) / 3600000.0;
		l->y[n++] = sum / ((double)r->width * (double)k) * scale;
	}
	l->n = n;
}

static void lines_free(struct line *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].x);
		free(l[i].y);
	}
}

/* Every series name any result has, once, with lines of each that has it. */
static void util_charts(struct sl_buf *b, struct sl_replay *const *r, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (size_t s = 0; s < r[k]->nseries; s++) {
			const char *name = r[k]->series[s].name;
			int dup = strchr(name, '@') != NULL; /* per flavor: in the tables */
			for (size_t j = 0; j < k && !dup; j++)
				for (size_t q = 0; q < r[j]->nseries && !dup; q++)
					dup = strcmp(r[j]->series[q].name, name) == 0;
			if (dup)
				continue;
			struct line l[8] = {{0}};
			size_t nl = 0;
			for (size_t i = 0; i < n && nl < 8; i++)
				for (size_t q = 0; q < r[i]->nseries; q++)
					if (strcmp(r[i]->series[q].name, name) == 0 &&
					    r[i]->series[q].capacity > 0) {
						l[nl].label = r[i]->label;
						series_line(r[i], r[i]->series[q].area,
							    100.0 / (double)r[i]->series[q].capacity, &l[nl]);
						nl++;
					}
			if (!nl)
				continue;
			char title[256];
			const char *hash = strchr(name, '#');
			if (hash)
				snprintf(title, sizeof(title), "Utilisation of ClusterQueue %s: %.*s",
					 hash + 1, (int)(hash - name), name);
			else
				snprintf(title, sizeof(title), "Utilisation: %s, all flavors", name);
			chart(b, title, "hours from the first submission", "% of nominal quota", l, nl);
			lines_free(l, nl);
		}
}

static void cdf_chart(struct sl_buf *b, const struct sl_replay_trace *t, struct sl_replay *const *r,
		      size_t n)
{
	struct line l[8] = {{0}};
	size_t nl = 0;
	for (size_t i = 0; i < n && i < 8; i++) {
		size_t m, pts;
		int64_t *v = rp_waits(t, r[i], 0, -1, &m);
		pts = m < MAXPTS ? m : MAXPTS;
		l[nl].label = r[i]->label;
		l[nl].x = sl_xmalloc((pts + 1) * sizeof(double));
		l[nl].y = sl_xmalloc((pts + 1) * sizeof(double));
		l[nl].n = 0;
		for (size_t p = 1; p <= pts; p++) {
			size_t at = (size_t)((double)p / (double)pts * (double)m) - 1;
			l[nl].x[l[nl].n] = (double)v[at] / 60000.0;
			l[nl].y[l[nl].n++] = (double)(at + 1) / (double)m;
		}
		free(v);
		nl++;
	}
	chart(b, "Wait time, cumulative", "minutes waited", "fraction of started jobs", l, nl);
	lines_free(l, nl);
}

static void depth_chart(struct sl_buf *b, struct sl_replay *const *r, size_t n)
{
	struct line l[8] = {{0}};
	size_t nl = 0;
	for (size_t i = 0; i < n && i < 8; i++) {
		l[nl].label = r[i]->label;
		series_line(r[i], r[i]->depth, 1.0, &l[nl]);
		nl++;
	}
	chart(b, "Queue depth", "hours from the first submission", "jobs waiting", l, nl);
	lines_free(l, nl);
}

char *sl_replay_report_html(const struct sl_replay_trace *t, struct sl_replay *const *r, size_t n)
{
	struct sl_buf *b = sl_buf_new(SIZE_MAX);
	char *text = sl_replay_report_text(t, r, n);
	sl_buf_addstr(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
			 "<title>sluice replay</title><style>body{font-family:sans-serif;margin:2em}"
			 "pre{background:#f6f6f6;padding:1em}figure{margin:1em 0}</style></head>\n"
			 "<body data-charts=\"\">\n<h1>sluice replay</h1>\n");
	util_charts(b, r, n);
	cdf_chart(b, t, r, n);
	depth_chart(b, r, n);
	sl_buf_addstr(b, "<pre>");
	esc(b, text);
	free(text);
	sl_buf_addstr(b, "</pre>\n");
	/* Count the charts whose lines have length: what "drew" means. */
	sl_buf_addstr(b, "<script>\nwindow.addEventListener('load', function () {\n"
			 "  var c = document.querySelectorAll('svg.chart'), ok = 0;\n"
			 "  c.forEach(function (s) {\n"
			 "    var p = s.querySelectorAll('path.series'), len = 0;\n"
			 "    p.forEach(function (e) { len += e.getTotalLength(); });\n"
			 "    if (p.length && len > 0) ok++;\n  });\n"
			 "  document.body.setAttribute('data-charts', ok + '/' + c.length);\n"
			 "});\n</script>\n</body></html>\n");
	char *page = sl_buf_steal(b);
	sl_buf_free(b);
	return page;
}
