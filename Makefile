# spart -- POSIX Makefile.  CC CFLAGS CPPFLAGS LDFLAGS PREFIX MANPREFIX DESTDIR are overridable.
.POSIX:
.SUFFIXES:
.SUFFIXES: .c .o

VERSION   = 0.1.0
PREFIX    = /usr/local
MANPREFIX = $(PREFIX)/share/man
CC        = cc
CFLAGS    = -std=c11 -O3 -fno-tree-vectorize -flto=auto -g -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
CPPFLAGS  =
LDFLAGS   =
XML_CFLAGS = `pkg-config --cflags libxml-2.0`
XML_LIBS   = `pkg-config --libs libxml-2.0`
LIBS      = -lcjson $(XML_LIBS) -lm
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -DSPART_VERSION=\"$(VERSION)\" -Ilib -Isrc/cli $(XML_CFLAGS) $(CPPFLAGS)

LIBOBJ = lib/spu_vec.o lib/spu_spatial.o lib/spu_num.o lib/spart_model.o lib/spart_data.o lib/spart_fk.o \
         lib/spart_jacobian.o lib/spart_crba.o lib/spart_rnea.o lib/spart_aba.o \
         lib/spart_urdf.o lib/spart_dh.o lib/spart_json.o
# the commands' side (options, session, records in and out), linked into every command
CLIOBJ = src/cli/options.o src/cli/session.o src/cli/records_in.o src/cli/write.o src/cli/write_json.o src/cli/write_csv.o \
         src/cli/convert.o
TOOLS  = bin/urdf2robot bin/dh2robot bin/spart-kin bin/spart-jac bin/spart-gim bin/spart-fd bin/spart-id
MAN1   = man/urdf2robot.1 man/dh2robot.1 man/spart-kin.1 man/spart-jac.1 man/spart-gim.1 man/spart-fd.1 \
         man/spart-id.1
MAN5   = man/spart-model.5 man/spart-records.5
UNIT   = tests/unit/test_golden tests/unit/test_dynamics tests/unit/test_num

all: $(TOOLS)

lib/libspart.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(LIBOBJ): lib/spart.h lib/spu.h
$(CLIOBJ): lib/spart.h lib/spu.h src/cli/cli.h src/cli/records.h

.c.o:
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) -c -o $@ $<

bin/urdf2robot: src/urdf2robot.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/urdf2robot.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/dh2robot: src/dh2robot.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/dh2robot.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/spart-kin: src/spart-kin.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/spart-kin.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/spart-jac: src/spart-jac.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/spart-jac.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/spart-gim: src/spart-gim.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/spart-gim.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/spart-fd: src/spart-fd.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/spart-fd.c $(CLIOBJ) lib/libspart.a $(LIBS)
bin/spart-id: src/spart-id.c $(CLIOBJ) lib/libspart.a
	@mkdir -p bin
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ src/spart-id.c $(CLIOBJ) lib/libspart.a $(LIBS)

tests/unit/test_num: tests/unit/test_num.c lib/libspart.a
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ tests/unit/test_num.c lib/libspart.a $(LIBS)
tests/unit/test_dynamics: tests/unit/test_dynamics.c lib/libspart.a
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ tests/unit/test_dynamics.c lib/libspart.a $(LIBS)
tests/unit/test_golden: tests/unit/test_golden.c lib/libspart.a
	$(CC) $(CFLAGS) $(ALL_CPPFLAGS) $(LDFLAGS) -o $@ tests/unit/test_golden.c lib/libspart.a $(LIBS)

# the whole suite: C unit drivers (run from tests/lib.bats) and one bats file per command
test check: all $(UNIT)
	sh scripts/runtests.sh

# the suite again under AddressSanitizer and UndefinedBehaviorSanitizer, in a separate tree
sanitize asan:
	rm -rf build/asan && mkdir -p build/asan
	cp -R Makefile lib src tests models man scripts build/asan/
	cd build/asan && $(MAKE) clean >/dev/null && \
	  $(MAKE) CFLAGS="-std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	  -fno-sanitize-recover=all -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror" \
	  LDFLAGS="-fsanitize=address,undefined" test

# a real pipeline on a bundled model
demo: all
	sh scripts/demo.sh

# streaming rows/s against a naive filter, memory, two cores, per-call medians (see the script)
bench: all
	sh scripts/bench.sh

# the libFuzzer harnesses of fuzz/ (clang; sh scripts/fuzz-deps.sh), each for FUZZ_SECONDS
FUZZ_SECONDS = 60
fuzz: all
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh scripts/fuzz.sh

# every command under valgrind: no memory error, no leak
valgrind: all
	sh scripts/valgrind.sh

# the model JSON of every bundled URDF, beside it (deterministic: a diff means a change)
models: bin/urdf2robot
	for f in models/*.urdf; do bin/urdf2robot "$$f" > "$${f%.urdf}.json" || exit 1; done

lint-man:
	mandoc -Tlint -Wwarning $(MAN1) $(MAN5)

format:
	clang-format -i lib/*.c lib/*.h src/*.c src/cli/*.c src/cli/*.h tests/unit/*.c bench/*.c fuzz/*.c fuzz/*.h

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man5
	cp -f $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	cp -f $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(TOOLS)))
	rm -f $(addprefix $(DESTDIR)$(MANPREFIX)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANPREFIX)/man5/,$(notdir $(MAN5)))

clean:
	rm -rf bin build lib/*.o src/cli/*.o lib/libspart.a $(UNIT)

.PHONY: all test check sanitize asan demo bench valgrind fuzz models lint-man format install uninstall clean
