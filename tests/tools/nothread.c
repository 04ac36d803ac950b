/*
 * nothread.so - make pthread_create() fail, for the tests of what
 * tracewright does when a thread it wants cannot be started.
 *
 *   LD_PRELOAD=BUILD/nothread.so TW_NOTHREAD_FROM=N tracewright ...
 *
 * The first N-1 calls of pthread_create() start their thread as usual;
 * the N-th and every later one fails with EAGAIN, as when the process is
 * out of threads or memory.  Without TW_NOTHREAD_FROM (or with 0) nothing
 * fails.  A test tool, never linked into tracewright: it works only where
 * the binary takes pthread_create() from the C library (not under a
 * sanitizer whose runtime intercepts it first), so the tests that use it
 * check first that it does.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                   void *arg) {
    static atomic_long calls;
    const char *from = getenv("TW_NOTHREAD_FROM");
    long n = from ? strtol(from, NULL, 10) : 0;
    if (n > 0 && atomic_fetch_add(&calls, 1) + 1 >= n) return EAGAIN;
    create_fn *real = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
    return real ? real(thread, attr, start, arg) : EAGAIN;
}
