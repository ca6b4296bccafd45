// SPDX-License-Identifier: GPL-2.0
/* recording.c - write and read back the record file (recording.h, docs/recording.md) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "recording.h"

_Static_assert(sizeof(struct rec_file_header) == REC_FILE_HEADER_SIZE, "file header size");
_Static_assert(sizeof(REC_MAGIC) - 1 == sizeof(((struct rec_file_header *)0)->magic), "magic size");
_Static_assert(sizeof(struct rec_header) == 8, "record header size");
/* the layouts are the format: a change here is a new REC_VERSION */
_Static_assert(sizeof(struct rec_run_begin) == 432, "RUN_BEGIN layout");
_Static_assert(sizeof(struct rec_clock_pair) == 24, "CLOCK_PAIR layout");
_Static_assert(sizeof(struct wp_event) == 64, "EVENT layout");
_Static_assert(sizeof(struct rec_sample) == 88, "SAMPLE layout");
_Static_assert(sizeof(struct rec_fds) == 8, "FDS layout");
_Static_assert(sizeof(struct rec_advance) == 16, "ADVANCE layout");
_Static_assert(WP_EV_TYPE_MAX == 12, "RUN_END carries one drop counter per event type");
_Static_assert(sizeof(struct rec_run_end) == 464, "RUN_END layout");

static const uint32_t payload_size[REC_TYPE_MAX] = {
	[REC_RUN_BEGIN] = sizeof(struct rec_run_begin),
	[REC_CLOCK_PAIR] = sizeof(struct rec_clock_pair),
	[REC_EVENT] = sizeof(struct wp_event),
	[REC_SAMPLE] = sizeof(struct rec_sample),
	[REC_FDS] = sizeof(struct rec_fds),
	[REC_ADVANCE] = sizeof(struct rec_advance),
	[REC_RUN_END] = sizeof(struct rec_run_end),
};

const char *rec_type__name(enum rec_type t)
{
	static const char *const names[REC_TYPE_MAX] = {
		[REC_RUN_BEGIN] = "RUN_BEGIN",	 [REC_CLOCK_PAIR] = "CLOCK_PAIR", [REC_EVENT] = "EVENT",
		[REC_SAMPLE] = "SAMPLE",	 [REC_FDS] = "FDS",		  [REC_ADVANCE] = "ADVANCE",
		[REC_RUN_END] = "RUN_END",
	};

	return t > 0 && t < REC_TYPE_MAX ? names[t] : "unknown";
}

struct recorder {
	FILE *out;
	uint64_t bytes;
	int err;		/* the first write error */
};

static void put(struct recorder *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (fwrite(p, 1, n, w->out) != n) {
		w->err = errno ? -errno : -EIO;
		return;
	}
	w->bytes += n;
}

struct recorder *recorder__new(FILE *out)
{
	struct rec_file_header fh = { .version = REC_VERSION, .header_size = REC_FILE_HEADER_SIZE };
	struct recorder *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	memcpy(fh.magic, REC_MAGIC, sizeof(fh.magic));
	put(w, &fh, sizeof(fh));
	return w;
}

int recorder__write(struct recorder *w, enum rec_type type, const void *payload, uint32_t length)
{
	struct rec_header h = { .type = (uint16_t)type, .length = length };

	put(w, &h, sizeof(h));
	put(w, payload, length);
	return w->err;
}

uint64_t recorder__bytes(const struct recorder *w)
{
	return w->bytes;
}

int recorder__finish(struct recorder *w)
{
	int err;

	if (!w)
		return 0;
	if (!w->err && fflush(w->out))
		w->err = errno ? -errno : -EIO;
	err = w->err;
	free(w);
	return err;
}

struct rec_reader {
	FILE *in;
	uint64_t offset;		/* of the next byte to read */
	uint64_t run_begin_offset;
	bool in_run;
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
	if (fh.version != REC_VERSION) {
		snprintf(msg, len, "recording format version %" PRIu32 " at byte offset 8: this wakeprobe reads "
			 "version %d only", fh.version, REC_VERSION);
		goto bad;
	}
	if (fh.header_size != REC_FILE_HEADER_SIZE) {
		snprintf(msg, len, "file header size %" PRIu32 " at byte offset 12: version %d's is %d",
			 fh.header_size, REC_VERSION, REC_FILE_HEADER_SIZE);
		goto bad;
	}
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

/*
 * check_event - the fields later code indexes with or switches on. What
 * the fields mean is the merger's business; what they may index is ours.
 */
static const char *check_event(const struct wp_event *e)
{
	if (e->type < WP_EV_SWITCH || e->type >= WP_EV_TYPE_MAX)
		return "event type out of range";
	if (e->cpu >= WP_MAX_CPUS)
		return "event CPU out of range";
	switch (e->type) {
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
	default:
		break;
	}
	return NULL;
}

/* check_payload - NULL if the record is sound, else what is wrong with it */
static const char *check_payload(struct rec_reader *r, const struct rec_record *rec)
{
	switch (rec->type) {
	case REC_RUN_BEGIN: {
		const struct rec_run_begin *b = &rec->run_begin;

		if (r->in_run)
			return "a run begins inside another (its RUN_END is missing)";
		if (!terminated(b->workload, sizeof(b->workload)) || !b->workload[0] ||
		    !terminated(b->summary, sizeof(b->summary)) || !terminated(b->version, sizeof(b->version)) ||
		    !terminated(b->kernel, sizeof(b->kernel)) || !terminated(b->machine, sizeof(b->machine)) ||
		    !terminated(b->hostname, sizeof(b->hostname)))
			return "unterminated name";
		if (!syscall_list_ok(&b->notify_syscalls) || !syscall_list_ok(&b->wait_syscalls))
			return "syscall number out of range";
		if (b->wait_end > 1 || !is_bool(b->match_fd) || !is_bool(b->user_only) ||
		    !is_bool(b->notify_optional) || !is_bool(b->traced))
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
		if (!is_bool(e->interrupted) || !is_bool(e->workload_failed))
			return "flag out of range";
		break;
	}
	case REC_EVENT:
		return check_event(&rec->event);
	case REC_SAMPLE:
		if (!rec->sample.sample.seq)
			return "sample sequence number 0";
		break;
	case REC_FDS:
		if (rec->fds.notify_fd < -1 || rec->fds.wait_fd < -1)
			return "fd out of range";
		break;
	default:
		break;
	}
	return r->in_run ? NULL : "record outside a run (before its RUN_BEGIN)";
}

int rec_reader__next(struct rec_reader *r, struct rec_record *rec, char *msg, size_t len)
{
	struct rec_header h;
	uint64_t at = r->offset;
	const char *why;
	size_t got;

	got = read_fully(r, &h, sizeof(h));
	if (!got && feof(r->in)) {
		if (r->in_run) {
			snprintf(msg, len, "truncated at byte offset %" PRIu64 ": the run that begins at byte offset %"
				 PRIu64 " has no RUN_END", at, r->run_begin_offset);
			return -EINVAL;
		}
		if (!r->runs) {
			snprintf(msg, len, "no run in the recording (it ends at byte offset %" PRIu64 ")", at);
			return -EINVAL;
		}
		return 0;
	}
	if (ferror(r->in)) {
		snprintf(msg, len, "read error at byte offset %" PRIu64 ": %s", r->offset, strerror(errno));
		return -EIO;
	}
	if (got < sizeof(h)) {
		snprintf(msg, len, "truncated record header at byte offset %" PRIu64 ": %zu of %zu bytes", at, got,
			 sizeof(h));
		return -EINVAL;
	}
	if (!h.type || h.type >= REC_TYPE_MAX) {
		snprintf(msg, len, "unknown record type %u at byte offset %" PRIu64, h.type, at);
		return -EINVAL;
	}
	if (h.length > REC_MAX_PAYLOAD || h.length != payload_size[h.type]) {
		snprintf(msg, len, "%s record at byte offset %" PRIu64 " says %" PRIu32 " bytes; it has %" PRIu32,
			 rec_type__name(h.type), at, h.length, payload_size[h.type]);
		return -EINVAL;
	}
	if (h.flags) {
		snprintf(msg, len, "%s record at byte offset %" PRIu64 " has flags 0x%x, which version %d does not "
			 "define", rec_type__name(h.type), at, h.flags, REC_VERSION);
		return -EINVAL;
	}
	memset(rec, 0, sizeof(*rec));
	rec->offset = at;
	rec->type = h.type;
	got = read_fully(r, &rec->run_begin, h.length);
	if (got < h.length) {
		if (ferror(r->in)) {
			snprintf(msg, len, "read error at byte offset %" PRIu64 ": %s", r->offset, strerror(errno));
			return -EIO;
		}
		snprintf(msg, len, "truncated %s record at byte offset %" PRIu64 ": %zu of %" PRIu32 " bytes",
			 rec_type__name(h.type), at, got, h.length);
		return -EINVAL;
	}
	why = check_payload(r, rec);
	if (why) {
		snprintf(msg, len, "bad %s record at byte offset %" PRIu64 ": %s", rec_type__name(h.type), at, why);
		return -EINVAL;
	}
	if (rec->type == REC_RUN_BEGIN) {
		r->in_run = true;
		r->run_begin_offset = at;
	} else if (rec->type == REC_RUN_END) {
		r->in_run = false;
		r->runs++;
	}
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
