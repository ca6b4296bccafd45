// SPDX-License-Identifier: GPL-2.0
/* journal.c - a run's analysis inputs in memory, a FIFO of chunks */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "journal.h"

/* a chunk is one mapping of this size, its header included */
#define CHUNK_MAP_BYTES	(4u << 20)

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

struct chunk {
	struct chunk *next;
	size_t used;		/* bytes appended */
	size_t read;		/* bytes handed over */
	_Alignas(8) unsigned char data[];
};

#define CHUNK_BYTES	(CHUNK_MAP_BYTES - sizeof(struct chunk))

struct journal {
	struct chunk *head, *tail;
	struct chunk *ready;	/* mapped and faulted in, not yet appended to */
	uint64_t bytes;		/* appended, not yet handed over */
};

/*
 * chunk_map - a new chunk, its pages faulted in now (MAP_POPULATE): one
 * call where touching them would take a fault a page
 */
static struct chunk *chunk_map(void)
{
	struct chunk *c = mmap(NULL, CHUNK_MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return c == MAP_FAILED ? NULL : c;
}

static void chunks_unmap(struct chunk *c)
{
	struct chunk *next;

	for (; c; c = next) {
		next = c->next;
		munmap(c, CHUNK_MAP_BYTES);
	}
}

struct journal *journal__new(uint64_t ready_bytes)
{
	struct journal *j = calloc(1, sizeof(*j));
	uint64_t k;

	if (!j)
		return NULL;
	/* short of memory the journal starts with fewer ready, and maps the rest as it grows */
	for (k = 0; k * CHUNK_BYTES < ready_bytes; k++) {
		struct chunk *c = chunk_map();

		if (!c)
			break;
		c->next = j->ready;
		j->ready = c;
	}
	return j;
}

void journal__free(struct journal *j)
{
	if (!j)
		return;
	chunks_unmap(j->head);
	chunks_unmap(j->ready);
	free(j);
}

static int append(struct journal *j, enum entry_kind kind, const void *payload, uint32_t len)
{
	struct entry_header h = { .kind = kind, .len = len };
	size_t need = sizeof(h) + len;
	struct chunk *c = j->tail;

	if (!c || CHUNK_BYTES - c->used < need) {
		c = j->ready;
		if (c)
			j->ready = c->next;
		else if (!(c = chunk_map()))
			return -ENOMEM;
		c->next = NULL;
		c->used = c->read = 0;
		if (j->tail)
			j->tail->next = c;
		else
			j->head = c;
		j->tail = c;
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

void journal__feed(struct journal *j, const struct journal_sink *sink, uint64_t max_bytes)
{
	const struct entry_header *h;
	uint64_t fed = 0;
	struct chunk *c;
	size_t n;

	while ((c = j->head) && (fed == 0 || fed < max_bytes)) {
		if (c->read == c->used) {
			/* spent: the tail stays, to be appended to again */
			if (c == j->tail) {
				c->used = c->read = 0;
				break;
			}
			j->head = c->next;
			munmap(c, CHUNK_MAP_BYTES);
			continue;
		}
		h = (const void *)(c->data + c->read);
		n = sizeof(*h) + h->len;
		hand_over(h, h + 1, sink);
		c->read += n;
		j->bytes -= n;
		fed += n;
	}
}
