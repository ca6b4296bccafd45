/* SPDX-License-Identifier: GPL-2.0 */
/* folded_attach.h - --folded of an attach run: every pair's combinations of stacks, as folded stacks */
#ifndef WAKEPROBE_FOLDED_ATTACH_H
#define WAKEPROBE_FOLDED_ATTACH_H

#include <stdio.h>
#include "attach_analysis.h"

/* folded_attach__print - every combination of every pair @rep keeps: 0, or -EIO */
int folded_attach__print(FILE *f, const struct attach_report *rep);

#endif /* WAKEPROBE_FOLDED_ATTACH_H */
