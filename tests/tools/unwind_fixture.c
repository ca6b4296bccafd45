// SPDX-License-Identifier: GPL-2.0
/*
 * unwind_fixture.c - a program that copies the top of its own stack, as
 * the BPF side copies a sleeping thread's, for the unwinder's unit tests
 * (tests/unit/test_unwind.c). main() calls outer(), which calls middle(),
 * which calls leaf(); leaf() takes its registers and the bytes of the
 * stack from its stack pointer up to where it began (8 KiB at most), and
 * writes them to its standard output, in struct unwind_capture's layout
 * (below), then lives until its standard input ends, for its mappings to
 * be read. Built with frame pointers and debug information, and optimized
 * without frame pointers or debug information as a second copy: CFI
 * unwinds both.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAPTURE_STACK	8192

/* what the fixture writes: the registers in DWARF's order (rax..r15, rip), where the copy begins, its bytes */
struct unwind_capture {
	uint64_t regs[17];
	uint64_t sp;
	uint64_t len;
	uint8_t stack[CAPTURE_STACK];
};

static struct unwind_capture capture;

/* the top of the main thread's stack, as glibc's start found it */
extern void *__libc_stack_end;

/*
 * leaf - take the callee-saved registers, the stack pointer and a pc of
 * its own as they are at the label, which is where the unwinding starts
 */
__attribute__((noinline)) void leaf(struct unwind_capture *c)
{
	uint64_t top;

	__asm__ volatile("lea 1f(%%rip), %%rax\n\t"
			 "mov %%rax, 128(%0)\n\t"
			 "mov %%rbx, 24(%0)\n\t"
			 "mov %%rbp, 48(%0)\n\t"
			 "mov %%rsp, 56(%0)\n\t"
			 "mov %%r12, 96(%0)\n\t"
			 "mov %%r13, 104(%0)\n\t"
			 "mov %%r14, 112(%0)\n\t"
			 "mov %%r15, 120(%0)\n\t"
			 "1:\n\t"
			 :
			 : "r"(c->regs)
			 : "rax", "memory");
	c->sp = c->regs[7];
	/* _start's own frame is at the top: argc, then argv, are where the stack began */
	top = (uint64_t)__libc_stack_end + 64;
	c->len = top - c->sp < CAPTURE_STACK ? top - c->sp : CAPTURE_STACK;
	memcpy(c->stack, (const void *)c->sp, c->len);
}

__attribute__((noinline)) int middle(struct unwind_capture *c, int depth)
{
	leaf(c);
	/* work after the call, so that it is a call and not a jump */
	return depth + (int)(c->len & 1);
}

__attribute__((noinline)) int outer(struct unwind_capture *c)
{
	int r = middle(c, 2);

	return r * 3 + (int)(c->sp & 1);
}

int main(void)
{
	char buf[64];
	int r = outer(&capture);

	if (fwrite(&capture, sizeof(capture), 1, stdout) != 1 || fflush(stdout))
		return 1;
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return r < 0;
}
