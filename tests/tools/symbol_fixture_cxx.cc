// SPDX-License-Identifier: GPL-2.0
/*
 * symbol_fixture_cxx.cc - a C++ program for the symbolizer's unit tests
 * (tests/unit/test_symbolizer.c): a function template in a namespace and
 * a global there holding a std::mutex, whose names are mangled. It prints
 * "NAME VALUE" lines, then "end", then lives until its standard input
 * ends. Built with debug information.
 */
#include <cstdio>
#include <mutex>
#include <unistd.h>

namespace wakeprobe_fixture {

struct mailbox {
	int letters;
	std::mutex lock;
};

mailbox box;

template <typename T> __attribute__((noinline)) T hand_off(volatile T *slot)
{
	std::lock_guard<std::mutex> hold(box.lock);

	box.letters++;
	return *slot;
}

} // namespace wakeprobe_fixture

int main()
{
	volatile int slot = 1;
	char c;

	std::printf("hand_off %p\nbox.lock %p\nend\n", (void *)&wakeprobe_fixture::hand_off<int>,
		    (void *)&wakeprobe_fixture::box.lock);
	std::fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return wakeprobe_fixture::hand_off(&slot) == 1 ? 0 : 1;
}
