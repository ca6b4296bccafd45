// SPDX-License-Identifier: GPL-2.0
/* attach_recorder.c - a live attach run into its analysis, and written down as it goes in */
#include <string.h>
#include "attach_recorder.h"
#include "attach_recording.h"

/* recorded_fd_kind - /proc's answer through the cache, as the analysis asks it by default, written down */
static enum fd_kind recorded_fd_kind(uint32_t tgid, int fd, void *ctx)
{
	struct attach_recorder *w = ctx;
	enum fd_kind kind = fd_kinds__cached_now(&w->fds, (pid_t)tgid, fd);
	struct rec_fd_kind r = { .tgid = tgid, .fd = fd, .kind = kind };

	recorder__write(w->rec, REC_FD_KIND, &r, sizeof(r));
	return kind;
}

void attach_recorder__init(struct attach_recorder *w, struct recorder *rec, const struct attach_session_opts *targets,
			   struct attach_analysis_opts *ao)
{
	memset(w, 0, sizeof(*w));
	w->rec = rec;
	w->targets = targets;
	if (!rec)
		return;
	ao->fd_kind = recorded_fd_kind;
	ao->fd_kind_ctx = w;
}

void attach_recorder__begin(struct attach_recorder *w, const struct attach_session_result *res)
{
	struct rec_attach_begin b;

	if (!w->rec)
		return;
	attach_recording__encode_begin(w->targets, res, &b);
	recorder__write(w->rec, REC_ATTACH_BEGIN, &b, sizeof(b));
}

void attach_recorder__event(struct attach_recorder *w, const struct wp_event *e)
{
	attach_analysis__event(w->analysis, e);
	if (w->rec)
		recorder__write(w->rec, REC_EVENT, e, sizeof(*e));
}

void attach_recorder__advance(struct attach_recorder *w, uint64_t complete_ns, uint64_t drops)
{
	struct rec_advance adv = { .complete_ns = complete_ns, .drops = drops };

	attach_analysis__advance(w->analysis, complete_ns, drops);
	if (w->rec)
		recorder__write(w->rec, REC_ADVANCE, &adv, sizeof(adv));
}

void attach_recorder__end(struct attach_recorder *w, const struct attach_session_result *res)
{
	struct rec_attach_end e;

	attach_analysis__end(w->analysis, res->drops_total);
	if (!w->rec)
		return;
	attach_recording__encode_end(res, &e);
	recorder__write(w->rec, REC_ATTACH_END, &e, sizeof(e));
}
