# tracewright - build, test and install.
#
#   make             build/tracewright and build/libtracewright.a (warnings are errors)
#   make run         timing reports and a conversion of the shipped examples
#   make test        unit tests, golden-file CLI tests and round trips
#   make sanitize    the whole test suite under AddressSanitizer + UBSan
#   make valgrind    unit, fixture and CLI tests with every run under valgrind: no
#                    error, no leak (plain -O1 -g build in build-vg)
#   make lint        cppcheck and clang-tidy over src/ and include/, configured in
#                    .ci/ (cppcheck-suppressions.txt, clang-tidy.yaml): no finding
#   make fuzz        every fuzz target under libFuzzer (clang; FUZZ_TIME=60 seconds
#                    each, FUZZ_TARGETS="rtl lms ..." to pick; installs clang if absent)
#   make interop     the viewer writers' output loaded by the programs that read it
#                    (trace_engine, speedscope, babeltrace2, Chromium; installed once)
#   make screenshots the pictures of the last interop run copied into docs/images/
#   make bench       the benchmark (bench/run.sh): wc -l, cat, awk, untuned C, stats and
#                    conversions on generated inputs of every format; SIZE=1G
#                    per format (k/M/G), RUNS=3, BENCH_FORMATS="rtl lms ...",
#                    BENCH_ARGS= (e.g. --no-awk); inputs kept in build/bench-data
#   make bench-instr instructions per event under callgrind, 5 MB per format
#   make bench-rss   peak RSS of stats and convert on RSS_SIZES="100M 1G 10G"
#   make install     PREFIX=/usr/local DESTDIR= (binary, library, headers, man page)
#   make uninstall / make clean

CC       ?= cc
AR       ?= ar
CFLAGS   ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2 -Wno-format-nonliteral -Wundef
STD      := -std=c11 -D_POSIX_C_SOURCE=200809L
CPPFLAGS += -Iinclude -Isrc
ALL_CFLAGS = $(STD) $(WARNINGS) $(CPPFLAGS) $(CFLAGS) -pthread -MMD -MP
# the event pump reads ahead on a second thread (POSIX threads)
override LDFLAGS += -pthread

PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    ?= build

LIB_SRCS  := $(sort $(wildcard src/core/*.c src/formats/*.c src/stats/*.c))
CLI_SRCS  := $(sort $(wildcard src/cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)

LIB  := $(BUILD)/libtracewright.a
BIN  := $(BUILD)/tracewright
UNIT := $(BUILD)/unit-tests
SARIF_CHECK := $(BUILD)/sarif-check
PROJECT  := $(BUILD)/project
NOTHREAD := $(BUILD)/nothread.so

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all

# Fuzz targets (tests/fuzz/fuzz_<target>.c).  FUZZ_MAIN is what gives them a
# main(): libFuzzer (make fuzz) or the replay driver (make test).
FUZZ_TARGETS ?= $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_common.c, \
                  $(sort $(wildcard tests/fuzz/fuzz_*.c))))
FUZZ_TIME    ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=all
FUZZ_MAIN    ?= $(BUILD)/tests/fuzz/replay.o
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
FUZZ_OBJS    := $(BUILD)/tests/fuzz/fuzz_common.o $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o)
$(FUZZ_OBJS) $(BUILD)/tests/fuzz/replay.o: CPPFLAGS += -DTW_FUZZ_DIR='"$(CURDIR)/tests/fuzz"'

.PHONY: all run test unit cli sanitize tsan valgrind valgrind-bins lint replay fuzz fuzz-bins interop screenshots install \
        bench bench-instr bench-rss \
        uninstall clean

all: $(BIN) $(LIB)

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB)

$(UNIT): $(UNIT_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB)

$(SARIF_CHECK): $(BUILD)/tests/tools/sarif-check.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB)

$(PROJECT): $(BUILD)/tests/tools/project.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB)

# A preload that makes pthread_create() fail from its N-th call (the tests of
# threads that cannot be started); built without the build's sanitizers
$(NOTHREAD): tests/tools/nothread.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARNINGS) -O1 -g -shared -fPIC -o $@ $< -ldl

# test functions are declared by the runner's table, not in headers
$(UNIT_OBJS): WARNINGS += -Wno-missing-prototypes

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

run: $(BIN)
	@echo '$$ tracewright stats examples/office-startup_4711.log'
	@$(BIN) stats examples/office-startup_4711.log
	@echo
	@echo '$$ tracewright stats --top 3 examples/control-loop.csv'
	@$(BIN) stats --top 3 examples/control-loop.csv
	@echo
	@echo '$$ tracewright stats --top 5 examples/hello-catalog.tracelog'
	@$(BIN) stats --top 5 examples/hello-catalog.tracelog
	@echo
	@echo '$$ tracewright stats --by thread --top 6 examples/motor-control.txt'
	@$(BIN) stats --by thread --top 6 examples/motor-control.txt
	@echo
	@echo '$$ tracewright stats --by thread --top 6 examples/file-sink_20251121_083000_060C_1.tlg'
	@$(BIN) stats --by thread --top 6 examples/file-sink_20251121_083000_060C_1.tlg
	@echo
	@echo '$$ tracewright convert -t jsonl examples/control-loop.csv | head -n 4'
	@$(BIN) convert -t jsonl examples/control-loop.csv | head -n 4

test: $(BIN) $(UNIT) $(SARIF_CHECK) $(PROJECT) $(NOTHREAD) $(BUILD)/bench/gen $(BUILD)/bench/drain \
      $(BUILD)/bench/untuned $(BUILD)/bench/measure replay
	@sh tests/run.sh $(BUILD) build-san

sanitize:
	@$(MAKE) --no-print-directory BUILD=build-san CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" test

# What runs on two threads (the pump's reading ahead, chrome's replay)
# under ThreadSanitizer: the unit tests and the CLI tests of threads/, whose
# every command runs with one thread and with two, and progress/slow-pipe
# (the progress line drawn while the consumer waits for the reading
# thread) (a race is a report on standard error and exit status 66, so the
# test fails).
tsan:
	@$(MAKE) --no-print-directory BUILD=build-tsan CFLAGS="-O1 -g -fsanitize=thread" \
	    LDFLAGS="-fsanitize=thread" build-tsan/tracewright build-tsan/unit-tests \
	    build-tsan/bench/gen build-tsan/nothread.so
	@build-tsan/unit-tests
	@sh tests/cli/run.sh build-tsan threads/ progress/slow-pipe

# A plain build (no sanitizer: valgrind does their work) and the tests with
# every run of the binary under valgrind (tests/valgrind/run.sh).
VG_BUILD ?= build-vg
valgrind:
	@$(MAKE) --no-print-directory BUILD=$(VG_BUILD) CFLAGS="-O1 -g" valgrind-bins
	@sh tests/valgrind/run.sh $(VG_BUILD)

valgrind-bins: $(BIN) $(UNIT) $(SARIF_CHECK) $(PROJECT) $(NOTHREAD) $(BUILD)/bench/gen $(BUILD)/bench/drain \
               $(BUILD)/bench/untuned $(BUILD)/bench/measure

# Static checks; LINT_BUILD keeps cppcheck's cache and clang-tidy's reports,
# LINT_FILES="src/core/json.c ..." checks only those sources.
LINT_BUILD ?= build-lint
LINT_FILES ?=
lint:
	@sh .ci/lint.sh $(LINT_BUILD) $(LINT_FILES)

# The fuzz targets as plain programs under ASan + UBSan, for the replay of
# their corpora and past crashes that make test runs (tests/fuzz/run.sh).
replay:
	@$(MAKE) --no-print-directory BUILD=build-san CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/fuzz_common.o $(LIB) \
                 $(filter %.o,$(FUZZ_MAIN))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(filter-out %.o,$(FUZZ_MAIN))

fuzz:
	@sh tests/fuzz/run.sh need-clang $(FUZZ_CC)
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" FUZZ_MAIN=-fsanitize=fuzzer \
	    FUZZ_TARGETS="$(FUZZ_TARGETS)" fuzz-bins
	@sh tests/fuzz/run.sh fuzz build-fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)

interop: $(BIN)
	@sh tests/interop/run.sh $(BUILD)

screenshots:
	@ls $(BUILD)/interop/screenshots/*.png >/dev/null 2>&1 || \
	    { echo "no screenshots in $(BUILD)/interop/screenshots: run make interop first" >&2; exit 1; }
	@mkdir -p docs/images
	cp $(BUILD)/interop/screenshots/*.png docs/images/

# The benchmark's own programs: the input generator, the timer, the
# reading alone through the library (drain) and the untuned C yardstick.
BENCH_BINS := $(BUILD)/bench/gen $(BUILD)/bench/measure $(BUILD)/bench/drain \
              $(BUILD)/bench/untuned
SIZE          ?= 1G
RUNS          ?= 3
BENCH_FORMATS ?= rtl lms coreprofiler text1 text1-bin stacktrack
RSS_SIZES     ?= 100M 1G 10G
BENCH_ARGS    ?=
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARNINGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/bench/drain: $(BUILD)/bench/drain.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB)

bench: $(BIN) $(BENCH_BINS)
	@sh bench/run.sh $(BUILD) --size $(SIZE) --runs $(RUNS) --formats "$(BENCH_FORMATS)" $(BENCH_ARGS)

bench-instr: $(BIN) $(BENCH_BINS)
	@sh bench/run.sh $(BUILD) --instr --formats "$(BENCH_FORMATS)" $(BENCH_ARGS)

bench-rss: $(BIN) $(BENCH_BINS)
	@sh bench/run.sh $(BUILD) --rss-sizes "$(RSS_SIZES)" --formats "$(BENCH_FORMATS)" $(BENCH_ARGS)

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/include/tracewright $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tracewright
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libtracewright.a
	install -m 644 include/tracewright/*.h $(DESTDIR)$(PREFIX)/include/tracewright/
	install -m 644 docs/tracewright.1 $(DESTDIR)$(PREFIX)/share/man/man1/tracewright.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tracewright $(DESTDIR)$(PREFIX)/lib/libtracewright.a \
	    $(DESTDIR)$(PREFIX)/share/man/man1/tracewright.1
	rm -rf $(DESTDIR)$(PREFIX)/include/tracewright

clean:
	rm -rf build build-san build-fuzz build-vg build-lint build-tsan

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(BUILD)/tests/tools/sarif-check.d \
         $(BUILD)/tests/tools/project.d \
         $(FUZZ_OBJS:.o=.d) $(BUILD)/tests/fuzz/replay.d $(BUILD)/bench/drain.d
