/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_symbolizer.c - code addresses of a live program named by function,
 * source line and object, before and after it exits, and the kernel's from
 * kallsyms text; its data addresses by global and member, heap, thread's
 * stack or anonymous memory; a stripped program's by its dynamic symbols
 * where it exports them, else by object, offset and build ID. The program
 * is tests/tools/symbol_fixture.c, which the build makes next to this
 * binary (symbol_fixture_run.h starts it): with debug information,
 * stripped of every symbol, optimized without frame pointers or debug
 * information, and exporting its symbols then stripped to those; and
 * tests/tools/symbol_fixture_cxx.cc, whose names are mangled. Rust's
 * manglings are held to known names, with no Rust compiler needed.
 *
 * And what a hostile program could make of it: DWARF crafted to divide by
 * zero (tests/tools/crafted_fixture.c), a maps line longer than any
 * buffer, a debug link beside the program, its file swapped for a FIFO;
 * and the child that reads the objects stalled, killed, or told to stop,
 * or naming an object it read to unwind by after more were added.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "object_names.h"
#include "process_ended.h"
#include "sandbox.h"
#include "symbol_fixture_run.h"
#include "symbolizer.h"

TestSuite(symbolizer, .timeout = 30);

/*
 * wait_off_cpu - wait until thread @tid of @pid is off the CPU, blocked,
 * so that the kernel shows its stack pointer: the fixture's waiter is on
 * its way to a mutex it cannot take when the fixture says it
 */
static void wait_off_cpu(pid_t pid, pid_t tid)
{
	char path[64], line[256] = "";

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	for (int tries = 0; tries < 5000; tries++) {
		FILE *f = fopen(path, "re");

		if (!f && (errno == EACCES || errno == EPERM))
			cr_skip_test("%s is for who may ptrace the process: run as root", path);
		cr_assert_not_null(f, "%s: %s", path, strerror(errno));
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if (line[0] && strncmp(line, "running", 7))
			return;
		usleep(1000);
	}
	cr_assert_fail("thread %d stayed on the CPU: '%s'", (int)tid, line);
}

/* line_has - does line @line of @file hold @what? */
static bool line_has(const char *file, int line, const char *what)
{
	char text[512];
	FILE *f = fopen(file, "r");
	bool has = false;

	cr_assert_not_null(f, "cannot read %s, which the debug information names", file);
	for (int i = 1; fgets(text, sizeof(text), f); i++)
		if (i == line) {
			has = strstr(text, what) != NULL;
			break;
		}
	fclose(f);
	return has;
}

static void assert_named(const struct symbol *s, const char *function, const char *path)
{
	cr_assert_str_eq(s->function, function);
	cr_assert_eq(s->function_offset, 0);
	cr_assert_str_eq(s->object, path);
	cr_assert(strstr(s->file, "symbol_fixture.c"), "source file '%s'", s->file);
	/* the entry's line is the function's own, in the file it names: its declarator, or the brace after it */
	cr_assert(line_has(s->file, s->line, function) || line_has(s->file, s->line - 1, function),
		  "%s:%d does not begin %s", s->file, s->line, function);
}

Test(symbolizer, a_live_programs_functions_are_named_with_their_source_lines_and_still_once_it_exits)
{
	struct symbolizer *s = symbolizer__new();
	char path[PATH_MAX];
	struct running r;
	struct symbol a, b, again;
	uint64_t release, wait;

	cr_assert_not_null(s);
	fixture_path("symbol-fixture", path);
	start("symbol-fixture", &r);
	release = said(&r, "producer_release");
	wait = said(&r, "consumer_wait");
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	cr_assert(symbolizer__user(s, r.pid, release, &a));
	cr_assert(symbolizer__user(s, r.pid, wait + 4, &b));
	assert_named(&a, "producer_release", path);
	cr_assert_str_eq(b.function, "consumer_wait");
	cr_assert_eq(b.function_offset, 4);
	cr_assert_eq(b.object_offset - a.object_offset, wait + 4 - release, "the offsets in the file");
	stop(&r);
	/* gone: its snapshot names it all the same */
	cr_assert(symbolizer__user(s, r.pid, release, &again));
	cr_assert_eq(memcmp(&a, &again, sizeof(a)), 0);
	/* an address nothing was mapped at, or a process never seen: not named */
	cr_assert_not(symbolizer__user(s, r.pid, 16, &again));
	cr_assert_not(symbolizer__user(s, r.pid + 1000000, release, &again));
	symbolizer__free(s);
}

/*
 * stripped of every symbol, an address is its object and the offset in
 * it, the same as with them, and the object's build ID, which strip keeps:
 * what names it later
 */
Test(symbolizer, a_stripped_programs_addresses_are_its_object_offset_and_build_id)
{
	struct symbolizer *s = symbolizer__new();
	char path[PATH_MAX], id[129];
	struct running full, stripped;
	struct symbol named, bare;

	fixture_path("symbol-fixture-stripped", path);
	build_id_of(path, id);
	cr_assert_eq(strlen(id), 40, "the fixture has a SHA-1 build ID: '%s'", id);
	start("symbol-fixture", &full);
	start("symbol-fixture-stripped", &stripped);
	cr_assert_eq(symbolizer__snapshot(s, full.pid), 0);
	cr_assert_eq(symbolizer__snapshot(s, stripped.pid), 0);
	cr_assert(symbolizer__user(s, full.pid, said(&full, "producer_release"), &named));
	cr_assert(symbolizer__user(s, stripped.pid, said(&stripped, "producer_release"), &bare));
	stop(&full);
	stop(&stripped);
	cr_assert_str_eq(bare.function, "");
	cr_assert_str_eq(bare.file, "");
	cr_assert_eq(bare.line, 0);
	cr_assert_str_eq(bare.object, path);
	cr_assert_eq(bare.object_offset, named.object_offset);
	cr_assert_null(bare.why_unnamed, "%s", bare.why_unnamed);
	cr_assert_str_eq(bare.build_id, id);
	cr_assert_str_eq(named.build_id, id, "the same build, with its symbols");
	symbolizer__free(s);
}

/*
 * stripped of every symbol but the dynamic ones: what it exports is named
 * by .dynsym (libdwfl reads it where there is no .symtab), functions and
 * globals, without lines; a static function, which it does not export,
 * is its object, offset and build ID
 */
Test(symbolizer, a_stripped_programs_exports_are_named_by_its_dynamic_symbols)
{
	struct symbolizer *s = symbolizer__new();
	char path[PATH_MAX], id[129];
	struct running r;
	struct symbol release, wait, hidden;
	struct data_name lock;

	fixture_path("symbol-fixture-dynsym", path);
	build_id_of(path, id);
	start("symbol-fixture-dynsym", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &release));
	cr_assert(symbolizer__user(s, r.pid, said(&r, "consumer_wait") + 4, &wait));
	cr_assert(symbolizer__user(s, r.pid, said(&r, "waiter_code") + 4, &hidden));
	cr_assert(symbolizer__data(s, r.pid, said(&r, "handoff_queue.lock"), &lock));
	cr_assert_str_eq(release.function, "producer_release", "why: %s", release.why_unnamed);
	cr_assert_eq(release.function_offset, 0);
	cr_assert_str_eq(release.file, "");
	cr_assert_eq(release.line, 0);
	cr_assert_str_eq(wait.function, "consumer_wait");
	cr_assert_eq(wait.function_offset, 4);
	cr_assert_str_eq(hidden.function, "", "a static function is in no dynamic symbol table");
	cr_assert_str_eq(hidden.object, path);
	cr_assert_str_eq(hidden.build_id, id);
	cr_assert_str_eq(lock.what, "handoff_queue+0x8");
	symbolizer__free(s);
}

/*
 * optimized, without frame pointers or debug information: its functions
 * are named by their symbols alone, where the build with debug
 * information names their lines too
 */
Test(symbolizer, functions_without_debug_information_are_named_by_symbol_without_a_line)
{
	struct symbolizer *s = symbolizer__new();
	char path[PATH_MAX], full_path[PATH_MAX];
	struct running bare, full;
	struct symbol release, wait, with_lines;

	fixture_path("symbol-fixture-nofp", path);
	fixture_path("symbol-fixture", full_path);
	start("symbol-fixture-nofp", &bare);
	start("symbol-fixture", &full);
	cr_assert_eq(symbolizer__snapshot(s, bare.pid), 0);
	cr_assert_eq(symbolizer__snapshot(s, full.pid), 0);
	stop(&bare);
	stop(&full);
	cr_assert(symbolizer__user(s, bare.pid, said(&bare, "producer_release"), &release));
	cr_assert(symbolizer__user(s, bare.pid, said(&bare, "consumer_wait") + 1, &wait));
	cr_assert_str_eq(release.function, "producer_release");
	cr_assert_eq(release.function_offset, 0);
	cr_assert_str_eq(release.object, path);
	cr_assert_str_eq(wait.function, "consumer_wait");
	cr_assert_eq(wait.function_offset, 1);
	cr_assert_str_eq(release.file, "");
	cr_assert_eq(release.line, 0);
	cr_assert_str_eq(wait.file, "");
	cr_assert_eq(wait.line, 0);
	cr_assert(symbolizer__user(s, full.pid, said(&full, "consumer_wait"), &with_lines));
	assert_named(&with_lines, "consumer_wait", full_path);
	symbolizer__free(s);
}

/* C++: a function template in a namespace, named as its source spells it, without its parameter types */
Test(symbolizer, a_cxx_programs_functions_are_named_demangled)
{
	struct symbolizer *s = symbolizer__new();
	struct running r;
	struct symbol hand_off;

	start("symbol-fixture-cxx", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "hand_off"), &hand_off));
	cr_assert_str_eq(hand_off.function, "wakeprobe_fixture::hand_off<int>");
	cr_assert_eq(hand_off.function_offset, 0);
	cr_assert(strstr(hand_off.file, "symbol_fixture_cxx.cc"), "source file '%s'", hand_off.file);
	symbolizer__free(s);
}

/*
 * C++ data: the global's name demangled, and down through std::mutex's
 * base class to its member, the pthread_mutex_t union, where it stops
 */
Test(symbolizer, a_cxx_programs_globals_are_named_demangled_down_through_base_classes)
{
	struct symbolizer *s = symbolizer__new();
	struct running r;
	struct data_name lock;

	start("symbol-fixture-cxx", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__data(s, r.pid, said(&r, "box.lock"), &lock));
	cr_assert_str_eq(lock.what, "wakeprobe_fixture::box.lock._M_mutex");
	symbolizer__free(s);
}

/* arrays, not pointers: Criterion copies parameters into each test's process */
struct mangled_case {
	char name[96];
	char readable[64];
	bool demangled;
};

static struct mangled_case mangled_cases[] = {
	/* Rust's legacy mangling: the C++ shape, its hash dropped, its escapes read */
	{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write", true },
	{ "_ZN3std6thread5local17LocalKey$LT$T$GT$4with17h1234567890abcdefE", "std::thread::local::LocalKey<T>::with",
	  true },
	/* Rust's v0 mangling */
	{ "_RNvNtCs1234_7mycrate4sync4wait", "mycrate::sync::wait", true },
	{ "_RNvXs_NtCsd6s0qx1Cyro_6kernel4syncNtB4_4LockNtNtNtCs8cdXKBwcDyn_4core3ops4drop4Drop4drop",
	  "<kernel::sync::Lock as core::ops::drop::Drop>::drop", true },
	/* C++, without the parameter types */
	{ "_ZN2ns5queueIiE4pushERKi", "ns::queue<int>::push", true },
	{ "_ZN17wakeprobe_fixture3boxE", "wakeprobe_fixture::box", true },
	/* C, and what only looks mangled: as they are */
	{ "futex_wait_queue", "futex_wait_queue", false },
	{ "_Zfoo", "_Zfoo", false },
	{ "_Rfoo", "_Rfoo", false },
	{ "i", "i", false },
};

ParameterizedTestParameters(symbolizer, cxx_and_rust_names_are_demangled_and_others_kept)
{
	return cr_make_param_array(struct mangled_case, mangled_cases, sizeof(mangled_cases) / sizeof(mangled_cases[0]));
}

ParameterizedTest(struct mangled_case *c, symbolizer, cxx_and_rust_names_are_demangled_and_others_kept)
{
	char out[160];

	cr_assert_eq(symbolizer__demangle(c->name, out, sizeof(out)), c->demangled, "%s", c->name);
	cr_assert_str_eq(out, c->readable);
}

/* a name longer than the room for it is cut short, not overrun */
Test(symbolizer, a_demangled_name_is_cut_to_its_buffer)
{
	char out[12] = "";

	memset(out, 'x', sizeof(out));
	cr_assert(symbolizer__demangle("_ZN4core3fmt5write17h0123456789abcdefE", out, 10));
	cr_assert_str_eq(out, "core::fmt");
	cr_assert_eq(out[10], 'x');
	cr_assert_not(symbolizer__demangle("futex_wait_queue", out, 6));
	cr_assert_str_eq(out, "futex");
}

/* data_at - name @addr of @pid as data, asserting something was mapped there */
static struct data_name data_at(struct symbolizer *s, pid_t pid, uint64_t addr)
{
	struct data_name d;

	cr_assert(symbolizer__data(s, pid, addr, &d), "nothing at 0x%" PRIx64, addr);
	return d;
}

/* file_size - the size of the file at @path, which .bss reaches past */
static uint64_t file_size(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s", path);
	return (uint64_t)st.st_size;
}

/*
 * with DWARF, a global is named down to the member an address is in:
 * through structures and arrays, not into a union (pthread_mutex_t is
 * glibc's), whether in .bss in the file's last page or past it, in the
 * anonymous mapping after the file's; and still once the program is gone
 */
Test(symbolizer, a_live_programs_globals_are_named_down_to_their_members)
{
	struct symbolizer *s = symbolizer__new();
	char path[PATH_MAX];
	struct running r;
	struct data_name queue, lock, inside, tail, slot, again;
	uint64_t lock_addr;

	fixture_path("symbol-fixture", path);
	start("symbol-fixture", &r);
	lock_addr = said(&r, "handoff_queue.lock");
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	queue = data_at(s, r.pid, said(&r, "handoff_queue"));
	lock = data_at(s, r.pid, lock_addr);
	inside = data_at(s, r.pid, lock_addr + 4);
	tail = data_at(s, r.pid, said(&r, "bulk_queue.tail"));
	slot = data_at(s, r.pid, said(&r, "bulk_queue.tail") - 0x100);
	cr_assert_str_eq(queue.what, "handoff_queue.waiters");
	cr_assert_str_eq(lock.what, "handoff_queue.lock");
	cr_assert_str_eq(inside.what, "handoff_queue.lock+0x4", "no member of a union is named");
	cr_assert_str_eq(tail.what, "bulk_queue.tail");
	cr_assert_str_eq(slot.what, "bulk_queue.slots[65280]");
	cr_assert_str_eq(lock.object, path);
	cr_assert_eq(lock.object_offset - queue.object_offset, lock_addr - said(&r, "handoff_queue"));
	cr_assert_str_eq(tail.object, path);
	cr_assert_gt(tail.object_offset, file_size(path), "bulk_queue.tail is past the file, in the anonymous .bss");
	cr_assert_eq(tail.object_offset - lock.object_offset, said(&r, "bulk_queue.tail") - lock_addr);
	again = data_at(s, r.pid, lock_addr);
	cr_assert_eq(memcmp(&again, &lock, sizeof(lock)), 0);
	symbolizer__free(s);
}

/*
 * without DWARF a global is its symbol and the offset into it; stripped,
 * only its object and the offset in the file, the same as with symbols
 */
Test(symbolizer, globals_without_debug_information_are_a_symbol_and_offset_and_stripped_an_object_offset)
{
	struct symbolizer *s = symbolizer__new();
	char nofp_path[PATH_MAX], stripped_path[PATH_MAX];
	struct running nofp, full, stripped;
	struct data_name lock, tail, bare_lock, bare_tail, named_lock, named_tail;

	fixture_path("symbol-fixture-nofp", nofp_path);
	fixture_path("symbol-fixture-stripped", stripped_path);
	start("symbol-fixture-nofp", &nofp);
	start("symbol-fixture", &full);
	start("symbol-fixture-stripped", &stripped);
	cr_assert_eq(symbolizer__snapshot(s, nofp.pid), 0);
	cr_assert_eq(symbolizer__snapshot(s, full.pid), 0);
	cr_assert_eq(symbolizer__snapshot(s, stripped.pid), 0);
	stop(&nofp);
	stop(&full);
	stop(&stripped);
	lock = data_at(s, nofp.pid, said(&nofp, "handoff_queue.lock"));
	tail = data_at(s, nofp.pid, said(&nofp, "bulk_queue.tail"));
	cr_assert_str_eq(lock.what, "handoff_queue+0x8");
	cr_assert_str_eq(tail.what, "bulk_queue+0x10000");
	cr_assert_str_eq(lock.object, nofp_path);
	cr_assert_str_eq(tail.object, nofp_path);
	named_lock = data_at(s, full.pid, said(&full, "handoff_queue.lock"));
	named_tail = data_at(s, full.pid, said(&full, "bulk_queue.tail"));
	bare_lock = data_at(s, stripped.pid, said(&stripped, "handoff_queue.lock"));
	bare_tail = data_at(s, stripped.pid, said(&stripped, "bulk_queue.tail"));
	cr_assert_str_eq(bare_lock.what, "");
	cr_assert_str_eq(bare_tail.what, "");
	cr_assert_str_eq(bare_lock.object, stripped_path);
	cr_assert_str_eq(bare_tail.object, stripped_path, "its .bss past the file is still the object's");
	cr_assert_eq(bare_lock.object_offset, named_lock.object_offset);
	cr_assert_eq(bare_tail.object_offset, named_tail.object_offset);
	symbolizer__free(s);
}

/* outside objects: the heap, and the main thread's stack, which the kernel names */
Test(symbolizer, a_live_programs_heap_and_main_stack_are_named)
{
	struct symbolizer *s = symbolizer__new();
	struct running r;
	struct data_name heap, stack;
	char expected[64];

	start("symbol-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	heap = data_at(s, r.pid, said(&r, "heap"));
	stack = data_at(s, r.pid, said(&r, "main_stack"));
	cr_assert_str_eq(heap.what, "heap");
	cr_assert_str_eq(heap.object, "");
	cr_assert_eq(heap.object_offset, 0);
	snprintf(expected, sizeof(expected), "stack of thread %d", (int)r.pid);
	cr_assert_str_eq(stack.what, expected);
	cr_assert_str_eq(stack.object, "");
	symbolizer__free(s);
}

/* a second thread's stack is anonymous memory to the maps file: the thread's stack pointer says whose it is */
Test(symbolizer, a_live_threads_stack_is_named_by_its_stack_pointer)
{
	struct symbolizer *s = symbolizer__new();
	struct running r;
	struct data_name stack;
	char expected[64];

	start("symbol-fixture", &r);
	wait_off_cpu(r.pid, (pid_t)said(&r, "waiter"));
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	stack = data_at(s, r.pid, said(&r, "waiter_stack"));
	snprintf(expected, sizeof(expected), "stack of thread %d", (int)said(&r, "waiter"));
	cr_assert_str_eq(stack.what, expected);
	cr_assert_str_eq(stack.object, "");
	symbolizer__free(s);
}

/*
 * maps text: what is not a file is named by what it holds, and a thread's
 * stack by its stack pointer; an anonymous mapping right after an object
 * is its .bss only as far as the object says (one that cannot be read
 * says nothing)
 */
Test(symbolizer, a_maps_texts_other_mappings_are_named_by_what_they_hold)
{
	static const char maps[] =
		"55d0a0000000-55d0a0001000 r--p 00000000 fe:01 123 /nonexistent/prog\n"
		"55d0a0001000-55d0a0003000 rw-p 00001000 fe:01 123 /nonexistent/prog\n"
		"55d0a0003000-55d0a0005000 rw-p 00000000 00:00 0 \n"
		"55d0a1000000-55d0a1021000 rw-p 00000000 00:00 0                          [heap]\n"
		"7f0000000000-7f0000001000 ---p 00000000 00:00 0 \n"
		"7f0000001000-7f0000801000 rw-p 00000000 00:00 0 \n"
		"7f0000801000-7f0000802000 rw-p 00000000 00:00 0                          [anon:ring]\n"
		"7ffd00000000-7ffd00002000 r--p 00000000 00:00 0                          [vvar]\n"
		"7ffe00000000-7ffe00021000 rw-p 00000000 00:00 0                          [stack]\n";
	struct symbolizer *s = symbolizer__new();
	FILE *f = fmemopen((void *)maps, sizeof(maps) - 1, "r");
	struct data_name d;

	cr_assert_eq(symbolizer__snapshot_from(s, 42, f), 0);
	fclose(f);
	d = data_at(s, 42, 0x55d0a0001010);
	cr_assert_str_eq(d.what, "");
	cr_assert_str_eq(d.object, "/nonexistent/prog");
	cr_assert_eq(d.object_offset, 0x1010);
	cr_assert_str_eq(data_at(s, 42, 0x55d0a0003010).what, "anonymous memory");
	cr_assert_str_eq(data_at(s, 42, 0x55d0a0003010).object, "");
	cr_assert_str_eq(data_at(s, 42, 0x55d0a1000010).what, "heap");
	cr_assert_str_eq(data_at(s, 42, 0x7f0000400000).what, "anonymous memory");
	cr_assert_str_eq(data_at(s, 42, 0x7f0000801010).what, "anonymous memory");
	cr_assert_str_eq(data_at(s, 42, 0x7ffd00000010).what, "[vvar]");
	cr_assert_str_eq(data_at(s, 42, 0x7ffe00020000).what, "stack of thread 42");
	cr_assert_not(symbolizer__data(s, 42, 0x10, &d));
	cr_assert_str_eq(d.what, "");
	cr_assert_not(symbolizer__data(s, 43, 0x55d0a1000010, &d), "no snapshot of 43");

	/* thread 44's stack pointer, near its stack's top */
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 44, 0x7f0000800e80), 0);
	cr_assert_str_eq(data_at(s, 42, 0x7f0000400000).what, "stack of thread 44");
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 44, 0x7f0000700000), 0, "said again");
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 45, 0x7f0000700000), -EEXIST);
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 46, 0x7ffe00020000), -EEXIST, "the main thread's");
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 47, 0x55d0a1000100), -ENOENT, "the heap");
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 47, 0x55d0a0001010), -ENOENT, "a file");
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 42, 47, 0x10), -ENOENT);
	cr_assert_eq(symbolizer__snapshot_thread_stack(s, 43, 47, 0x7f0000400000), -ESRCH);
	cr_assert_str_eq(data_at(s, 42, 0x7f0000400000).what, "stack of thread 44");
	/* a snapshot again is a new one: no stack said yet */
	f = fmemopen((void *)maps, sizeof(maps) - 1, "r");
	cr_assert_eq(symbolizer__snapshot_from(s, 42, f), 0);
	fclose(f);
	cr_assert_str_eq(data_at(s, 42, 0x7f0000400000).what, "anonymous memory");
	symbolizer__free(s);
}

/* maps text: code is named in file mappings alone, not in anonymous ones or the kernel's pseudo-files */
Test(symbolizer, only_file_mappings_of_a_maps_text_name_code)
{
	static const char maps[] =
		"55d0a0000000-55d0a0001000 r--p 00000000 fe:01 123 /usr/bin/prog\n"
		"55d0a0001000-55d0a0003000 r-xp 00001000 fe:01 123 /usr/bin/prog\n"
		"55d0a1000000-55d0a1021000 rw-p 00000000 00:00 0 [heap]\n"
		"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
		"7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]\n"
		"7f1000000000-7f1000010000 r-xp 00004000 fe:01 77 /usr/lib/with space.so\n";
	struct symbolizer *s = symbolizer__new();
	FILE *f = fmemopen((void *)maps, sizeof(maps) - 1, "r");
	struct symbol sym;

	cr_assert_eq(symbolizer__snapshot_from(s, 42, f), 0);
	fclose(f);
	cr_assert(symbolizer__user(s, 42, 0x55d0a0001234, &sym));
	cr_assert_str_eq(sym.object, "/usr/bin/prog");
	cr_assert_eq(sym.object_offset, 0x1234);
	cr_assert(symbolizer__user(s, 42, 0x7f1000000010, &sym));
	cr_assert_str_eq(sym.object, "/usr/lib/with space.so");
	cr_assert_eq(sym.object_offset, 0x4010);
	cr_assert_not(symbolizer__user(s, 42, 0x55d0a1000010, &sym), "the heap is no object");
	cr_assert_not(symbolizer__user(s, 42, 0x7ffd00000010, &sym), "nor is the vdso's pseudo-file");
	cr_assert_not(symbolizer__user(s, 42, 0x7f0000000010, &sym));
	symbolizer__free(s);
}

/*
 * kallsyms: the text symbol at or below an address, its module named, its
 * Rust demangled; what a reader without privileges sees is nothing
 */
Test(symbolizer, kernel_addresses_are_named_from_kallsyms_text)
{
	static const char kallsyms[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 t do_one_initcall\n"
		"ffffffff81a00000 D some_data\n"
		"ffffffff81002000 T try_to_wake_up\n"
		"ffffffffc0100000 t virtnet_poll\t[virtio_net]\n"
		"ffffffffc0200000 t _RNvMNtCs1234_5rnull6moduleNtB2_6Device4open\t[rnull]\n"
		"0000000000000000 T hidden_from_users\n";
	struct symbolizer *s = symbolizer__new();
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	struct symbol sym;

	cr_assert_eq(symbolizer__kernel_from(s, f), 5);
	fclose(f);
	cr_assert(symbolizer__kernel(s, 0xffffffff81002010, &sym));
	cr_assert_str_eq(sym.function, "try_to_wake_up");
	cr_assert_eq(sym.function_offset, 0x10);
	cr_assert_str_eq(sym.object, "[kernel]");
	cr_assert(symbolizer__kernel(s, 0xffffffffc0100042, &sym));
	cr_assert_str_eq(sym.function, "virtnet_poll");
	cr_assert_str_eq(sym.object, "[virtio_net]");
	/* the kernel's Rust, by its v0 names */
	cr_assert(symbolizer__kernel(s, 0xffffffffc0200008, &sym));
	cr_assert_str_eq(sym.function, "<rnull::module::Device>::open");
	cr_assert_str_eq(sym.object, "[rnull]");
	cr_assert(symbolizer__kernel(s, 0xffffffff81a00010, &sym));
	cr_assert_str_eq(sym.function, "try_to_wake_up", "data symbols are no code: the text before it");
	cr_assert_not(symbolizer__kernel(s, 0xffffffff80000000, &sym));
	symbolizer__free(s);
}

/*
 * a crafted char[2][2^32][2^32]: the stride of its first dimension is
 * 2^64 bytes, which wrapped to 0 and was divided by (SIGFPE, in root's
 * process); now the walk refuses it, and the global is named with the
 * offset into it
 */
Test(symbolizer, a_crafted_arrays_stride_that_wraps_is_refused_not_divided_by)
{
	struct symbolizer *s = symbolizer__new();
	struct running r;
	struct data_name d;

	start("crafted-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	d = data_at(s, r.pid, said(&r, "crafted_stride") + 5);
	cr_assert_str_eq(d.what, "crafted_stride+0x5");
	cr_assert_null(d.why_unnamed, "%s", d.why_unnamed);
	symbolizer__free(s);
}

static bool element(const uint64_t *count, int dims, uint64_t size, uint64_t offset, uint64_t *index, uint64_t *left)
{
	*left = offset;
	return object_names__array_element(count, dims, size, left, index);
}

/* the element an offset lies in, by arithmetic that cannot wrap: what a count does not say is refused */
Test(symbolizer, array_elements_are_found_by_checked_arithmetic)
{
	uint64_t index[3], left;

	/* short[?][3][4]: its first dimension's count not said, as an extern array's */
	cr_assert(element((uint64_t[]){ 0, 3, 4 }, 3, 2, 1 * 24 + 2 * 8 + 3 * 2 + 1, index, &left));
	cr_assert(index[0] == 1 && index[1] == 2 && index[2] == 3 && left == 1, "[%lu][%lu][%lu]+%lu",
		  (unsigned long)index[0], (unsigned long)index[1], (unsigned long)index[2], (unsigned long)left);
	cr_assert(element((uint64_t[]){ 3 }, 1, 8, 23, index, &left));
	cr_assert(index[0] == 2 && left == 7);
	cr_assert_not(element((uint64_t[]){ 3 }, 1, 8, 24, index, &left), "past its count");
	cr_assert_not(element((uint64_t[]){ 2, 1ULL << 32, 1ULL << 32 }, 3, 1, 5, index, &left),
		      "a stride of 2^64 wraps to 0");
	cr_assert_not(element((uint64_t[]){ 2, 1ULL << 62 }, 2, 8, 5, index, &left), "8 x 2^62 wraps");
	cr_assert_not(element((uint64_t[]){ 4, 0 }, 2, 4, 5, index, &left), "a later count not said");
	cr_assert_not(element((uint64_t[]){ 4 }, 1, 0, 5, index, &left), "elements of no size");
	cr_assert_not(element((uint64_t[]){ 4 }, 0, 4, 5, index, &left), "no dimension");
	cr_assert(element((uint64_t[]){ 1ULL << 62, 4 }, 2, 4, (1ULL << 61) + 20, index, &left), "a large one that fits");
	cr_assert(index[0] == (1ULL << 61) / 16 + 1 && index[1] == 1 && left == 0);
}

/*
 * a maps line of 600 bytes whose path's tail, from its 512th byte on, is
 * written as a mapping of a file of the process's choosing: one mapping,
 * named by its path's end, and nothing where the tail said (fgets() into
 * 512 bytes read that tail as a line of its own)
 */
Test(symbolizer, a_maps_line_past_any_buffer_is_one_mapping_and_its_tail_none)
{
	static const char head[] = "55d0a0000000-55d0a0001000 r-xp 00001000 fe:01 77 ";
	static const char tail[] = "7f0000000000-7f0000100000 r-xp 00000000 fe:01 9 /usr/lib/secret.so";
	char maps[1024], path[700];
	struct symbolizer *s = symbolizer__new();
	struct symbol sym;
	size_t len;
	FILE *f;

	memset(path, 0, sizeof(path));
	strcpy(path, "/tmp/");
	memset(path + 5, 'a', 511 - (sizeof(head) - 1) - 5);
	strcat(path, tail);
	snprintf(maps, sizeof(maps), "%s%s\n", head, path);
	cr_assert(!strncmp(maps + 511, tail, sizeof(tail) - 1), "the tail from byte 511 on");
	f = fmemopen(maps, strlen(maps), "r");
	cr_assert_eq(symbolizer__snapshot_from(s, 42, f), 0);
	fclose(f);
	cr_assert_not(symbolizer__user(s, 42, 0x7f0000000010, &sym), "no mapping where the path's tail said: %s",
		      sym.object);
	cr_assert(symbolizer__user(s, 42, 0x55d0a0000010, &sym));
	len = strlen(sym.object);
	cr_assert(!strncmp(sym.object, "...", 3) && len == sizeof(sym.object) - 1, "'%s'", sym.object);
	cr_assert(!strcmp(sym.object + 3, path + strlen(path) - (len - 3)), "the path's end: '%s'", sym.object);
	cr_assert_eq(sym.object_offset, 0x1010);
	symbolizer__free(s);
}

/* run_quiet - @argv run to its end, which must be status 0 */
static void run_quiet(char *const argv[])
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && !WEXITSTATUS(status), "%s: status 0x%x", argv[0], status);
}

/* a_directory - a new directory under /tmp that anyone may enter, into @dir */
static void a_directory(char dir[64])
{
	strcpy(dir, "/tmp/wakeprobe-symbolizer-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0755), 0);
}

/* serve_code - object 0 of @on asked to name @file_offset as code, into @code: the answer's size */
static int serve_code(struct object_names *on, uint64_t file_offset, struct object_names_code *code)
{
	struct object_names_ask ask = { .kind = OBJECT_NAMES_CODE, .object = 0, .file_offset = file_offset };

	memset(code, 0xa5, sizeof(*code));
	return object_names__serve(on, &ask, sizeof(ask), -1, code, sizeof(*code));
}

/* add_object_as - the file at @path is object @id of @on, as the parent hands it over */
static void add_object_as(struct object_names *on, uint32_t id, const char *path)
{
	struct object_names_add add = { .kind = OBJECT_NAMES_ADD, .object = id };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	cr_assert_geq(fd, 0, "%s", path);
	snprintf(add.path, sizeof(add.path), "%s", path);
	cr_assert_eq(object_names__serve(on, &add, sizeof(add), fd, NULL, 0), 0);
}

/* add_object - the file at @path is object 0 of @on */
static void add_object(struct object_names *on, const char *path)
{
	add_object_as(on, 0, path);
}

/* hex - @len bytes of @bits in hex, into @out */
static void hex(const uint8_t *bits, size_t len, char out[129])
{
	out[0] = '\0';
	for (size_t i = 0; i < len && i < 64; i++)
		snprintf(out + 2 * i, 3, "%02x", bits[i]);
}

/*
 * in the child: a code answer is of one size, and carries the object's
 * build ID whatever the address, one that no segment holds included; an
 * object without one (its note removed), or a file that is no ELF, none
 */
Test(symbolizer, the_childs_code_answer_carries_the_objects_build_id)
{
	struct object_names *on = object_names__new(NULL);
	char stripped[PATH_MAX], dir[64], bare[PATH_MAX], text[PATH_MAX], id[129], got[129];
	struct object_names_code code, no_note, no_elf;
	int got_bare, got_text;
	FILE *f;

	fixture_path("symbol-fixture-stripped", stripped);
	build_id_of(stripped, id);
	add_object(on, stripped);
	cr_assert_eq(serve_code(on, 0x1000, &code), (int)sizeof(code));
	hex(code.build_id, code.build_id_len, got);
	cr_assert_eq(code.build_id_len, 20);
	cr_assert_str_eq(got, id);
	cr_assert_str_eq(code.function, "");
	cr_assert_eq(serve_code(on, 1ULL << 40, &code), (int)sizeof(code), "an offset no segment holds");
	cr_assert_eq(code.build_id_len, 20);
	cr_assert_str_eq(code.function, "");

	a_directory(dir);
	snprintf(bare, sizeof(bare), "%s/no-build-id", dir);
	snprintf(text, sizeof(text), "%s/text", dir);
	run_quiet((char *[]){ "objcopy", "--remove-section", ".note.gnu.build-id", stripped, bare, NULL });
	f = fopen(text, "w");
	cr_assert_not_null(f);
	fputs("no ELF at all\n", f);
	fclose(f);
	add_object(on, bare);
	got_bare = serve_code(on, 0x1000, &no_note);
	add_object(on, text);
	got_text = serve_code(on, 0x10, &no_elf);
	unlink(bare);
	unlink(text);
	rmdir(dir);
	cr_assert_eq(got_bare, (int)sizeof(no_note));
	cr_assert_eq(no_note.build_id_len, 0, "no note, no build ID");
	cr_assert_eq(got_text, (int)sizeof(no_elf));
	cr_assert_eq(no_elf.build_id_len, 0);
	cr_assert_str_eq(no_elf.function, "");
	object_names__free(on);
}

/*
 * a debug file beside the program, which its .gnu_debuglink names, is not
 * read: a process's directory is its own to fill. Its symbols name its
 * functions all the same, without lines.
 */
Test(symbolizer, debug_files_are_looked_for_under_usr_lib_debug_alone)
{
	struct symbolizer *s = symbolizer__new();
	char dir[64], prog[PATH_MAX], debug[PATH_MAX], fixture[PATH_MAX], link[PATH_MAX + 32];
	struct running r;
	struct symbol sym;

	fixture_path("symbol-fixture", fixture);
	a_directory(dir);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(debug, sizeof(debug), "%s/prog.debug", dir);
	snprintf(link, sizeof(link), "--add-gnu-debuglink=%s", debug);
	run_quiet((char *[]){ "objcopy", "--only-keep-debug", fixture, debug, NULL });
	run_quiet((char *[]){ "objcopy", "--strip-debug", link, fixture, prog, NULL });
	start_path(prog, &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &sym));
	unlink(prog);
	unlink(debug);
	rmdir(dir);
	cr_assert_str_eq(sym.function, "producer_release");
	cr_assert_null(sym.why_unnamed);
	cr_assert_str_eq(sym.file, "", "the debug file beside it was read: %s:%d", sym.file, sym.line);
	cr_assert_eq(sym.line, 0);
	symbolizer__free(s);
}

/*
 * in the child: an object read to unwind by, then more objects added (the
 * child's table of them grown), is still named as itself. The debug file
 * of an object without symbols is looked for only when a name is asked of
 * it, by its debug link and the path it was added by, and libdwfl hands
 * that lookup the object the module was read for, which must not have
 * moved. Freed memory is filled, for a pointer left into it to read
 * garbage rather than the object that was there.
 */
Test(symbolizer, an_object_read_to_unwind_by_is_named_after_more_objects_are_added)
{
	static struct object_names_unwind req;
	struct object_names_ask ask = { .kind = OBJECT_NAMES_CODE, .object = 0, .file_offset = 0x1000 };
	char dir[64], prog[PATH_MAX], debug[PATH_MAX], fixture[PATH_MAX], link[PATH_MAX + 32], want[129], got[129];
	struct object_names_frames frames;
	struct object_names_code code;
	struct object_names *on;

	mallopt(M_PERTURB, 0xa5);
	fixture_path("symbol-fixture", fixture);
	a_directory(dir);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(debug, sizeof(debug), "%s/prog.debug", dir);
	snprintf(link, sizeof(link), "--add-gnu-debuglink=%s", debug);
	run_quiet((char *[]){ "objcopy", "--only-keep-debug", fixture, debug, NULL });
	run_quiet((char *[]){ "objcopy", "--strip-all", link, fixture, prog, NULL });
	build_id_of(prog, want);
	on = object_names__new(NULL);
	cr_assert_not_null(on);
	add_object_as(on, 0, prog);
	req.kind = OBJECT_NAMES_UNWIND;
	req.nobjects = 1;
	req.objects[0] = (struct object_names_placed){ .object = 0, .start = 0x555555554000 };
	req.regs[OBJECT_UNWIND_PC] = 0x555555555000;
	req.sp = 0x7ffffffde000;
	req.len = 64;
	cr_assert_eq(object_names__serve(on, &req, sizeof(req), -1, &frames, sizeof(frames)), (int)sizeof(frames));
	cr_assert_geq(frames.n, 1);
	for (uint32_t more = 1; more < 16; more++)
		add_object_as(on, more, prog);
	/* each object is its descriptor now: nothing is left behind if naming crashes */
	unlink(prog);
	unlink(debug);
	rmdir(dir);
	cr_assert_eq(object_names__serve(on, &ask, sizeof(ask), -1, &code, sizeof(code)), (int)sizeof(code));
	hex(code.build_id, code.build_id_len, got);
	cr_assert_str_eq(got, want);
	cr_assert_str_eq(code.function, "", "no symbol of its own, and no debug file under /usr/lib/debug");
	object_names__free(on);
}

/*
 * the program's file unlinked and a FIFO put where the kernel says it
 * was, "prog (deleted)": its names come from the file it maps, which root
 * reaches through map_files; opening the FIFO would have waited for a
 * writer for ever. Without root, no way in but the path, which is gone.
 */
Test(symbolizer, a_program_whose_file_is_swapped_for_a_fifo_is_named_from_the_file_it_maps)
{
	struct symbolizer *s = symbolizer__new();
	char dir[64], prog[PATH_MAX], fifo[PATH_MAX + 16], fixture[PATH_MAX];
	struct running r;
	struct symbol sym;

	fixture_path("symbol-fixture", fixture);
	a_directory(dir);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(fifo, sizeof(fifo), "%s (deleted)", prog);
	run_quiet((char *[]){ "cp", fixture, prog, NULL });
	start_path(prog, &r);
	cr_assert_eq(unlink(prog), 0);
	cr_assert_eq(mkfifo(fifo, 0666), 0);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &sym));
	stop(&r);
	unlink(fifo);
	rmdir(dir);
	cr_assert_str_eq(sym.object, fifo);
	if (geteuid() == 0) {
		cr_assert_str_eq(sym.function, "producer_release", "why: %s", sym.why_unnamed);
		cr_assert(strstr(sym.file, "symbol_fixture.c"));
	} else {
		cr_assert_str_eq(sym.function, "");
		cr_assert_str_eq(sym.why_unnamed, "gone before it was opened");
	}
	symbolizer__free(s);
}

/* libc_text - an address in the libc that process @pid maps, in its code */
static uint64_t libc_text(pid_t pid)
{
	char path[64], line[512];
	unsigned long long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	cr_assert_not_null(f);
	while (!start && fgets(line, sizeof(line), f))
		if (strstr(line, "r-xp") && strstr(line, "/libc.so"))
			sscanf(line, "%llx", &start);
	fclose(f);
	cr_assert_neq(start, 0, "no libc mapped");
	return start + 0x100;
}

/*
 * the child stopped (anyone of its uid can): the object asked of it then
 * is named no further once its time is up, and says why; the child is
 * killed, and a new one names the others
 */
Test(symbolizer, a_stalled_child_leaves_its_object_unnamed_and_a_new_one_names_the_others)
{
	struct symbolizer_opts opts = { .object_ms = 400 };
	struct symbolizer *s = symbolizer__new_with(&opts);
	struct symbol first, libc, wait;
	struct running r;
	pid_t child;

	start("symbol-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &first));
	cr_assert_str_eq(first.function, "producer_release", "%s", first.why_unnamed);
	child = sandbox__pid(symbolizer__sandbox(s));
	cr_assert_gt(child, 0);
	cr_assert_eq(kill(child, SIGSTOP), 0);
	cr_assert(symbolizer__user(s, r.pid, libc_text(r.pid), &libc));
	cr_assert_str_eq(libc.function, "");
	cr_assert_str_eq(libc.why_unnamed, "the symbolizer took too long on it");
	cr_assert(strstr(libc.object, "libc.so"));
	/* another object, asked of a new child, which is handed it again */
	cr_assert(symbolizer__user(s, r.pid, said(&r, "consumer_wait"), &wait));
	cr_assert_str_eq(wait.function, "consumer_wait", "%s", wait.why_unnamed);
	cr_assert_neq(sandbox__pid(symbolizer__sandbox(s)), child);
	/* and the one that stalled it is not asked again */
	cr_assert(symbolizer__user(s, r.pid, libc_text(r.pid) + 0x40, &libc));
	cr_assert_str_eq(libc.why_unnamed, "the symbolizer took too long on it");
	stop(&r);
	symbolizer__free(s);
}

/* a child killed between two names is replaced, and handed again what the next name needs */
Test(symbolizer, a_child_killed_between_names_is_replaced)
{
	struct symbolizer *s = symbolizer__new();
	struct symbol first, wait;
	struct running r;
	pid_t child;

	start("symbol-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &first));
	child = sandbox__pid(symbolizer__sandbox(s));
	cr_assert_eq(kill(child, SIGKILL), 0);
	/* its end come, a zombie of this process's, before the next name */
	for (int i = 0; i < 2000 && !process_ended(child); i++)
		usleep(1000);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "consumer_wait"), &wait));
	cr_assert_str_eq(wait.function, "consumer_wait", "%s", wait.why_unnamed);
	symbolizer__free(s);
}

/* once the flag a signal raises is up, no name is asked: what is left says why, and the kernel is named */
Test(symbolizer, a_signal_stops_the_naming_and_what_is_left_says_so)
{
	static volatile sig_atomic_t stop_flag;
	static const char kallsyms[] = "ffffffff81002000 T try_to_wake_up\n";
	struct symbolizer *s = symbolizer__new();
	struct symbol first, wait, kernel;
	struct data_name lock;
	struct running r;
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");

	symbolizer__kernel_from(s, f);
	fclose(f);
	stop_flag = 0;
	symbolizer__interrupt_on(s, &stop_flag);
	start("symbol-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &first));
	cr_assert_str_eq(first.function, "producer_release");
	stop_flag = SIGTERM;
	cr_assert(symbolizer__user(s, r.pid, said(&r, "consumer_wait"), &wait));
	cr_assert_str_eq(wait.function, "");
	cr_assert_str_eq(wait.why_unnamed, "naming was stopped by a signal");
	cr_assert(symbolizer__data(s, r.pid, said(&r, "handoff_queue.lock"), &lock));
	cr_assert_str_eq(lock.why_unnamed, "naming was stopped by a signal");
	/* what was named before is named still */
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &first));
	cr_assert_str_eq(first.function, "producer_release");
	cr_assert(symbolizer__kernel(s, 0xffffffff81002010, &kernel));
	cr_assert_str_eq(kernel.function, "try_to_wake_up");
	symbolizer__free(s);
}

/* the child that parses the objects: no capability, nobody's uid under root, none of the parent's files */
Test(symbolizer, the_child_that_reads_the_objects_holds_no_privilege)
{
	struct symbolizer *s = symbolizer__new();
	struct sandbox_identity id;
	struct running r;
	struct symbol sym;
	uid_t uid;
	gid_t gid;

	start("symbol-fixture", &r);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &sym));
	cr_assert_eq(sandbox__identity(symbolizer__sandbox(s), &id, 5000), 0);
	sandbox__child_ids(symbolizer__sandbox(s), &uid, &gid);
	cr_assert_eq(id.cap_effective | id.cap_permitted, 0);
	cr_assert_eq(id.no_new_privs, 1);
	cr_assert_eq(id.dumpable, 0);
	cr_assert_eq(id.open_fds, 4);
	cr_assert_eq(id.euid, geteuid() == 0 ? uid : geteuid());
	symbolizer__free(s);
}

/*
 * a program run from a memfd (as runc and sandboxes run themselves): its
 * file is the kernel's shared memory, on a mount no mountinfo lists, and
 * through map_files it is named as any other (its path, "/memfd:NAME
 * (deleted)", opens nothing)
 */
Test(symbolizer, a_program_run_from_a_memfd_is_named)
{
	struct symbolizer *s = symbolizer__new();
	char fixture[PATH_MAX], buf[65536];
	struct running r;
	struct symbol sym;
	int in, mem;
	ssize_t n;

	if (geteuid())
		cr_skip_test("map_files, the only way to a memfd's file, is root's");
	fixture_path("symbol-fixture", fixture);
	in = open(fixture, O_RDONLY | O_CLOEXEC);
	mem = memfd_create("fixture", MFD_CLOEXEC);
	cr_assert(in >= 0 && mem >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		cr_assert_eq(write(mem, buf, (size_t)n), n);
	close(in);
	start_file(NULL, mem, &r);
	close(mem);
	cr_assert_eq(symbolizer__snapshot(s, r.pid), 0);
	stop(&r);
	cr_assert(symbolizer__user(s, r.pid, said(&r, "producer_release"), &sym));
	cr_assert(strstr(sym.object, "memfd:fixture"), "'%s'", sym.object);
	cr_assert_str_eq(sym.function, "producer_release", "why: %s", sym.why_unnamed);
	symbolizer__free(s);
}
