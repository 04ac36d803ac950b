/*
 * measure - run a command several times and report its median wall time and
 * its peak resident memory, as the benchmark (bench/run.sh) needs them.
 *
 *   measure [-r RUNS] [-i FILE] [-p FILE] [-o FILE] [-w FILE] -- PROGRAM [ARG...]
 *
 *   -r RUNS   how many times to run it (default 3)
 *   -i FILE   standard input read from FILE (default: /dev/null)
 *   -p FILE   standard input is a pipe fed with FILE by a second process
 *             (`cat FILE | PROGRAM`); that process is not measured
 *   -o FILE   standard output to FILE (default: /dev/null)
 *   -w FILE   read FILE through once before every run, not timed, so that
 *             each run finds it in the page cache (a machine short of
 *             memory, or a guest whose host reclaims its cache, drops part
 *             of a large file between runs)
 *
 * Prints one line: `MEDIAN_SECONDS MIN_SECONDS MAX_RSS_KIB STATUS`, where
 * MAX_RSS_KIB is the largest ru_maxrss of the runs (getrusage: resident
 * pages, mapped file pages included) and STATUS the exit status of the last
 * run.  Standard error of the program goes to this program's.  The program
 * is run directly (no shell), so the memory is the program's own.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what) {
    fprintf(stderr, "measure: %s: %s\n", what, strerror(errno));
    exit(2);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The feeder of -p: copies `path` into the pipe's write end, then exits. */
static pid_t feed(const char *path, int rfd, int wfd) {
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid > 0) return pid;
    close(rfd);  /* so that the pipe ends when the measured program is gone */
    int fd = open(path, O_RDONLY);
    if (fd < 0) _exit(2);
    static char buf[1 << 17];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) _exit(n < 0 ? 2 : 0);
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(wfd, buf + off, (size_t)(n - off));
            if (w < 0) _exit(errno == EPIPE ? 0 : 2);
            off += w;
        }
    }
}

/* Read `path` through (into the page cache); errors are the run's to meet. */
static void warm(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    static char buf[1 << 20];
    while (read(fd, buf, sizeof buf) > 0) {
    }
    close(fd);
}

static int run_once(char **argv, const char *in, const char *pipe_from, const char *out,
                    double *secs, long *maxrss_kib) {
    int pfd[2] = {-1, -1};
    if (pipe_from && pipe(pfd) != 0) die("pipe");
    double t0 = now();
    pid_t feeder = pipe_from ? feed(pipe_from, pfd[0], pfd[1]) : -1;
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        int ifd = pipe_from ? pfd[0] : open(in, O_RDONLY);
        int ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (ifd < 0 || ofd < 0 || dup2(ifd, 0) < 0 || dup2(ofd, 1) < 0) _exit(127);
        if (pipe_from) close(pfd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pipe_from) {
        close(pfd[0]);
        close(pfd[1]);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) die("wait4");
    *secs = now() - t0;
    if (feeder > 0) waitpid(feeder, NULL, 0);
    *maxrss_kib = ru.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv) {
    int runs = 3, opt;
    const char *in = "/dev/null", *out = "/dev/null", *pipe_from = NULL, *warm_file = NULL;
    while ((opt = getopt(argc, argv, "+r:i:p:o:w:")) != -1) {
        switch (opt) {
        case 'r': runs = atoi(optarg); break;
        case 'i': in = optarg; break;
        case 'p': pipe_from = optarg; break;
        case 'o': out = optarg; break;
        case 'w': warm_file = optarg; break;
        default: return 2;
        }
    }
    if (optind >= argc || runs < 1 || runs > 10000) {
        fprintf(stderr, "usage: measure [-r RUNS] [-i FILE] [-p FILE] [-o FILE] [-w FILE] -- PROGRAM [ARG...]\n");
        return 2;
    }
    double *t = calloc((size_t)runs, sizeof *t);
    if (!t) die("calloc");
    long rss = 0;
    int status = 0;
    for (int i = 0; i < runs; i++) {
        long r;
        if (warm_file) warm(warm_file);
        status = run_once(argv + optind, in, pipe_from, out, &t[i], &r);
        if (r > rss) rss = r;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    printf("%.6f %.6f %ld %d\n", median, t[0], rss, status);
    free(t);
    return 0;
}
