// SPDX-License-Identifier: GPL-2.0
/*
 * wakeprobe - where does the time of a wakeup go?
 *
 * Runs a workload that hands wakeups from one thread to another, traces the
 * scheduler and syscalls with BPF while it runs, and reports each phase of
 * the wakeup as a latency distribution; or does the same for a program of
 * the user's, a throughput workload's design, or a recording.
 *
 * This file is the dispatcher: it parses the options, picks the mode that
 * wants them (mode.h) and runs its hooks; a first signal ends the run, a
 * second ends wakeprobe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog.h"
#include "designs.h"
#include "launch.h"
#include "mode.h"
#include "options.h"
#include "outfile.h"
#include "outputs.h"
#include "runner.h"

static void on_signal(int sig)
{
	/* a service's SIGHUP asks for its files, and the service goes on */
	if (sig == SIGHUP && launch_hup_writes) {
		launch_reopen_requested = 1;
		return;
	}
	/*
	 * The first signal ends the run, which still reports and writes its
	 * files whole; a second one ends wakeprobe at once, its files unmade.
	 */
	if (launch_stop_requested) {
		outfile__abandon_all_now();
		runner__kill_all_now();
		_exit(128 + sig);
	}
	launch_stop_requested = sig;
}

/*
 * on_sigpipe - a reader of standard output that went away (| head, | true)
 * must not cost the files: writes to it fail with EPIPE instead, and
 * close_stdout() says so. A handler, not SIG_IGN, which the workload and
 * the traced command would inherit through exec.
 */
static void on_sigpipe(int sig)
{
	(void)sig;
}

static void install_signal_handlers(void)
{
	struct sigaction pipe_sa = { .sa_handler = on_sigpipe, .sa_flags = SA_RESTART };

	/*
	 * SA_RESTART: a first signal while the report is written must not cut
	 * it short (the run is over, there is nothing left to stop); the
	 * session's waits time out every few ms and see the flag anyway.
	 */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&pipe_sa.sa_mask);
	sigaction(SIGPIPE, &pipe_sa, NULL);
}

/*
 * close_stdout - what went to standard output (the text report, an output
 * given as -) must have reached it: a full disk or a reader gone away is
 * one line and exit 1, whatever the run's status was. The files are in
 * place by then.
 */
static int close_stdout(int status)
{
	int err = fflush(stdout) ? -errno : ferror(stdout) ? -EIO : 0;

	/* the first write that failed says why, when the stream kept it */
	if (err && outfile__stdout_error())
		err = outfile__stdout_error();
	if (fclose(stdout) && !err)
		err = -errno;
	if (!err)
		return status;
	fprintf(stderr, "wakeprobe: writing to standard output failed: %s\n", strerror(-err));
	return 1;
}

static void list_workloads(void)
{
	size_t i;

	for (i = 0; i < catalog__count(); i++)
		printf("%-16s %s\n", catalog__at(i)->name, catalog__at(i)->summary);
	printf("\nThroughput workloads (whole designs; --mode M, their own options after --):\n");
	for (i = 0; i < designs__count(); i++) {
		const struct design_desc *d = designs__at(i);

		printf("%-16s %s\n%-16s modes:", d->name, d->summary, "");
		for (size_t m = 0; m < DESIGN_MAX_MODES && d->modes[m]; m++)
			printf(" %s", d->modes[m]);
		printf("\n");
	}
}

/* the modes, asked in this order which one wants the options: the last wants any */
static const struct mode *const modes[] = { &kernel_mode, &replay_mode, &attach_mode, &design_mode, &workload_mode };

/* run_mode - @mode's hooks in order, while each says go on; then its close, whatever happened */
static int run_mode(const struct mode *mode, struct mode_run *m)
{
	int (*const hooks[])(struct mode_run *) = { mode->check, mode->open, mode->measure, mode->report };
	int status = 0;

	m->state = calloc(1, mode->state_size);
	if (!m->state) {
		fprintf(stderr, "wakeprobe: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]) && !status; i++)
		if (hooks[i])
			status = hooks[i](m);
	if (mode->close)
		mode->close(m);
	free(m->state);
	return status ? status : m->status;
}

static int run(int argc, char **argv)
{
	static struct outputs outputs;	/* the signal handler may reach its files */
	struct wp_options o;
	struct mode_run m = { .o = &o, .out = &outputs };
	char msg[PATH_MAX + 128];
	size_t i;

	/* first of all: from here on a Ctrl-C is wakeprobe's to handle, and it cleans up */
	install_signal_handlers();
	switch (options__parse(&o, argc, argv, (int)sysconf(_SC_NPROCESSORS_CONF), stdout, msg, sizeof(msg))) {
	case OPTIONS_DONE:
		return 0;
	case OPTIONS_BAD:
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	case OPTIONS_RUN:
		break;
	}
	launch_hup_writes = o.listen != NULL;
	/* the parser took only what outfile takes: before any file is made */
	if (o.output_mode)
		outfile__set_new_mode((mode_t)o.output_mode);
	m.paths = options__outputs(&o);
	if (outputs__check_files(&m.paths, msg, sizeof(msg))) {
		fprintf(stderr, "wakeprobe: %s\n", msg);
		return 2;
	}
	if (o.list_workloads) {
		list_workloads();
		return 0;
	}
	for (i = 0; !modes[i]->wants(&o); i++)
		;
	return run_mode(modes[i], &m);
}

int main(int argc, char **argv)
{
	/* a stdout that keeps why a write failed: glibc forgets once a later flush has nothing to write */
	outfile__wrap_stdout();
	return close_stdout(run(argc, argv));
}
