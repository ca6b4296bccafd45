// SPDX-License-Identifier: GPL-2.0
/* journal.c - a run's analysis inputs, a FIFO of chunks in memory and past a budget in a file */
#define _GNU_SOURCE	/* O_TMPFILE, mkostemp(), fallocate() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "journal.h"

/* a chunk is one mapping of this size; it is also what one write to the spill file writes */
#define CHUNK_MAP_BYTES	(4u << 20)
/* chunks made ready at most: as many as the largest memory budget holds (session.c) */
#define JOURNAL_READY_MAX	64

enum entry_kind {
	ENTRY_EVENT = 1,
	ENTRY_SAMPLE,
	ENTRY_FDS,
	ENTRY_ADVANCE,
};

struct entry_sample {
	struct wp_sample sample;
	uint64_t t_notify_ns, t_woken_ns, t_wait_start_ns;
};

struct entry_fds {
	int32_t notify_fd, wait_fd;
};

struct entry_advance {
	uint64_t complete_ns, drops;
};

/* each entry: its kind and payload size, then the payload; every size a multiple of 8 */
struct entry_header {
	uint32_t kind;
	uint32_t len;
};

/*
 * A chunk of entries: its own mapping while in memory; once spilled, its
 * bytes lie in the spill file at @at and @data is NULL until it is read
 * back, into the journal's one read buffer.
 */
struct chunk {
	struct chunk *next;
	unsigned char *data;	/* CHUNK_BYTES, 8-byte aligned (a mapping) */
	size_t used;		/* bytes appended */
	size_t read;		/* bytes handed over */
	off_t at;		/* in the spill file; -1: in memory */
};

#define CHUNK_BYTES	CHUNK_MAP_BYTES

struct journal {
	struct chunk *head, *tail;
	unsigned char *ready[JOURNAL_READY_MAX];	/* mapped and faulted in, not yet appended to */
	unsigned int nr_ready;
	unsigned int resident;	/* chunks whose mapping is their own: appended to, or not yet read */
	uint64_t bytes;		/* appended, not yet handed over */
	/* the spill file: -1 without one */
	int spill_fd;
	/* a write to it failed (the disk is full): no more goes there, what is there is read back */
	bool spill_stopped;
	unsigned int max_resident;	/* chunks kept in memory before the next full one is spilled */
	off_t spill_end;
	uint64_t spilled;	/* bytes written to the file in all */
	unsigned char *read_buf;	/* a spilled chunk, read back */
};

/*
 * chunk_map - a new chunk's memory, its pages faulted in now
 * (MAP_POPULATE): one call where touching them would take a fault a page
 */
static unsigned char *chunk_map(void)
{
	void *p = mmap(NULL, CHUNK_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void chunk_unmap(unsigned char *data)
{
	if (data)
		munmap(data, CHUNK_MAP_BYTES);
}

struct journal *journal__new(uint64_t ready_bytes)
{
	struct journal *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->spill_fd = -1;
	/* short of memory the journal starts with fewer ready, and maps the rest as it grows */
	while (j->nr_ready < JOURNAL_READY_MAX && (uint64_t)j->nr_ready * CHUNK_BYTES < ready_bytes) {
		unsigned char *data = chunk_map();

		if (!data)
			break;
		j->ready[j->nr_ready++] = data;
	}
	return j;
}

int journal__spill(struct journal *j, const char *dir, uint64_t memory_bytes)
{
	char path[PATH_MAX];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR)) {
		/* a file system without O_TMPFILE: a named file, unlinked before anything is in it */
		snprintf(path, sizeof(path), "%s/wakeprobe-journal.XXXXXX", dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return -errno;
	if (j->spill_fd >= 0)
		close(j->spill_fd);
	j->spill_fd = fd;
	/* the chunk being appended to, and one more: a chunk is spilled once it is full */
	j->max_resident = memory_bytes / CHUNK_BYTES > 2 ? (unsigned int)(memory_bytes / CHUNK_BYTES) : 2;
	return 0;
}

static void chunks_free(struct chunk *c)
{
	struct chunk *next;

	for (; c; c = next) {
		next = c->next;
		if (c->at < 0)
			chunk_unmap(c->data);
		free(c);
	}
}

void journal__free(struct journal *j)
{
	if (!j)
		return;
	chunks_free(j->head);
	while (j->nr_ready)
		chunk_unmap(j->ready[--j->nr_ready]);
	chunk_unmap(j->read_buf);
	if (j->spill_fd >= 0)
		close(j->spill_fd);
	free(j);
}

/* file_io - all @len bytes of @buf written to @fd at @at (@write), or read from there: 0, or -errno */
static int file_io(int fd, unsigned char *buf, size_t len, off_t at, bool write)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write ? pwrite(fd, buf + done, len - done, at + (off_t)done) :
			    pread(fd, buf + done, len - done, at + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* spill - @c, full and not yet read, into the spill file; 0, or -errno with @c still in memory */
static int spill(struct journal *j, struct chunk *c)
{
	int err = file_io(j->spill_fd, c->data, c->used, j->spill_end, true);

	if (err)
		return err;
	c->at = j->spill_end;
	j->spill_end += (off_t)c->used;
	j->spilled += c->used;
	return 0;
}

/*
 * new_tail - a chunk to append to after the tail, which is full. Past the
 * memory budget the full one goes to the spill file and its memory is the
 * new chunk's; a file that fails (full, gone) is given up, and the journal
 * goes on in memory.
 */
static int new_tail(struct journal *j)
{
	struct chunk *full = j->tail, *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->at = -1;
	if (full && full->read == 0 && journal__spilling(j) && j->resident >= j->max_resident) {
		if (!spill(j, full)) {
			c->data = full->data;
			full->data = NULL;
		} else {
			j->spill_stopped = true;
		}
	}
	if (!c->data) {
		c->data = j->nr_ready ? j->ready[--j->nr_ready] : chunk_map();
		if (!c->data) {
			free(c);
			return -ENOMEM;
		}
		j->resident++;
	}
	if (full)
		full->next = c;
	else
		j->head = c;
	j->tail = c;
	return 0;
}

static int append(struct journal *j, enum entry_kind kind, const void *payload, uint32_t len)
{
	struct entry_header h = { .kind = kind, .len = len };
	size_t need = sizeof(h) + len;
	struct chunk *c = j->tail;
	int err;

	if (!c || CHUNK_BYTES - c->used < need) {
		err = new_tail(j);
		if (err)
			return err;
		c = j->tail;
	}
	memcpy(c->data + c->used, &h, sizeof(h));
	memcpy(c->data + c->used + sizeof(h), payload, len);
	c->used += need;
	j->bytes += need;
	return 0;
}

_Static_assert(sizeof(struct wp_event) % 8 == 0 && sizeof(struct entry_sample) % 8 == 0 &&
	       sizeof(struct entry_fds) % 8 == 0 && sizeof(struct entry_advance) % 8 == 0,
	       "entries stay 8-byte aligned");

int journal__event(struct journal *j, const struct wp_event *e)
{
	return append(j, ENTRY_EVENT, e, sizeof(*e));
}

int journal__sample(struct journal *j, const struct wp_sample *s, uint64_t t_notify_ns, uint64_t t_woken_ns,
		    uint64_t t_wait_start_ns)
{
	struct entry_sample es = { .sample = *s, .t_notify_ns = t_notify_ns, .t_woken_ns = t_woken_ns,
				   .t_wait_start_ns = t_wait_start_ns };

	return append(j, ENTRY_SAMPLE, &es, sizeof(es));
}

int journal__fds(struct journal *j, int notify_fd, int wait_fd)
{
	struct entry_fds ef = { .notify_fd = notify_fd, .wait_fd = wait_fd };

	return append(j, ENTRY_FDS, &ef, sizeof(ef));
}

int journal__advance(struct journal *j, uint64_t complete_ns, uint64_t drops)
{
	struct entry_advance ea = { .complete_ns = complete_ns, .drops = drops };

	return append(j, ENTRY_ADVANCE, &ea, sizeof(ea));
}

uint64_t journal__bytes(const struct journal *j)
{
	return j->bytes;
}

static void hand_over(const struct entry_header *h, const void *p, const struct journal_sink *sink)
{
	const struct entry_sample *es = p;
	const struct entry_fds *ef = p;
	const struct entry_advance *ea = p;

	switch (h->kind) {
	case ENTRY_EVENT:
		sink->event(p, sink->ctx);
		break;
	case ENTRY_SAMPLE:
		sink->sample(&es->sample, es->t_notify_ns, es->t_woken_ns, es->t_wait_start_ns, sink->ctx);
		break;
	case ENTRY_FDS:
		sink->fds(ef->notify_fd, ef->wait_fd, sink->ctx);
		break;
	case ENTRY_ADVANCE:
		sink->advance(ea->complete_ns, ea->drops, sink->ctx);
		break;
	}
}

bool journal__spilling(const struct journal *j)
{
	return j && j->spill_fd >= 0 && !j->spill_stopped;
}

uint64_t journal__spilled(const struct journal *j)
{
	return j->spilled;
}

/* read_back - spilled chunk @c into the read buffer: 0, or -errno */
static int read_back(struct journal *j, struct chunk *c)
{
	int err;

	if (!j->read_buf && !(j->read_buf = chunk_map()))
		return -ENOMEM;
	err = file_io(j->spill_fd, j->read_buf, c->used, c->at, false);
	if (!err)
		c->data = j->read_buf;
	return err;
}

/* spent - @c, the head, is handed over whole: its memory back, its place in the file too */
static void spent(struct journal *j, struct chunk *c)
{
	j->head = c->next;
	if (c->at < 0) {
		chunk_unmap(c->data);
		j->resident--;
	} else if (j->spill_fd >= 0) {
		/* best effort: the disk it took is given back as the run is analysed */
		fallocate(j->spill_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, c->at, (off_t)c->used);
	}
	free(c);
}

int journal__feed(struct journal *j, const struct journal_sink *sink, uint64_t max_bytes)
{
	const struct entry_header *h;
	uint64_t fed = 0;
	struct chunk *c;
	size_t n;
	int err;

	while ((c = j->head) && (fed == 0 || fed < max_bytes)) {
		if (c->read == c->used) {
			/* spent: the tail stays, to be appended to again */
			if (c == j->tail) {
				c->used = c->read = 0;
				break;
			}
			spent(j, c);
			continue;
		}
		if (!c->data && (err = read_back(j, c)))
			return err;
		h = (const void *)(c->data + c->read);
		n = sizeof(*h) + h->len;
		hand_over(h, h + 1, sink);
		c->read += n;
		j->bytes -= n;
		fed += n;
	}
	return 0;
}
