# SPDX-License-Identifier: GPL-2.0
# wakeprobe - wakeup latency analyzer.
#
#   make            build ./wakeprobe and the workloads (installs build deps first)
#   make run        build, then trace the eventfd workload and print the report
#   make test       build and run the unit tests, then the system tests (root-only ones skip elsewhere)
#   make bench      tracing overhead: the eventfd workload, then programs of Debian's in attach mode
#   make install    PREFIX=/usr/local DESTDIR= SYSTEMDUNITDIR=$(PREFIX)/lib/systemd/system
#                   SYSUSERSDIR=$(PREFIX)/lib/sysusers.d
#   make vmlinux    regenerate vmlinux/$(ARCH)/vmlinux.h from this kernel's BTF
#   make V=1        show full commands; SANITIZE=1 builds with ASan + UBSan

VERSION := 0.1.0

ifeq ($(V),1)
	Q =
	msg =
else
	Q = @
	msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

SANITIZE ?=
OUTPUT ?= $(if $(SANITIZE),build-san,build)
OBJ := $(abspath $(OUTPUT))

CC ?= gcc
CXX ?= g++
CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
PREFIX ?= /usr/local
DESTDIR ?=
LIBEXECDIR := $(PREFIX)/libexec/wakeprobe
MAN8DIR := $(PREFIX)/share/man/man8
COMPLETIONDIR := $(PREFIX)/share/bash-completion/completions
# systemd reads units from /usr/local/lib/systemd/system and /usr/lib/systemd/system both;
# a distribution's package sets its own (pkg-config --variable=systemdsystemunitdir systemd)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# the unit's user, declared for systemd-sysusers, which reads /usr/local/lib/sysusers.d (systemd
# 252's built-in search path) and /usr/lib/sysusers.d (pkg-config --variable=sysusersdir systemd)
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d

# x86-64 is the one supported architecture: the workloads stamp time with
# rdtscp, and the BPF side reads x86's syscall numbers, orig_ax and the APIC
# vectors' tracepoints (bpf/wakeprobe.h stops any other target too).
HOST_ARCH ?= $(shell uname -m)
ifeq ($(filter x86_64,$(HOST_ARCH))$(filter clean,$(MAKECMDGOALS)),)
$(error wakeprobe runs on x86-64 only, and this machine is $(HOST_ARCH): build and run it on an x86-64 machine)
endif
ARCH := x86
VMLINUX := vmlinux/$(ARCH)/vmlinux.h

CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror
comma := ,
SAN_FLAGS := $(if $(SANITIZE),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
USER_CFLAGS := -std=gnu11 $(CFLAGS) $(WARNINGS) $(SAN_FLAGS) -MMD -MP -I$(OBJ) \
	-DWAKEPROBE_VERSION='"$(VERSION)"' -DWAKEPROBE_LIBEXECDIR='"$(LIBEXECDIR)"'
USER_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror -I$(dir $(VMLINUX)) -Ibpf

# The folders of user/, bottom up (docs/architecture.md), and the folders each one's files may include
# besides their own: a header of any other folder is not found, so the compiler holds the layers.
# bpf/ is the contract with the kernel side, user/contract/ the one with the workloads.
FOLDERS := contract lib core live workload attach design record output service cli mode
SEES_contract :=
SEES_lib := contract
SEES_core := lib contract bpf
SEES_live := core lib contract bpf
SEES_workload := live core lib contract bpf
SEES_attach := live core lib contract bpf
SEES_design := attach live core lib contract bpf
SEES_record := workload attach live core lib contract bpf
SEES_output := record design attach workload live core lib contract bpf
SEES_service := output record design attach workload live core lib contract bpf
SEES_cli := output record design attach workload live core lib contract bpf
SEES_mode := cli service output record design attach workload live core lib contract bpf
# main.c, the dispatcher, over everything
SEES_main := $(FOLDERS) bpf
folder_includes = $(foreach f,$(1),-I$(if $(filter bpf,$(f)),bpf,user/$(f)))
# a source's folder under user/ ("main" for user/ itself), from its path
folder_of = $(or $(filter $(FOLDERS),$(word 2,$(subst /, ,$(1)))),main)
# everything, for the tests, the benchmark and the workloads' harness, which reach across the layers
ALL_INCLUDES := -Iuser $(call folder_includes,$(FOLDERS) bpf) -Iworkloads

# wakeprobe's modules, each folder's; lib/ and contract/ the workloads share
FOLDER_SRCS = $(wildcard user/$(1)/*.c)
LIB_SRCS := $(call FOLDER_SRCS,lib)
CORE_SRCS := $(foreach f,$(FOLDERS),$(call FOLDER_SRCS,$(f)))
WORKLOADS := eventfd futex sem cond pipe sigwait signal-handler spin shmsem thread-start
# the throughput family (workloads/throughput.h): whole hand-off designs timed over repeated
# runs; wakeprobe runs them as user/designs.c lists them, not as paced paths
THROUGHPUT_WORKLOADS := burst-queue spawn executor ipc-stream
# unit tests: pure logic, no root; system tests: they run wakeprobe, the workloads or BPF
UNIT_TEST_SRCS := $(wildcard tests/unit/test_*.c) tests/readback.c
SYSTEM_TEST_SRCS := $(wildcard tests/system/test_*.c) tests/system/helpers.c tests/readback.c

CORE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(CORE_SRCS))
# what wakeprobe's modules link with: libdw names the stacks' code, libiberty (static) demangles
# its C++ and Rust names (lib/symbolizer.c); OpenSSL serves --web-config's TLS and hashes the
# passwords' cache keys (lib/tls_server.c, lib/basic_auth.c), libcrypt checks their bcrypt
CORE_LIBS := -lbpf -ldw -lelf -liberty -lz -lm -lssl -lcrypto -lcrypt -lpthread
LIB_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(LIB_SRCS))
# lib/ as an archive, for the workloads: each links the modules it calls and no others, so that the
# symbolizer's libdw and libiberty stay wakeprobe's alone
LIB_ARCHIVE := $(OBJ)/user/lib/lib.a
WORKLOAD_BINS := $(patsubst %,$(OBJ)/workloads/%,$(WORKLOADS))
THROUGHPUT_BINS := $(patsubst %,$(OBJ)/workloads/%,$(THROUGHPUT_WORKLOADS))
THROUGHPUT_OBJS := $(OBJ)/workloads/throughput.o $(LIB_ARCHIVE)
UNIT_TEST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(UNIT_TEST_SRCS))
SYSTEM_TEST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(SYSTEM_TEST_SRCS))
UNIT_TESTS := $(OBJ)/tests/unit-tests
# cuts a kernel's BTF down to the unit tests' per-CPU fixtures (scripts/capture-percpu-btf.sh)
BTF_SLICE := $(OBJ)/tests/btf-slice
SYMBOL_FIXTURES := $(OBJ)/tests/symbol-fixture $(OBJ)/tests/symbol-fixture-stripped $(OBJ)/tests/symbol-fixture-nofp \
	$(OBJ)/tests/symbol-fixture-dynsym $(OBJ)/tests/symbol-fixture-cxx $(OBJ)/tests/crafted-fixture \
	$(OBJ)/tests/unwind-fixture $(OBJ)/tests/unwind-fixture-nofp
HANDOFF_STACKS := $(OBJ)/tests/handoff-stacks
# the stack tests' C++ program: values through a class template's mutex and condition variable
CHANNEL := $(OBJ)/tests/channel
# the wakeup chain tests' program: a request relayed through three threads (tests/tools/relay.c)
RELAY := $(OBJ)/tests/relay
# the Go stack tests' program: a producer goroutine and a consumer over a channel (tests/tools/gochan.go)
GOCHAN := $(OBJ)/tests/gochan
# Debian's Go (golang-go, the test packages'), not another found first in PATH
GO ?= /usr/bin/go
SYSTEM_TESTS := $(OBJ)/tests/system-tests
SKEL := $(OBJ)/wakeprobe.skel.h
DEPS_STAMP := $(OBJ)/.deps-ok
TEST_DEPS_STAMP := $(OBJ)/.test-deps-ok
# inferno-flamegraph, the system tests' outside reader of folded stacks (scripts/install-inferno.sh)
WAKEPROBE_INFERNO_CACHE ?= /var/cache/wakeprobe/inferno
INFERNO_FLAMEGRAPH := $(WAKEPROBE_INFERNO_CACHE)/bin/inferno-flamegraph

.PHONY: all run test vmtest bench bench-attach fuzz install uninstall vmlinux clean deps inferno
.SECONDARY:
.DEFAULT_GOAL := all

# ./wakeprobe is the normal build's; SANITIZE=1 leaves it alone. $(OBJ)/wakeprobe is named too: every
# target is secondary (.SECONDARY), and one made from a ./wakeprobe already newer would be left unmade
all: $(OBJ)/wakeprobe $(if $(SANITIZE),,wakeprobe) $(WORKLOAD_BINS) $(THROUGHPUT_BINS)

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/setup-deps.sh
	$(call msg,DEPS,setup-deps.sh)
	$(Q)mkdir -p $(@D) && scripts/setup-deps.sh && touch $@

# what only the tests need: python3 parses the JSON outputs, procps finds leftovers, valgrind checks report,
# man-db and groff-base check the man page, prometheus brings promtool, which checks the --prometheus
# files, chromium renders the SVG plot headless, debuginfod serves a stripped program's debug file to
# --debuginfod (tests/system/test_stacks_debuginfod.c), golang-go builds the Go stack tests' program
$(TEST_DEPS_STAMP): scripts/setup-deps.sh
	$(call msg,DEPS,setup-deps.sh test)
	$(Q)mkdir -p $(@D) && scripts/setup-deps.sh test && touch $@

# run by every make test, not kept by a stamp: the folder is outside the build tree, and the script
# sees for itself in a few milliseconds, with no network, that the pinned version is there. The
# base packages bring the C compiler, which cargo links with
inferno: | $(DEPS_STAMP)
	$(Q)WAKEPROBE_INFERNO_CACHE=$(WAKEPROBE_INFERNO_CACHE) scripts/install-inferno.sh

# one object from wakeprobe.bpf.c and the rooms it includes, bpf/*.bpf.h: a change to any remakes it
$(OBJ)/wakeprobe.bpf.o: bpf/wakeprobe.bpf.c $(wildcard bpf/*.bpf.h) bpf/wakeprobe.h $(VMLINUX) | $(DEPS_STAMP)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(SKEL): $(OBJ)/wakeprobe.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name wakeprobe_bpf > $@.tmp && mv $@.tmp $@

# collector.c and program_set.c are the users of the skeleton: the one loads it, the other says which
# of its programs load
$(OBJ)/user/live/collector.o $(OBJ)/user/live/program_set.o: $(SKEL)

# every syscall's name, by number, for the architecture built for: from its kernel headers
# (<asm/unistd.h>, linux-libc-dev), not a table typed by hand; mechanism.c names syscalls by it
SYSCALL_NAMES := $(OBJ)/syscall_names.h
$(SYSCALL_NAMES): | $(DEPS_STAMP)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && printf '#include <asm/unistd.h>\n' | $(CC) -E -dM -x c - | \
		awk '$$1 == "#define" && $$2 ~ /^__NR_/ && $$3 ~ /^[0-9]+$$/ \
			{ sub(/^__NR_/, "", $$2); printf "\t[%s] = \"%s\",\n", $$3, $$2; n++ } \
			END { if (n < 300) exit 1 }' > $@.tmp && mv $@.tmp $@
$(OBJ)/user/core/mechanism.o: $(SYSCALL_NAMES)

# the benchmark's own programs: one that does nothing (bench/nop.bpf.c), for what any program
# costs there, and the least a tracer of this design does (bench/floor.bpf.c)
$(OBJ)/bench/nop.bpf.o $(OBJ)/bench/floor.bpf.o $(OBJ)/bench/wake_count.bpf.o: $(OBJ)/bench/%.bpf.o: bench/%.bpf.c bpf/wakeprobe.h $(VMLINUX) \
		| $(DEPS_STAMP)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OBJ)/bench/nop.skel.h $(OBJ)/bench/floor.skel.h $(OBJ)/bench/wake_count.skel.h: $(OBJ)/bench/%.skel.h: $(OBJ)/bench/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(OBJ)/bench/bench_overhead.o: $(SKEL) $(OBJ)/bench/nop.skel.h $(OBJ)/bench/floor.skel.h
$(OBJ)/bench/wake_count.o: $(OBJ)/bench/wake_count.skel.h

# a module sees its own folder and those its folder's SEES_ names
$(OBJ)/user/%.o: user/%.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(USER_CFLAGS) -I$(<D) \
		$(call folder_includes,$(SEES_$(call folder_of,$<))) -c $< -o $@

# the workloads see what they share with wakeprobe: the contract and lib/
$(OBJ)/workloads/%.o: workloads/%.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(USER_CFLAGS) $(call folder_includes,contract lib) -c $< -o $@

# the tests find readback.h in tests/
$(OBJ)/tests/%.o: tests/%.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(USER_CFLAGS) $(ALL_INCLUDES) -Itests -c $< -o $@

# the benchmark finds the skeletons of its own programs next to its object
$(OBJ)/bench/%.o: bench/%.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(USER_CFLAGS) $(ALL_INCLUDES) -I$(OBJ)/bench -c $< -o $@

$(OBJ)/wakeprobe: $(CORE_OBJS) $(OBJ)/user/main.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ $(CORE_LIBS)

wakeprobe: $(OBJ)/wakeprobe
	$(Q)cp $< $@

$(LIB_ARCHIVE): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OBJ)/workloads/%: $(OBJ)/workloads/%.o $(OBJ)/workloads/common.o $(LIB_ARCHIVE)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ -lpthread -lm

$(THROUGHPUT_BINS): $(OBJ)/workloads/%: $(OBJ)/workloads/%.o $(THROUGHPUT_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ -lpthread -lm

# the unit tests check the throughput harness's statistics too
$(UNIT_TESTS): $(UNIT_TEST_OBJS) $(CORE_OBJS) $(OBJ)/workloads/throughput.o
$(SYSTEM_TESTS): $(SYSTEM_TEST_OBJS) $(CORE_OBJS)
$(UNIT_TESTS) $(SYSTEM_TESTS):
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ -lcriterion $(CORE_LIBS)

# built with the unit tests, whose fixtures it makes, so that it keeps building; they do not run it.
# make test names it too: every target is secondary (.SECONDARY), and an order-only one is left
# unmade while the unit tests are up to date
$(UNIT_TESTS): | $(BTF_SLICE) $(SYMBOL_FIXTURES)
$(BTF_SLICE): $(OBJ)/tests/tools/btf_slice.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ -lbpf -lelf -lz

# the stack tests' program: frame pointers and debug information, so its stacks are whole and named
$(HANDOFF_STACKS): tests/tools/handoff_stacks.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -g -O1 -fno-omit-frame-pointer -pthread $(abspath $<) -o $@

# built as its user builds it to look at it: frame pointers and debug information, no optimizing;
# libstdc++ and libc are Debian's, without frame pointers
$(CHANNEL): tests/tools/channel.cc | $(DEPS_STAMP)
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(@D) && $(CXX) $(WARNINGS) -std=c++17 -g -fno-omit-frame-pointer -pthread $(abspath $<) -o $@

# built as a user builds a small threaded program: nothing for the tracer's sake
$(RELAY): tests/tools/relay.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -g -O1 -pthread $(abspath $<) -o $@

# built as a user builds a Go program, by the distribution's Go, which make test's packages bring:
# its cache, module and configuration directories in the build tree, no toolchain or module fetched
$(GOCHAN): tests/tools/gochan.go | $(TEST_DEPS_STAMP)
	$(call msg,GO,$@)
	$(Q)mkdir -p $(@D) $(OBJ)/go/home && env -u GOROOT HOME=$(OBJ)/go/home XDG_CONFIG_HOME=$(OBJ)/go/home \
		GOCACHE=$(OBJ)/go/cache GOPATH=$(OBJ)/go/path GOENV=off GOFLAGS= GOTOOLCHAIN=local GOPROXY=off \
		$(GO) build -o $@ $(abspath $<)

# the symbolizer's unit tests name its functions and data: with debug information and frame
# pointers, a copy stripped of every symbol, and one built as release builds often are, optimized
# without frame pointers or debug information but not stripped (tests/unit/test_symbolizer.c
# finds them next to itself)
$(OBJ)/tests/symbol-fixture: tests/tools/symbol_fixture.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -g -O0 -fno-omit-frame-pointer -pthread $(abspath $<) -o $@
$(OBJ)/tests/symbol-fixture-stripped: $(OBJ)/tests/symbol-fixture
	$(call msg,STRIP,$@)
	$(Q)strip --strip-all $< -o $@
$(OBJ)/tests/symbol-fixture-nofp: tests/tools/symbol_fixture.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -O2 -fomit-frame-pointer -g0 -pthread $(abspath $<) -o $@
# the unwinder's unit tests unwind a copy of this one's stack: with frame pointers and debug
# information, and optimized without either (tests/unit/test_unwind.c)
$(OBJ)/tests/unwind-fixture: tests/tools/unwind_fixture.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -g -O0 -fno-omit-frame-pointer $(abspath $<) -o $@
$(OBJ)/tests/unwind-fixture-nofp: tests/tools/unwind_fixture.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -O2 -fomit-frame-pointer -g0 $(abspath $<) -o $@
# and one that exports its functions and globals (-rdynamic, as a plugin host does), then stripped of
# every symbol but those: its .dynsym names what it exports
$(OBJ)/tests/symbol-fixture-dynsym: tests/tools/symbol_fixture.c | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -g -O0 -fno-omit-frame-pointer -pthread -rdynamic $(abspath $<) \
		-o $@.full && strip --strip-all $@.full -o $@ && rm -f $@.full
# and a C++ one, whose names are mangled
$(OBJ)/tests/symbol-fixture-cxx: tests/tools/symbol_fixture_cxx.cc | $(DEPS_STAMP)
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(@D) && $(CXX) $(WARNINGS) -g -O0 -fno-omit-frame-pointer -pthread $(abspath $<) -o $@
# and one whose only DWARF is crafted by hand, as a hostile program's could be (the unit tests, and
# the system tests' tests/system/test_stacks_trust.c, which finds it next to $HANDOFF_STACKS)
$(OBJ)/tests/crafted-fixture: tests/tools/crafted_fixture.c tests/tools/crafted_dwarf.S | $(DEPS_STAMP)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(WARNINGS) -O1 -g0 -fno-omit-frame-pointer -pthread $(abspath $^) -o $@

# Workloads are found next to the binary in a build tree, so tests and
# `make run` use the freshly built ones.
run: all
	$(Q)scripts/as-root.sh ./wakeprobe --workload eventfd

# the tests run the binaries of this build (build-san/ with SANITIZE=1), not ./wakeprobe: the
# unit tests as the caller, then the system tests as root, both whatever the first did; the
# target fails if either fails, with what failed repeated at the end of the output. First, no
# module or folder of user/ may depend on itself through others, and no two files share a name
# (scripts/module-cycles.py).
test: all $(UNIT_TESTS) $(BTF_SLICE) $(SYMBOL_FIXTURES) $(HANDOFF_STACKS) $(CHANNEL) $(RELAY) $(GOCHAN) $(SYSTEM_TESTS) $(OBJ)/bench/wake-count $(TEST_DEPS_STAMP) inferno
	$(call msg,CHECK,module and folder cycles in user/)
	$(Q)scripts/module-cycles.py user
	$(Q)WAKEPROBE=$(OBJ)/wakeprobe WAKEPROBE_WORKLOAD_DIR=$(OBJ)/workloads WAKEPROBE_FIXTURES=$(CURDIR)/tests/fixtures \
		WAKE_COUNT=$(OBJ)/bench/wake-count HANDOFF_STACKS=$(OBJ)/tests/handoff-stacks CHANNEL=$(CHANNEL) RELAY=$(RELAY) \
		GOCHAN=$(GOCHAN) \
		INFERNO_FLAMEGRAPH=$(INFERNO_FLAMEGRAPH) \
		WAKEPROBE_SANITIZED=$(SANITIZE) scripts/run-tests.sh $(OBJ)/tests/last-run.log \
		$(UNIT_TESTS) --verbose=0 -j1 :: scripts/as-root.sh $(SYSTEM_TESTS) --verbose=0 -j1

$(OBJ)/bench/bench-overhead: $(OBJ)/bench/bench_overhead.o $(CORE_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ $(CORE_LIBS)

# a witness to hold wakeprobe's wakeup counts against: wake-count SECONDS PID... (docs/bench.md)
$(OBJ)/bench/wake-count: $(OBJ)/bench/wake_count.o $(OBJ)/user/lib/parse.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_LDFLAGS) $^ -o $@ -lbpf -lelf -lz

# BENCH_ARGS: paced rounds, flood rounds, paced samples, flood samples (default 15 21 1000 30000);
# ATTACH_BENCH_ARGS: bench/attach_bench.py's (--rounds, --pairs, --attach-seconds)
bench: all $(OBJ)/bench/bench-overhead $(OBJ)/bench/wake-count
	$(Q)scripts/setup-deps.sh bench
	$(Q)WAKEPROBE_WORKLOAD_DIR=$(OBJ)/workloads scripts/as-root.sh $(OBJ)/bench/bench-overhead $(BENCH_ARGS)
	$(Q)WAKEPROBE=$(OBJ)/wakeprobe WAKE_COUNT=$(OBJ)/bench/wake-count scripts/as-root.sh \
		python3 bench/attach_bench.py $(ATTACH_BENCH_ARGS)

# the smoke suite in Debian's 6.1 and 6.12 booted under QEMU, in its 5.10 below the floor, and on
# this kernel (scripts/vmtest.sh; VMTEST_KERNELS picks some: make vmtest VMTEST_KERNELS="6.12 host")
vmtest: all $(UNIT_TESTS) $(SYSTEM_TESTS) $(OBJ)/bench/wake-count
	$(Q)VMTEST_BUILD=$(OBJ) scripts/as-root.sh scripts/vmtest.sh $(VMTEST_KERNELS)

# the second part of the benchmark alone: attach mode on programs of Debian's, and workload mode's bounds
bench-attach: all $(OBJ)/bench/wake-count
	$(Q)scripts/setup-deps.sh bench
	$(Q)WAKEPROBE=$(OBJ)/wakeprobe WAKE_COUNT=$(OBJ)/bench/wake-count scripts/as-root.sh \
		python3 bench/attach_bench.py $(ATTACH_BENCH_ARGS)

# libFuzzer harnesses (clang): the record-file reader with the replay behind it, the options, and the
# JSON reader (with json_writer, to write what it read and read it again).
# FUZZ_SECONDS per harness; the corpus grows in $(OBJ)/fuzz/ and starts from tests/fuzz/seeds
# and the recorded fixtures.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all $(ALL_INCLUDES) -I$(OBJ) -DWAKEPROBE_VERSION='"$(VERSION)"' \
	-DWAKEPROBE_LIBEXECDIR='"$(LIBEXECDIR)"'
# the record reader reaches the analyses and reports of both kinds of run, and through them most of
# wakeprobe: the harness links every module but main.c, with wakeprobe's own libraries
FUZZ_RECORD_SRCS := $(CORE_SRCS)
FUZZ_OPTIONS_SRCS := user/cli/options.c user/cli/option_checks.c user/workload/catalog.c user/design/designs.c user/lib/parse.c \
	user/output/output_paths.c user/lib/http_server.c user/lib/http_conns.c user/lib/http_request.c user/lib/tls_server.c \
	user/lib/basic_auth.c user/lib/web_config.c
FUZZ_JSON_SRCS := user/lib/json_reader.c user/lib/json_writer.c user/lib/decimal.c
FUZZ_DEPS_STAMP := $(OBJ)/.fuzz-deps-ok

$(FUZZ_DEPS_STAMP): scripts/setup-deps.sh
	$(call msg,DEPS,setup-deps.sh fuzz)
	$(Q)mkdir -p $(@D) && scripts/setup-deps.sh fuzz && touch $@

$(OBJ)/fuzz/fuzz-record: tests/fuzz/fuzz_record.c $(FUZZ_RECORD_SRCS) $(wildcard user/*/*.h bpf/*.h) \
		$(SYSCALL_NAMES) $(SKEL) | $(FUZZ_DEPS_STAMP)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ $(CORE_LIBS)

$(OBJ)/fuzz/fuzz-options: tests/fuzz/fuzz_options.c $(FUZZ_OPTIONS_SRCS) $(wildcard user/*/*.h) \
		| $(FUZZ_DEPS_STAMP)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ -lssl -lcrypto -lcrypt -lpthread

$(OBJ)/fuzz/fuzz-json: tests/fuzz/fuzz_json.c $(FUZZ_JSON_SRCS) user/lib/json_reader.h user/lib/json_writer.h \
		| $(FUZZ_DEPS_STAMP)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(FUZZ_CFLAGS) $(filter %.c,$^) -o $@ -lm

fuzz: $(OBJ)/fuzz/fuzz-record $(OBJ)/fuzz/fuzz-options $(OBJ)/fuzz/fuzz-json
	$(Q)mkdir -p $(OBJ)/fuzz/corpus-record $(OBJ)/fuzz/corpus-options $(OBJ)/fuzz/corpus-json
	$(Q)cp tests/fixtures/untraced.wpr tests/fixtures/lost.wpr tests/fuzz/seeds/record/*.wpr $(OBJ)/fuzz/corpus-record/
	$(Q)cd $(OBJ)/fuzz && ./fuzz-record -max_total_time=$(FUZZ_SECONDS) -max_len=40000 -timeout=10 \
		-print_final_stats=1 corpus-record 2>&1 | grep -E '^(Done|stat::number_of_executed_units|==|SUMMARY|INFO: seed)' 
	$(Q)cd $(OBJ)/fuzz && ./fuzz-options -max_total_time=$(FUZZ_SECONDS) -max_len=512 -timeout=10 \
		-print_final_stats=1 corpus-options $(CURDIR)/tests/fuzz/seeds/options 2>&1 | \
		grep -E '^(Done|stat::number_of_executed_units|==|SUMMARY|INFO: seed)'
	$(Q)cp tests/fixtures/throughput-burst-queue.json $(OBJ)/fuzz/corpus-json/
	$(Q)cd $(OBJ)/fuzz && ./fuzz-json -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
		-print_final_stats=1 corpus-json $(CURDIR)/tests/fuzz/seeds/json 2>&1 | \
		grep -E '^(Done|stat::number_of_executed_units|==|SUMMARY|INFO: seed)'

# the man page goes in as it is kept, uncompressed: man reads it so, and a package compresses its own.
# The unit's ExecStart names the binary this install puts in: its /usr/local/bin/ becomes PREFIX's
# bin/, and the check after the sed fails the install should the unit's ExecStart line change form.
# The unit runs as the user wakeprobe.sysusers declares: installed onto the running system (no
# DESTDIR), systemd-sysusers makes it now, where there is one; a package's postinst does it for a
# staged tree (dh_installsysusers)
install: all
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MAN8DIR) $(DESTDIR)$(COMPLETIONDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSUSERSDIR)
	$(Q)install -m 0755 $(OBJ)/wakeprobe $(DESTDIR)$(PREFIX)/bin/wakeprobe
	$(Q)install -m 0755 $(WORKLOAD_BINS) $(THROUGHPUT_BINS) $(DESTDIR)$(LIBEXECDIR)/
	$(Q)install -m 0644 docs/wakeprobe.8 $(DESTDIR)$(MAN8DIR)/wakeprobe.8
	$(Q)install -m 0644 completions/wakeprobe $(DESTDIR)$(COMPLETIONDIR)/wakeprobe
	$(Q)sed 's|^ExecStart=/usr/local/bin/wakeprobe |ExecStart=$(PREFIX)/bin/wakeprobe |' dist/wakeprobe.service \
		> $(OBJ)/wakeprobe.service && grep -q '^ExecStart=$(PREFIX)/bin/wakeprobe ' $(OBJ)/wakeprobe.service
	$(Q)install -m 0644 $(OBJ)/wakeprobe.service $(DESTDIR)$(SYSTEMDUNITDIR)/wakeprobe.service
	$(Q)install -m 0644 dist/wakeprobe.sysusers $(DESTDIR)$(SYSUSERSDIR)/wakeprobe.conf
	$(Q)if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers >/dev/null; then \
		systemd-sysusers $(SYSUSERSDIR)/wakeprobe.conf; fi

# exactly what install put: the shared directories stay, and wakeprobe's own goes once empty. The
# user stays, as a package's does: files it owns may outlive it, and a uid given again would own them
uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(PREFIX)/bin/wakeprobe $(DESTDIR)$(MAN8DIR)/wakeprobe.8 $(DESTDIR)$(COMPLETIONDIR)/wakeprobe \
		$(DESTDIR)$(SYSTEMDUNITDIR)/wakeprobe.service $(DESTDIR)$(SYSUSERSDIR)/wakeprobe.conf $(addprefix $(DESTDIR)$(LIBEXECDIR)/,$(WORKLOADS) $(THROUGHPUT_WORKLOADS))
	$(Q)if [ -d $(DESTDIR)$(LIBEXECDIR) ]; then rmdir --ignore-fail-on-non-empty $(DESTDIR)$(LIBEXECDIR); fi

vmlinux: | $(DEPS_STAMP)
	$(call msg,GEN,$(VMLINUX))
	$(Q)mkdir -p $(dir $(VMLINUX))
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $(VMLINUX).tmp && mv $(VMLINUX).tmp $(VMLINUX)

clean:
	$(call msg,CLEAN,build build-san)
	$(Q)rm -rf build build-san wakeprobe

-include $(wildcard $(OBJ)/user/*.d $(OBJ)/user/*/*.d $(OBJ)/workloads/*.d $(OBJ)/tests/*.d $(OBJ)/tests/unit/*.d $(OBJ)/tests/tools/*.d \
	$(OBJ)/tests/system/*.d $(OBJ)/bench/*.d)
