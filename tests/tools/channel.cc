// SPDX-License-Identifier: GPL-2.0
/*
 * channel.cc - two threads handing values through a channel of their own,
 * a class template over a std::mutex and a std::condition_variable, as a
 * C++ program would, for the stack tests (tests/system/test_stacks.c).
 * The consumer waits in Channel<long>::recv() for what the producer's
 * Channel<long>::send() puts in, one at a time: the producer blocks while
 * the slot is full, so each value is a wakeup each way. Built with frame
 * pointers and debug information; libstdc++ and libc, whose functions
 * the lock and the condition variable are, have none.
 * Usage: channel [VALUES] (default 2000).
 */
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

template <typename T> class Channel {
public:
	void send(T value)
	{
		std::unique_lock<std::mutex> lock(mutex_);
		emptied_.wait(lock, [this] { return !slot_.has_value(); });
		slot_ = value;
		filled_.notify_one();
	}

	T recv()
	{
		std::unique_lock<std::mutex> lock(mutex_);
		filled_.wait(lock, [this] { return slot_.has_value(); });
		T value = *slot_;
		slot_.reset();
		emptied_.notify_one();
		return value;
	}

private:
	std::mutex mutex_;
	std::condition_variable filled_, emptied_;
	std::optional<T> slot_;
};

/* work - what the consumer does with a value: a little, so that the producer comes to wait */
static long work(long v)
{
	long x = v;

	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005L + 1442695040888963407L;
	return x;
}

int main(int argc, char **argv)
{
	long values = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 2000;
	Channel<long> channel;
	long sum = 0;

	if (values <= 0) {
		std::fprintf(stderr, "usage: channel [VALUES]\n");
		return 2;
	}
	std::thread consumer([&] {
		for (long i = 0; i < values; i++)
			sum += work(channel.recv());
	});
	for (long i = 0; i < values; i++)
		channel.send(i);
	consumer.join();
	return sum == 42;
}
