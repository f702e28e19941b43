# spart -- GNU Makefile.  CC CFLAGS CPPFLAGS LDFLAGS PREFIX MANPREFIX DESTDIR are overridable.
# Build output goes to build/ (objects, libspart.a, the unit drivers) and bin/ (the commands);
# nothing is written beside a source file.  BUILD and BIN move them (make sanitize does).

VERSION   = 0.1.0
PREFIX    = /usr/local
BINDIR    = $(PREFIX)/bin
LIBDIR    = $(PREFIX)/lib
INCLUDEDIR = $(PREFIX)/include
PKGCONFIGDIR = $(LIBDIR)/pkgconfig
MANPREFIX = $(PREFIX)/share/man
DATADIR   = $(PREFIX)/share/spart
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
# CC: cc unless the environment or the command line names another (CC=clang make); link-time
# optimisation with GCC's fat objects or with clang's llvm-ar
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)
AR        = $(if $(IS_CLANG),llvm-ar,ar)
OPTFLAGS  = $(if $(IS_CLANG),-O3 -flto,-O3 -fno-tree-vectorize -flto=auto -ffat-lto-objects)
CFLAGS    = -std=c11 $(OPTFLAGS) -g -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
CPPFLAGS  =
LDFLAGS   =
BUILD     = build
BIN       = bin
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0)
ASSIMP_LIBS := $(shell pkg-config --libs assimp)
LIBS      = -lcjson -lglpk $(XML_LIBS) $(ASSIMP_LIBS) -lm -lpthread
# V=1 shows the compiler's and the archiver's command lines; by default one short line a file
# (CC, AR, LD and its name), none under make -s; a compiler's errors show either way
ifeq ($(V),1)
Q   =
say = @:
else
Q   = @
say = $(if $(findstring s,$(firstword -$(MAKEFLAGS))),@:,@printf '  %-3s %s\n')
endif

# what there is: every lib/LAYER/*.c is in libspart.a (the layers' folders: lib/README.md), every
# src/*.c is a command, every tests/unit/*.c a unit driver; src/cli/*.c (the command-line
# framework), when there, is libspart-cli.a, linked into every command before libspart.a;
# src/codegen/*.c (spart-codegen's generator: src/codegen/README.md) is libspart-codegen.a,
# linked into spart-codegen alone, before libspart-cli.a
LIB_DIRS := lib/base lib/model lib/read lib/algo lib/sim
LIB_SRC  := $(wildcard $(addsuffix /*.c,$(LIB_DIRS)))
CLI_SRC  := $(wildcard src/cli/*.c)
CG_SRC   := $(wildcard src/codegen/*.c)
TOOL_SRC := $(wildcard src/*.c)
UNIT_SRC := $(wildcard tests/unit/*.c)

LIB      = $(BUILD)/libspart.a
CLI_LIB  = $(if $(CLI_SRC),$(BUILD)/libspart-cli.a)
CLI_INC  = $(if $(CLI_SRC),-Isrc/cli)
CG_LIB   = $(BUILD)/libspart-codegen.a
TOOLS    = $(patsubst src/%.c,$(BIN)/%,$(TOOL_SRC))
UNIT     = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
MAN1     = $(wildcard man/*.1)
MAN5     = $(wildcard man/*.5)
MAN3     = $(wildcard man/*.3)
MAN7     = $(wildcard man/*.7)
MODELS   = $(wildcard models/*.urdf models/*.json)
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -DSPART_VERSION=\"$(VERSION)\" -Ilib -Ilib/base $(CLI_INC) $(XML_CFLAGS) $(CPPFLAGS)

# what make install puts, relative to DESTDIR: one list for install and uninstall
INSTALLED = $(addprefix $(BINDIR)/,$(notdir $(TOOLS))) \
            $(addprefix $(MANPREFIX)/man1/,$(notdir $(MAN1))) \
            $(addprefix $(MANPREFIX)/man5/,$(notdir $(MAN5))) \
            $(addprefix $(MANPREFIX)/man3/,$(notdir $(MAN3))) \
            $(addprefix $(MANPREFIX)/man7/,$(notdir $(MAN7))) \
            $(LIBDIR)/libspart.a $(INCLUDEDIR)/spart.h $(INCLUDEDIR)/spart_sim.h $(INCLUDEDIR)/spart_text.h \
            $(PKGCONFIGDIR)/spart.pc \
            $(addprefix $(DATADIR)/models/,$(notdir $(MODELS))) \
            $(addprefix $(COMPLETIONDIR)/,$(notdir $(TOOLS)))

all: $(TOOLS)

# the unit drivers of tests/unit (tests/lib.bats runs them)
unit: $(UNIT)

# the compiler and its flags, in $(BUILD)/flags: rewritten (at parse time, so that make -n and
# make -q tell the truth) when they change, and then every object and program is rebuilt
FLAGS_LINE = $(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) $(LIBS)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
ifneq ($(FLAGS_LINE),$(shell cat $(BUILD)/flags 2> /dev/null))
$(shell mkdir -p $(BUILD) && printf '%s\n' '$(FLAGS_LINE)' > $(BUILD)/flags)
endif
endif
$(BUILD)/flags:
	@mkdir -p $(@D)
	@printf '%s\n' '$(FLAGS_LINE)' > $@

# every object from its source, with its header dependencies (-MMD -MP) beside it in build/
$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(ALL_CPPFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/libspart-cli.a: $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(CG_LIB): $(patsubst %.c,$(BUILD)/%.o,$(CG_SRC))
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

# a command's own archives (TOOL_LIBS), linked before libspart-cli.a and libspart.a
$(BIN)/spart-codegen: TOOL_LIBS = $(CG_LIB)
$(BIN)/spart-codegen: $(CG_LIB)

$(TOOLS): $(BIN)/%: $(BUILD)/src/%.o $(CLI_LIB) $(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TOOL_LIBS) $(CLI_LIB) $(LIB) $(LIBS)

# the unit drivers link GCC's fat objects' machine code, not their link-time optimisation (a
# third of the build's time for programs that time nothing; clang's objects are bitcode only)
$(UNIT): $(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(CLI_LIB) $(LIB) $(BUILD)/flags
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(if $(IS_CLANG),,-fno-lto) $(LDFLAGS) -o $@ \
	  $(filter-out $(BUILD)/flags,$^) $(LIBS)

-include $(patsubst %.c,$(BUILD)/%.d,$(LIB_SRC) $(CLI_SRC) $(CG_SRC) $(TOOL_SRC) $(UNIT_SRC))

# the whole suite: C unit drivers (run from tests/lib.bats) and one bats file per command
test check: all unit
	sh scripts/runtests.sh

# the suite again under AddressSanitizer and UndefinedBehaviorSanitizer: objects, commands and
# unit drivers in build/asan, the tests pointed at them by SPART_BIN and SPART_UNIT
ASAN_CFLAGS = -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
  -fno-sanitize-recover=all -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
sanitize asan:
	$(MAKE) BUILD=build/asan BIN=build/asan/bin CFLAGS="$(ASAN_CFLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" all unit
	SPART_BIN="$(CURDIR)/build/asan/bin" SPART_UNIT="$(CURDIR)/build/asan/tests" \
	  sh scripts/runtests.sh

# the suite under ThreadSanitizer, every command that takes -j run with -j 3 (scripts/tsan.sh;
# TESTS: the bats files to run, default all): objects, commands and unit drivers in build/tsan
TSAN_CFLAGS = -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=thread \
  -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
tsan:
	$(MAKE) BUILD=build/tsan BIN=build/tsan/bin CFLAGS="$(TSAN_CFLAGS)" \
	  LDFLAGS="-fsanitize=thread" all unit
	sh scripts/tsan.sh $(TESTS)

# a real pipeline on a bundled model
demo: all
	sh scripts/demo.sh

# streaming rows/s against a naive filter, memory, two cores, per-call medians (see the script)
bench: all $(LIB)
	sh scripts/bench.sh

bench-world: all
	sh scripts/bench_world.sh

# spart-codegen's part of make bench alone
bench-codegen: all $(LIB)
	BENCH_ONLY=codegen sh scripts/bench.sh

# the libFuzzer harnesses of fuzz/ (clang; sh scripts/fuzz-deps.sh), each for FUZZ_SECONDS
FUZZ_SECONDS = 60
fuzz: all
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh scripts/fuzz.sh

# every command under valgrind: no memory error, no leak; and -j under helgrind and drd: no
# data race
valgrind: all
	sh scripts/valgrind.sh
	sh scripts/helgrind.sh

# the model JSON of every bundled URDF, beside it (deterministic: a diff means a change)
models: $(BIN)/urdf2robot
	for f in models/*.urdf; do $(BIN)/urdf2robot "$$f" > "$${f%.urdf}.json" || exit 1; done

# mandoc's lint, and groff's warnings (all of them: -ww) where groff is installed
lint-man:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN3) $(MAN5) $(MAN7)
	if command -v groff > /dev/null; then for f in $(MAN1) $(MAN3) $(MAN5) $(MAN7); do \
	  groff -ww -z -mandoc "$$f" 2>&1 | grep . && exit 1; done; fi; true

format:
	clang-format -i $(LIB_SRC) lib/*.h lib/*/*.h src/*.c $(wildcard src/cli/*.[ch] src/codegen/*.[ch]) tests/unit/*.c bench/*.c fuzz/*.c fuzz/*.h

# commands, man pages, the example models (share/spart/models: the man pages' examples name
# them there), bash completion (one file a command, as bash-completion loads them), and for C
# programs libspart.a, spart.h and spart.pc (pkg-config)
install: all $(LIB)
	mkdir -p $(sort $(dir $(addprefix $(DESTDIR),$(INSTALLED))))
	cp -f $(TOOLS) $(DESTDIR)$(BINDIR)/
	for f in $(MAN1); do sed 's| models/| $(DATADIR)/models/|g' "$$f" \
	  > $(DESTDIR)$(MANPREFIX)/man1/$${f##*/} || exit 1; done
	for f in $(MAN5); do sed 's| models/| $(DATADIR)/models/|g' "$$f" \
	  > $(DESTDIR)$(MANPREFIX)/man5/$${f##*/} || exit 1; done
	for f in $(MAN3); do sed 's|"models/| "$(DATADIR)/models/|g' "$$f" \
	  > $(DESTDIR)$(MANPREFIX)/man3/$${f##*/} || exit 1; done
	for f in $(MAN7); do sed 's| models/| $(DATADIR)/models/|g' "$$f" \
	  > $(DESTDIR)$(MANPREFIX)/man7/$${f##*/} || exit 1; done
	cp -f $(MODELS) $(DESTDIR)$(DATADIR)/models/
	for t in $(notdir $(TOOLS)); do cp -f completion/spart.bash $(DESTDIR)$(COMPLETIONDIR)/$$t || exit 1; done
	cp -f $(LIB) $(DESTDIR)$(LIBDIR)/
	cp -f lib/spart.h lib/spart_sim.h lib/spart_text.h $(DESTDIR)$(INCLUDEDIR)/
	# libspart is a static library only: a program takes from it the files it calls.  Libs is
	# what the model, the data and the algorithms need (-lspart -lm); the readers' libraries
	# (cJSON, libxml2) and the contact statics' (GLPK) are in Libs.private, which
	# `pkg-config --static --libs spart` adds: a program that loads a model file links with that
	# (lib/README.md).  libxml2's own flags are written here, not as Requires.private, so that
	# --static does not ask for the static archives of its dependencies (zlib, lzma, ICU)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	  'Name: spart' 'Description: multibody kinematics and dynamics (SPART)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lspart -lm' \
	  'Libs.private: -lcjson -lglpk $(XML_LIBS) $(ASSIMP_LIBS)' \
	  > $(DESTDIR)$(PKGCONFIGDIR)/spart.pc

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DATADIR)/models $(DESTDIR)$(DATADIR) 2> /dev/null

clean:
	rm -rf build bin

.PHONY: all unit test check sanitize asan tsan demo bench bench-world bench-codegen valgrind fuzz models lint-man format install uninstall clean
.DELETE_ON_ERROR:
