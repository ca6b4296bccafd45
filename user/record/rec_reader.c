// SPDX-License-Identifier: GPL-2.0
/* rec_reader.c - read a record file back, every record checked against the format */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fd_kinds.h"
#include "rec_reader.h"

struct rec_reader {
	FILE *in;
	uint32_t version;		/* the file's format */
	uint64_t offset;		/* of the next byte to read */
	uint64_t run_begin_offset;
	bool in_run;
	bool in_attach;			/* the run is attach mode's: ATTACH_BEGIN to ATTACH_END */
	bool attach_file;		/* an attach run began: the file holds it and nothing else */
	bool lean;			/* ... with the lean engine: its events are that engine's */
	bool lean_beside;		/* ... the full engine with --chains: the lean engine's records beside its own */
	unsigned int runs;
};

/* read_fully - @n bytes, or how many there were before the end of the file */
static size_t read_fully(struct rec_reader *r, void *p, size_t n)
{
	size_t got = fread(p, 1, n, r->in);

	r->offset += got;
	return got;
}

int rec_reader__open(struct rec_reader **out, FILE *in, char *msg, size_t len)
{
	struct rec_file_header fh;
	struct rec_reader *r;
	size_t got;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	r->in = in;
	got = read_fully(r, &fh, sizeof(fh));
	/* nothing read for a reason (a directory on standard input: EISDIR) is not an empty file */
	if (!got && ferror(in)) {
		snprintf(msg, len, "read error at byte offset 0: %s", strerror(errno));
		goto bad;
	}
	if (!got) {
		snprintf(msg, len, "empty file: a recording starts with a %d-byte header at byte offset 0",
			 REC_FILE_HEADER_SIZE);
		goto bad;
	}
	if (got < sizeof(fh.magic) || memcmp(fh.magic, REC_MAGIC, sizeof(fh.magic))) {
		snprintf(msg, len, "not a wakeprobe recording: bad magic at byte offset 0 "
			 "(make one with `wakeprobe record -o FILE`)");
		goto bad;
	}
	if (got < sizeof(fh)) {
		snprintf(msg, len, "truncated file header at byte offset %zu: %zu of %zu bytes", got, got, sizeof(fh));
		goto bad;
	}
	if (fh.version < REC_OLDEST_VERSION || fh.version > REC_VERSION) {
		snprintf(msg, len, "recording format version %" PRIu32 " at byte offset 8: this wakeprobe reads "
			 "versions %d to %d", fh.version, REC_OLDEST_VERSION, REC_VERSION);
		goto bad;
	}
	if (fh.header_size != REC_FILE_HEADER_SIZE) {
		snprintf(msg, len, "file header size %" PRIu32 " at byte offset 12: version %" PRIu32 "'s is %d",
			 fh.header_size, fh.version, REC_FILE_HEADER_SIZE);
		goto bad;
	}
	r->version = fh.version;
	*out = r;
	return 0;
bad:
	free(r);
	return -EINVAL;
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static bool is_bool(uint8_t v)
{
	return v <= 1;
}

/* every entry, also those past the end: the list is stored whole */
static bool syscall_list_ok(const struct syscall_list *list)
{
	for (int i = 0; i < SYSCALL_LIST_MAX; i++)
		if (list->nr[i] < -1 || list->nr[i] >= WP_MAX_SYSCALLS)
			return false;
	return true;
}

/* fd_kind_ok - an fd kind a record of @r's version may carry: since version 11 any, before none */
static bool fd_kind_ok(const struct rec_reader *r, uint8_t kind)
{
	return r->version < 11 ? kind == FD_KIND_UNKNOWN : kind < NR_FD_KINDS;
}

/*
 * check_event - the fields later code indexes with or switches on. What
 * the fields mean is the merger's business; what they may index is ours.
 */
static const char *check_event(const struct rec_reader *r, const struct wp_event *e)
{
	/*
	 * Version 1 knew the types up to WP_EV_MIGRATE, versions 2 and 3 up to
	 * WP_EV_BLOCK, 4 to 7 up to WP_EV_STEAL; 8 records lean attach runs,
	 * 9 lean workload runs too.
	 */
	if (e->type < WP_EV_SWITCH ||
	    e->type >= (r->version == 1 ? WP_EV_WAKER : r->version < 4 ? WP_EV_STEAL :
			r->version < 8 ? WP_EV_LEAN : WP_EV_TYPE_MAX))
		return "event type out of range";
	if (e->cpu >= WP_MAX_CPUS)
		return "event CPU out of range";
	switch (e->type) {
	case WP_EV_LEAN:
		if (!r->lean && !r->lean_beside)
			return "a lean record in a run that is not lean";
		if ((e->lean.flags & (WP_LEAN_NAMES | WP_LEAN_LINK)) == (WP_LEAN_NAMES | WP_LEAN_LINK)) {
			if (r->version < 12)
				return "a chain's link before version 12";
			if (e->lean_link.kind >= WP_LINK_KINDS || e->lean_link.cpu >= WP_MAX_CPUS ||
			    (e->lean_link.nr >= 0 && !fd_kind_ok(r, e->lean_link.fd_kind)))
				return "chain link out of range";
		} else if (e->lean.flags & WP_LEAN_NAMES) {
			if (e->lean_names.waker_class >= WP_WAKER_CLASS_MAX ||
			    e->lean_names.seen & ~(WP_SEEN_WAIT | WP_SEEN_IDLE | (r->version < 10 ? 0 : WP_SEEN_RAISED)))
				return "waker class out of range";
			/* before version 11 a syscall number had the fd kind's byte, a -1's high bytes */
			if ((e->lean_names.waker_nr >= 0 && !fd_kind_ok(r, e->lean_names.waker_fd_kind)) ||
			    (e->lean_names.wait_nr >= 0 && !fd_kind_ok(r, e->lean_names.wait_fd_kind)))
				return "fd kind out of range";
		} else if ((e->lean.flags & WP_LEAN_NAME) && (e->lean.flags & WP_LEAN_FUTEX_KEY) && r->version < 11) {
			return "a futex key before version 11";
		} else if (!(e->lean.flags & WP_LEAN_NAME) &&
			   (e->lean.waking_cpu >= WP_MAX_CPUS || e->lean.wakeup_cpu >= WP_MAX_CPUS ||
			    e->lean.target_cpu >= WP_MAX_CPUS)) {
			return "wakeup CPU out of range";
		}
		break;
	case WP_EV_WAKING:
	case WP_EV_WAKEUP:
		if (e->wake.target_cpu >= WP_MAX_CPUS)
			return "wakeup target CPU out of range";
		break;
	case WP_EV_MIGRATE:
		if (e->migrate.orig_cpu >= WP_MAX_CPUS || e->migrate.dest_cpu >= WP_MAX_CPUS)
			return "migration CPU out of range";
		break;
	case WP_EV_IRQ:
		if (e->irq.kind < WP_IRQ_HARD || e->irq.kind > WP_IRQ_CALL_FUNC || e->irq.exit > 1)
			return "interrupt kind out of range";
		break;
	case WP_EV_WAKER:
		if (e->waker.waker_class < WP_WAKER_SYSCALL || e->waker.waker_class >= WP_WAKER_CLASS_MAX)
			return "waker class out of range";
		if (e->waker.waker_class == WP_WAKER_SYSCALL ? !fd_kind_ok(r, e->waker.fd_kind) :
							       e->waker.irq_kind > WP_IRQ_CALL_FUNC)
			return "waker's irq or fd kind out of range";
		break;
	case WP_EV_BLOCK:
		if (e->block.nr >= 0 && !fd_kind_ok(r, e->block.fd_kind))
			return "fd kind out of range";
		break;
	default:
		break;
	}
	return NULL;
}

/*
 * widen_v1_run_end - a version 1 RUN_END, read into the start of @e, laid out
 * as version 2's: it had 12 drop counters where there is room for
 * WP_EV_TYPE_ROOM now, so what follows them moves up and the new ones are 0.
 */
static void widen_v1_run_end(struct rec_run_end *e)
{
	const size_t v1_counters = 12, room = WP_EV_TYPE_ROOM - v1_counters;
	char *tail = (char *)&e->dropped[v1_counters];
	size_t tail_len = offsetof(struct rec_run_end, steal) - offsetof(struct rec_run_end, tracked_full);

	memmove(tail + room * sizeof(e->dropped[0]), tail, tail_len);
	memset(tail, 0, room * sizeof(e->dropped[0]));
}

/* nul_strings - how many NUL-terminated strings @s holds from its start up to its last NUL */
static uint32_t nul_strings(const char *s, size_t size)
{
	uint32_t n = 0;

	for (size_t i = 0; i < size; i++)
		n += !s[i];
	return n;
}

static const char *check_attach_begin(const struct rec_reader *r, const struct rec_attach_begin *b)
{
	if (r->in_run)
		return r->in_attach ? "a run begins inside another (its ATTACH_END is missing)" :
				      "a run begins inside another (its RUN_END is missing)";
	if (r->runs)
		return "an attach run after another run: an attach recording holds one run";
	if (!terminated(b->version, sizeof(b->version)) || !terminated(b->kernel, sizeof(b->kernel)) ||
	    !terminated(b->machine, sizeof(b->machine)) || !terminated(b->hostname, sizeof(b->hostname)))
		return "unterminated name";
	if (b->nr_pids > REC_MAX_PIDS)
		return "more pids than a run traces";
	for (uint32_t i = 0; i < b->nr_pids; i++)
		if (b->pids[i] <= 0)
			return "pid out of range";
	/* one or the other: the report names the processes, or the command */
	if (!b->nr_pids == !b->nr_args)
		return "neither pids nor a command, or both";
	if (b->flags & ~(r->version < 8 ? REC_ATTACH_FLAGS_V7 : r->version < 10 ? REC_ATTACH_FLAGS_V8 :
			 r->version < 12 ? REC_ATTACH_FLAGS_V10 : REC_ATTACH_FLAGS_V12) ||
	    ((b->flags & (REC_ATTACH_ADAPTIVE | REC_ATTACH_SOFTIRQS)) &&
	     !(b->flags & REC_ATTACH_LEAN)))
		return "flags out of range";
	/* the command's name at least; the strings kept are whole, terminated in args[] */
	if (b->nr_args_kept > b->nr_args || (b->nr_args && !b->nr_args_kept) ||
	    nul_strings(b->args, sizeof(b->args)) < b->nr_args_kept)
		return "command arguments out of range";
	return NULL;
}

/* stopped_by_ok - a run's interruption: a signal (version 6 keeps which) exactly when it was interrupted */
static bool stopped_by_ok(uint8_t interrupted, uint8_t stop_signal)
{
	return stop_signal <= 64 && (interrupted == 1) == (stop_signal != 0);
}

static const char *check_attach_end(const struct rec_reader *r, const struct rec_attach_end *e)
{
	if (!terminated(e->command_exit, sizeof(e->command_exit)))
		return "unterminated text";
	if (!is_bool(e->command_exited) || !is_bool(e->interrupted) || !is_bool(e->timed_out) ||
	    !is_bool(e->duration_reached))
		return "flag out of range";
	if (e->command_pid < 0)
		return "command pid out of range";
	if (r->version >= 6 && !stopped_by_ok(e->interrupted, e->stop_signal))
		return "signal out of range";
	return NULL;
}

/* the records a workload run holds and an attach run does not, and back */
static bool workload_only(enum rec_type t)
{
	return t == REC_CLOCK_PAIR || t == REC_SAMPLE || t == REC_FDS || t == REC_RUN_END;
}

static bool attach_only(enum rec_type t)
{
	return t == REC_FD_KIND || t == REC_ATTACH_END;
}

/* check_steal - the steal of a RUN_END or ATTACH_END */
static const char *check_steal(const struct rec_steal *s)
{
	if (!terminated(s->why_off, sizeof(s->why_off)))
		return "unterminated text";
	if (!is_bool(s->measured) || !is_bool(s->known) || (s->measured && !s->known))
		return "steal flag out of range";
	return NULL;
}

/* check_cost - the cost of a RUN_END or ATTACH_END */
static const char *check_cost(const struct rec_cost *c)
{
	if (!terminated(c->bpf_stats_why_off, sizeof(c->bpf_stats_why_off)))
		return "unterminated text";
	if (!is_bool(c->known) || !is_bool(c->bpf_stats_on))
		return "cost flag out of range";
	if (c->bpf_timed_permille > 1000)
		return "timed share of the runs over 1000 per mille";
	return NULL;
}

/* check_payload - NULL if the record is sound, else what is wrong with it */
static const char *check_payload(struct rec_reader *r, const struct rec_record *rec)
{
	const char *why;

	switch (rec->type) {
	case REC_RUN_BEGIN: {
		const struct rec_run_begin *b = &rec->run_begin;

		if (r->in_run)
			return r->in_attach ? "a run begins inside another (its ATTACH_END is missing)" :
					      "a run begins inside another (its RUN_END is missing)";
		if (r->attach_file)
			return "a workload run in an attach recording, which holds one run";
		if (!terminated(b->workload, sizeof(b->workload)) || !b->workload[0] ||
		    !terminated(b->summary, sizeof(b->summary)) || !terminated(b->version, sizeof(b->version)) ||
		    !terminated(b->kernel, sizeof(b->kernel)) || !terminated(b->machine, sizeof(b->machine)) ||
		    !terminated(b->hostname, sizeof(b->hostname)))
			return "unterminated name";
		if (!syscall_list_ok(&b->notify_syscalls) || !syscall_list_ok(&b->wait_syscalls))
			return "syscall number out of range";
		if (b->wait_end > 1 || !is_bool(b->match_fd) || !is_bool(b->user_only) ||
		    !is_bool(b->notify_optional) || !is_bool(b->traced) || !is_bool(b->new_task) ||
		    b->flags & ~REC_RUN_FLAGS_V9 || ((b->flags & REC_RUN_LEAN) && !b->traced))
			return "flag out of range";
		if (!b->samples || b->waker_cpu < 0 || b->waker_cpu >= WP_MAX_CPUS || b->wakee_cpu < 0 ||
		    b->wakee_cpu >= WP_MAX_CPUS)
			return "run options out of range";
		return NULL;
	}
	case REC_RUN_END: {
		const struct rec_run_end *e = &rec->run_end;

		if (!terminated(e->workload_exit, sizeof(e->workload_exit)) ||
		    !terminated(e->workload_error, sizeof(e->workload_error)))
			return "unterminated text";
		if (!is_bool(e->interrupted) || !is_bool(e->workload_failed) || !is_bool(e->lean_adaptive))
			return "flag out of range";
		if (r->version >= 6 && !stopped_by_ok(e->interrupted, e->stop_signal))
			return "signal out of range";
		if ((why = check_steal(&e->steal)) || (why = check_cost(&e->cost)))
			return why;
		break;
	}
	case REC_EVENT:
		return check_event(r, &rec->event);
	case REC_SAMPLE:
		if (!rec->sample.sample.seq)
			return "sample sequence number 0";
		break;
	case REC_FDS:
		if (rec->fds.notify_fd < -1 || rec->fds.wait_fd < -1)
			return "fd out of range";
		break;
	case REC_ATTACH_BEGIN:
		return check_attach_begin(r, &rec->attach_begin);
	case REC_ATTACH_END:
		if ((why = check_attach_end(r, &rec->attach_end)) || (why = check_steal(&rec->attach_end.steal)) ||
		    (why = check_cost(&rec->attach_end.cost)))
			return why;
		break;
	case REC_FD_KIND:
		if (rec->fd_kind.kind >= NR_FD_KINDS)
			return "fd kind out of range";
		break;
	default:
		break;
	}
	if (!r->in_run)
		return "record outside a run (before its RUN_BEGIN)";
	if (r->in_attach && workload_only(rec->type))
		return "a workload run's record inside an attach run";
	if (!r->in_attach && attach_only(rec->type))
		return "an attach run's record inside a workload run";
	return NULL;
}

/* end_of_file - the file ended where a record header would begin: 0 if that is its end, else why not */
static int end_of_file(const struct rec_reader *r, uint64_t at, char *msg, size_t len)
{
	if (r->in_run) {
		snprintf(msg, len, "truncated at byte offset %" PRIu64 ": the run that begins at byte offset %"
			 PRIu64 " has no %s", at, r->run_begin_offset, r->in_attach ? "ATTACH_END" : "RUN_END");
		return -EINVAL;
	}
	if (!r->runs) {
		snprintf(msg, len, "no run in the recording (it ends at byte offset %" PRIu64 ")", at);
		return -EINVAL;
	}
	return 0;
}

/* check_header - the header @h of the record at @at, @got bytes of it read: its type, size and flags */
static int check_header(const struct rec_reader *r, const struct rec_header *h, size_t got, uint64_t at,
			char *msg, size_t len)
{
	if (ferror(r->in)) {
		snprintf(msg, len, "read error at byte offset %" PRIu64 ": %s", r->offset, strerror(errno));
		return -EIO;
	}
	if (got < sizeof(*h)) {
		snprintf(msg, len, "truncated record header at byte offset %" PRIu64 ": %zu of %zu bytes", at, got,
			 sizeof(*h));
		return -EINVAL;
	}
	if (!h->type || h->type >= REC_TYPE_MAX) {
		snprintf(msg, len, "unknown record type %u at byte offset %" PRIu64, h->type, at);
		return -EINVAL;
	}
	if (!recording__payload_size(r->version, h->type)) {
		snprintf(msg, len, "unknown record type %u at byte offset %" PRIu64 ": %s records came after version %"
			 PRIu32, h->type, at, recording__type_name(h->type), r->version);
		return -EINVAL;
	}
	if (h->length > REC_MAX_PAYLOAD || h->length != recording__payload_size(r->version, h->type)) {
		snprintf(msg, len, "%s record at byte offset %" PRIu64 " says %" PRIu32 " bytes; it has %" PRIu32,
			 recording__type_name(h->type), at, h->length, recording__payload_size(r->version, h->type));
		return -EINVAL;
	}
	if (h->flags) {
		snprintf(msg, len, "%s record at byte offset %" PRIu64 " has flags 0x%x, which version %" PRIu32
			 " does not define", recording__type_name(h->type), at, h->flags, r->version);
		return -EINVAL;
	}
	return 0;
}

/* read_payload - the payload @h announces, into @rec, which it empties first */
static int read_payload(struct rec_reader *r, const struct rec_header *h, uint64_t at, struct rec_record *rec,
			char *msg, size_t len)
{
	size_t got;

	memset(rec, 0, sizeof(*rec));
	rec->offset = at;
	rec->type = h->type;
	got = read_fully(r, &rec->run_begin, h->length);
	if (got == h->length)
		return 0;
	if (ferror(r->in)) {
		snprintf(msg, len, "read error at byte offset %" PRIu64 ": %s", r->offset, strerror(errno));
		return -EIO;
	}
	snprintf(msg, len, "truncated %s record at byte offset %" PRIu64 ": %zu of %" PRIu32 " bytes",
		 recording__type_name(h->type), at, got, h->length);
	return -EINVAL;
}

/*
 * widen_old_payload - a record of an older version as the current one
 * reads it: what it did not have yet, or left as padding, set to what it
 * then meant
 */
static void widen_old_payload(const struct rec_reader *r, struct rec_record *rec)
{
	if (r->version == 1 && rec->type == REC_RUN_END)
		widen_v1_run_end(&rec->run_end);
	/* before version 4 the steal and the cost were not there: known 0 says so */
	if (r->version < 4 && rec->type == REC_RUN_END) {
		memset(&rec->run_end.steal, 0, sizeof(rec->run_end.steal));
		memset(&rec->run_end.cost, 0, sizeof(rec->run_end.cost));
	}
	if (r->version < 4 && rec->type == REC_ATTACH_END) {
		memset(&rec->attach_end.steal, 0, sizeof(rec->attach_end.steal));
		memset(&rec->attach_end.cost, 0, sizeof(rec->attach_end.cost));
	}
	/* before version 4 these bytes were padding, and an event's were never written */
	if (r->version < 4 && rec->type == REC_EVENT &&
	    (rec->event.type == WP_EV_WAKING || rec->event.type == WP_EV_WAKEUP))
		rec->event.wake.flags = 0;
	if (r->version < 4 && rec->type == REC_RUN_BEGIN)
		rec->run_begin.new_task = 0;
	/* before version 9 this byte was padding: a workload run was never lean */
	if (r->version < 9 && rec->type == REC_RUN_BEGIN)
		rec->run_begin.flags = 0;
	/* before version 5 these bytes were padding, and the kernel timed every run */
	if (r->version < 5 && rec->type == REC_RUN_END)
		rec->run_end.cost.bpf_timed_permille = 1000;
	if (r->version < 5 && rec->type == REC_ATTACH_END)
		rec->attach_end.cost.bpf_timed_permille = 1000;
	/* before version 6 this byte was padding: which signal interrupted a run was not kept */
	if (r->version < 6 && rec->type == REC_RUN_END)
		rec->run_end.stop_signal = 0;
	if (r->version < 9 && rec->type == REC_RUN_END)
		rec->run_end.lean_adaptive = 0;
	/* before version 7 these were padding: every attach run timed its syscalls */
	if (r->version < 7 && rec->type == REC_EVENT && rec->event.type == WP_EV_WAKER)
		rec->event.waker.flags = 0;
	if (r->version < 7 && rec->type == REC_EVENT && rec->event.type == WP_EV_BLOCK)
		rec->event.block.flags = 0;
	if (r->version < 7 && rec->type == REC_ATTACH_BEGIN)
		rec->attach_begin.flags = 0;
}

/* note_run_bounds - a run's begin or end record, at @at: where the reader stands between them */
static void note_run_bounds(struct rec_reader *r, const struct rec_record *rec, uint64_t at)
{
	if (rec->type == REC_RUN_BEGIN || rec->type == REC_ATTACH_BEGIN) {
		r->in_run = true;
		r->in_attach = rec->type == REC_ATTACH_BEGIN;
		r->attach_file |= r->in_attach;
		r->lean = r->in_attach ? rec->attach_begin.flags & REC_ATTACH_LEAN : rec->run_begin.flags & REC_RUN_LEAN;
		r->lean_beside = r->in_attach && !r->lean && (rec->attach_begin.flags & REC_ATTACH_CHAINS);
		r->run_begin_offset = at;
	} else if (rec->type == REC_RUN_END || rec->type == REC_ATTACH_END) {
		r->in_run = false;
		r->in_attach = false;
		r->runs++;
	}
}

int rec_reader__next(struct rec_reader *r, struct rec_record *rec, char *msg, size_t len)
{
	struct rec_header h;
	uint64_t at = r->offset;
	const char *why;
	size_t got;
	int err;

	got = read_fully(r, &h, sizeof(h));
	if (!got && feof(r->in))
		return end_of_file(r, at, msg, len);
	err = check_header(r, &h, got, at, msg, len);
	if (!err)
		err = read_payload(r, &h, at, rec, msg, len);
	if (err)
		return err;
	widen_old_payload(r, rec);
	why = check_payload(r, rec);
	if (why) {
		snprintf(msg, len, "bad %s record at byte offset %" PRIu64 ": %s", recording__type_name(h.type), at, why);
		return -EINVAL;
	}
	note_run_bounds(r, rec, at);
	return 1;
}

uint64_t rec_reader__offset(const struct rec_reader *r)
{
	return r->offset;
}

void rec_reader__free(struct rec_reader *r)
{
	free(r);
}
