// SPDX-License-Identifier: GPL-2.0
/* stop_flags.c - the flags the signal handler sets for a run */
#include "stop_flags.h"

volatile sig_atomic_t launch_stop_requested;
volatile sig_atomic_t launch_hup_writes;
volatile sig_atomic_t launch_reopen_requested;
