/* failalloc.c -- LD_PRELOAD shim for the tests: the FAILALLOC_AT'th call of malloc, calloc or
   realloc (counted together, from 1, from the program's own start: the shared libraries'
   initialisers, before it, are not the program's to survive) returns NULL, every other goes to
   glibc's own. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);
extern void *__libc_realloc(void *p, size_t n);

static long calls, at = -1;
static int armed;

typedef int (*start_fn)(int (*)(int, char **, char **), int, char **, void (*)(void),
                        void (*)(void), void (*)(void), void *);

/* the program's start (glibc's entry to main): the count begins here */
int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
                      void (*init)(void), void (*fini)(void), void (*rtld_fini)(void),
                      void *stack_end) {
  start_fn real = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
  armed = 1;
  return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}

static int fail(void) {
  if (!armed) {
    return 0;
  }
  if (at < 0) {
    const char *s = getenv("FAILALLOC_AT");
    at = s ? atol(s) : 0;
  }
  return ++calls == at;
}

void *malloc(size_t n) { return fail() ? NULL : __libc_malloc(n); }
void *calloc(size_t k, size_t n) { return fail() ? NULL : __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { return fail() ? NULL : __libc_realloc(p, n); }

/* with FAILALLOC_COUNT set, the number of calls made, on stderr at exit */
__attribute__((destructor)) static void count(void) {
  if (getenv("FAILALLOC_COUNT")) {
    char buf[32];
    int k = sizeof buf;
    buf[--k] = '\n';
    long c = calls;
    do {
      buf[--k] = (char)('0' + c % 10);
      c /= 10;
    } while (c > 0);
    write(2, buf + k, sizeof buf - (size_t)k);
  }
}
