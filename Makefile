# Top-level Makefile: build, boot and test our out-of-tree f2fs module.
#
#   make check [T='pattern ...'] [F2FS=stock]   run the guest tests
#   make check-status [KERNEL=debug]            each test's last result, time and revision
#   make run [CMD='...'] [F2FS=stock] [DEMO=1]  shell (or one command) in a guest
#   make bench [FS=..] [ROUNDS=2] [FULL=1] [THROTTLE=10M]  kernel tree: ours, stock, ext4, btrfs, nilfs2
#   make aging                                  full aging sweep (test 60) and full-device matrix (62)
#   make crash-test [CUTS=30] [SEED=N] [WORKLOAD=heavy|light]  power cuts (QEMU killed mid-fsync)
#   make canon [SEED=N]                         canonical images, full form of test 41 (1 GiB)
#   make stress [SEED=N] [OPS=100000]           fsstress: 20 processes x OPS ops, ours + stock
#   make fuzz [N=5000] [SEED=S] [MODULE=ours|stock|both]  image fuzzer, long form of test 25
#   make io-errors [SEED=N]                     I/O errors at chosen moments, long form of test 66
#   make bench-gc | bench-trace | bench-tools   GC write amplification, trace event cost, tool CPU
#   make bench-fsync                            fsync latency: ours, stock f2fs, ext4
#   make lint                                   checkpatch --strict and kernel-doc
#   make record [SECS=120] [F2FS=stock]         record the tools' JSON during the DEMO workload
#   make dashboard [RECORDING=dir]              render a recording: build/dashboard/index.html
#   make debug-kernel                           build the debug guest kernel (KASAN, lockdep, kmemleak...)
#   make check|run|initramfs KERNEL=debug       the same on the debug kernel (README "Debug kernel")
#   make setup | module | bpf-tools | initramfs | clean | distclean
#
# Everything generated goes to build/.  KVM=1 uses -accel kvm, V=1 shows
# the guest console live.

SHELL := /bin/bash
ROOT  := $(CURDIR)
BUILD := $(ROOT)/build
F2FS  ?= ours
T     ?=
CMD   ?=
KVER   = $(shell cat $(BUILD)/kver 2>/dev/null)
KDIR   = /usr/src/linux-headers-$(KVER)
# KERNEL=debug: the debug kernel of scripts/debug-kernel.sh; our module is
# built from a copy of its sources in build/debug-kernel/module, against the
# debug kernel's tree, so the default fs-f2fs/f2fs.ko stays as it is.
KERNEL ?=
DEBUG_KDIR := $(BUILD)/debug-kernel/src
DEBUG_MOD  := $(BUILD)/debug-kernel/module
ifeq ($(KERNEL),debug)
KDIR   = $(DEBUG_KDIR)
KERNEL_DEP := debug-kernel
else ifneq ($(KERNEL),)
$(error KERNEL must be empty (Debian's kernel) or debug, not '$(KERNEL)')
endif

# Do not leak our command-line variables (T, CMD, F2FS ...) into kbuild.
MAKEOVERRIDES :=
export F2FS T CMD KVM V DEMO SECS WARMUP INTERVAL RECORDING KERNEL

.PHONY: all setup module initramfs check check-status run clean distclean help lint \
	bpf-tools bench bench-gc bench-trace bench-tools bench-fsync aging \
	crash-test canon stress fuzz io-errors record dashboard debug-kernel

all: initramfs

help:
	@sed -n '2,21s/^# \{0,1\}//p' Makefile

setup:
	@scripts/setup.sh

# Our module.  With F2FS=stock it is not needed (built only if it builds).
module: setup $(KERNEL_DEP)
ifeq ($(F2FS),stock)
	@echo "module: F2FS=stock, not building fs-f2fs (comparison run with the stock module)"
else ifeq ($(KERNEL),debug)
	@mkdir -p $(DEBUG_MOD)
	@rsync -a --delete --include='*/' --include='*.[ch]' --include=Kbuild --include=Makefile --include='*.md' \
		--exclude='*.mod.c' --exclude='*' fs-f2fs trace-events $(DEBUG_MOD)/
	@$(MAKE) -C $(DEBUG_MOD)/fs-f2fs KDIR=$(KDIR) || { echo "module: ERROR: building fs-f2fs against the debug kernel ($(KDIR)) failed" >&2; exit 1; }
	@test -f $(DEBUG_MOD)/fs-f2fs/f2fs.ko || { echo "module: ERROR: $(DEBUG_MOD)/fs-f2fs/f2fs.ko was not produced" >&2; exit 1; }
else
	@test -f fs-f2fs/Makefile || { echo "module: fs-f2fs/Makefile missing" >&2; exit 1; }
	@$(MAKE) -C fs-f2fs KDIR=$(KDIR) || { echo "module: ERROR: building fs-f2fs/f2fs.ko failed (use F2FS=stock to test the harness with the stock module)" >&2; exit 1; }
	@test -f fs-f2fs/f2fs.ko || { echo "module: ERROR: fs-f2fs/f2fs.ko was not produced" >&2; exit 1; }
endif

initramfs: setup $(KERNEL_DEP) module bpf-tools
	@qemu/mkinitramfs.sh

# The libbpf tools (bpf-tools/, see its Makefile) into build/bpf/.
bpf-tools: setup
	@$(MAKE) --no-print-directory -C bpf-tools OUT=$(BUILD)/bpf

check: initramfs lint
	@scripts/check.sh

# The last result of each test with the revision it ran on (a whole
# KERNEL=debug run is done in parts).
check-status:
	@scripts/check-status.sh

# checkpatch --strict and kernel-doc over the module (scripts/lint.sh).
lint:
	@scripts/lint.sh

run: initramfs
	@scripts/run.sh

# The seed article's benchmark on a kernel tree (scripts/bench.sh; FS=,
# ROUNDS=, FULL=, THROTTLE=, BIG_MB=, FSYNC_N= pass through the environment).
bench: initramfs
	@scripts/bench.sh

# Write amplification of cleaning: greedy, greedy + cost-benefit, stock.
bench-gc: initramfs
	@scripts/bench-gc.sh

# The cost of our trace events: a write workload with them off and on.
bench-trace: initramfs
	@scripts/bench-trace.sh

# fsync latency of a 4 KiB append: ours, stock f2fs, ext4 (median of 1,000).
bench-fsync: initramfs
	@scripts/bench-fsync.sh

# The CPU overhead of f2fs-top and f2fs-hotcold on a write workload.
bench-tools: initramfs
	@scripts/bench-tools.sh

# The full aging sweep, then the full-device matrix (make check runs tests
# 60 and 62 in their short forms).  SEED= replays both.
aging: initramfs
	@AGING=full scripts/check.sh 60-aging 62-full-device

# Crash safety (issues 6, 15): 30 QEMU kills during crashwl fsync workloads
# (default the heavy one: thousands of fsynced files plus an unsynced churn,
# 512 MiB disk), each followed by a checking boot with our module and the
# stock module as a reference (make check runs 2 heavy cuts as test 80),
# then the full forms of the dm-log-writes replays: every flush/FUA/mark
# point (81) and every checkpoint-area write (82; make check runs samples).
# CUTS=, SEED=, SEEDS=, WORKLOAD=, SIZE=, BUDGET=, STOCK= pass through (see
# scripts/crash-test.sh).
crash-test: initramfs
	@scripts/crash-test.sh $(if $(CUTS),CUTS=$(CUTS)) $(if $(SEED),SEED=$(SEED)) $(if $(SEEDS),SEEDS='$(SEEDS)') \
		$(if $(WORKLOAD),WORKLOAD=$(WORKLOAD)) $(if $(SIZE),SIZE=$(SIZE)) $(if $(BUDGET),BUDGET=$(BUDGET)) $(if $(STOCK),STOCK=$(STOCK))
	@GUEST_ARGS="full=1$(if $(SEED), seed=$(SEED))" scripts/check.sh 81-crash-logwrites 82-crash-cp-atomic

# Canonical images (issue 15): the full form of test 41, 1,500 + 3,500
# random operations on 1 GiB; the stock module must rewrite nothing.
canon: initramfs
	@GUEST_ARGS="full=1$(if $(SEED), seed=$(SEED))" scripts/check.sh 41-canon-random

# The long form of test 63: 20 fsstress processes x OPS (100,000) operations
# each on our module, then the same on the stock module as the control.
stress: initramfs
	@STRESS=full $(if $(OPS),OPS_FULL=$(OPS)) TIMEOUT=$${TIMEOUT:-10800} \
		GUEST_ARGS="$(if $(SEED),seed=$(SEED))" scripts/check.sh 63-stress

# The image fuzzer (issue 19), long form of test 25: N (5000) mutated
# images per module, ours then the stock module as the control (BASES=DIR
# and SKIP=K: from a kept run's base images, from image K+1).
fuzz: initramfs
	@scripts/fuzz.sh $(if $(N),N=$(N)) $(if $(SEED),SEED=$(SEED)) $(if $(MODULE),MODULE=$(MODULE)) \
		$(if $(BASES),BASES=$(BASES)) $(if $(SKIP),SKIP=$(SKIP))

# I/O errors at chosen moments (issue 19), long form of test 66: every
# metadata area failing inside a checkpoint, and every case on the stock
# module too.
io-errors: initramfs
	@GUEST_ARGS="full=1$(if $(SEED), seed=$(SEED))" TIMEOUT=$${TIMEOUT:-1800} scripts/check.sh 66-io-errors-moments

# Dashboards (dashboards/): record the bpf tools' -j streams with f2fs-record
# while the DEMO workload runs (SECS=, WARMUP=, INTERVAL=, F2FS=; into
# build/recordings/), and render one into build/dashboard/index.html, checked
# in headless chromium (RECORDING= picks one; default the newest).
record: initramfs
	@scripts/record.sh

dashboard:
	@scripts/dashboard.sh

# The debug guest kernel (issue 19): build/debug-kernel/, see README
# "Debug kernel".  Idempotent; the first build takes long (FORCE=1 rebuilds).
debug-kernel:
	@scripts/debug-kernel.sh

clean:
	rm -rf $(BUILD)/logs $(BUILD)/work $(BUILD)/run $(BUILD)/initramfs-root $(BUILD)/initramfs.cpio $(BUILD)/initramfs.cpio.gz
	rm -rf $(BUILD)/initramfs-debug-root $(BUILD)/initramfs-debug.cpio $(BUILD)/initramfs-debug.cpio.gz $(DEBUG_MOD)
	-@test -d "$(KDIR)" && test -f fs-f2fs/Makefile && $(MAKE) -C fs-f2fs KDIR=$(KDIR) clean >/dev/null || true

# also drops the unpacked guest kernel and downloaded packages
distclean: clean
	rm -rf $(BUILD)
