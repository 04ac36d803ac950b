/*
 * Output directories (see tw_outdir_open in tracewright/io.h): built in a
 * temporary sibling directory and renamed into place at the end, so that a
 * failed run leaves the target as it was.
 */
#define _DEFAULT_SOURCE /* realpath() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracewright/io.h"
#include "util.h"

struct tw_outdir {
    char *path;   /* where it goes */
    char *tmp;    /* where it is built */
    char **files; /* the paths of the files made in it (tw_temporary_add()) */
    size_t nfiles;
};

/* Remove the regular files of a directory, then the directory; -1 (errno
 * set) when it holds anything else or a removal fails. */
static int remove_flat_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    size_t n = strlen(dir);
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char *p = malloc(n + strlen(e->d_name) + 2);
        if (!p) {
            errno = ENOMEM;
            rc = -1;
            break;
        }
        sprintf(p, "%s/%s", dir, e->d_name);
        struct stat st;
        /* NOLINTNEXTLINE(bugprone-branch-clone): lstat, the type, then unlink, in order */
        if (lstat(p, &st) != 0) {
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            errno = ENOTEMPTY;
            rc = -1;
        } else if (unlink(p) != 0) {
            rc = -1;
        }
        free(p);
    }
    int e2 = errno;
    closedir(d);
    if (rc == 0 && rmdir(dir) != 0) return -1;
    errno = e2;
    return rc;
}

/* Whether the file starts with `sig`. */
static bool starts_with(const char *path, const char *sig) {
    size_t n = strlen(sig);
    char buf[256];
    if (n > sizeof buf) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = fread(buf, 1, n, f) == n && memcmp(buf, sig, n) == 0;
    fclose(f);
    return ok;
}

/* Whether an existing directory may be replaced: empty, or an earlier
 * output of the same writer (only regular files: the marker, starting with
 * the signature, and files named with the prefix). */
static bool replaceable(const char *path, const tw_outdir_spec *spec) {
    DIR *d = opendir(path);
    if (!d) return false;
    bool empty = true, marked = false, foreign = false;
    size_t n = strlen(path);
    struct dirent *e;
    while (!foreign && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        empty = false;
        char *p = malloc(n + strlen(e->d_name) + 2);
        struct stat st;
        if (!p) {
            foreign = true;
            break;
        }
        sprintf(p, "%s/%s", path, e->d_name);
        bool is_marker = spec && spec->marker && !strcmp(e->d_name, spec->marker);
        /* NOLINTNEXTLINE(bugprone-branch-clone): the marker is told apart first */
        if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) foreign = true;
        else if (is_marker) marked = !spec->signature || starts_with(p, spec->signature);
        else if (!spec || !spec->prefix || strncmp(e->d_name, spec->prefix, strlen(spec->prefix)))
            foreign = true;
        free(p);
    }
    closedir(d);
    return empty || (marked && !foreign);
}

tw_outdir *tw_outdir_open(const char *path, const tw_outdir_spec *spec) {
    struct stat st;
    if (stat(path, &st) == 0 && (!S_ISDIR(st.st_mode) || !replaceable(path, spec))) {
        errno = EEXIST;
        return NULL;
    }
    tw_outdir *d = calloc(1, sizeof *d);
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;  /* "out/" names "out" */
    if (d) d->path = strndup(path, n);
    struct stat l;
    if (d && d->path && lstat(d->path, &l) == 0 && S_ISLNK(l.st_mode)) {
        /* a link to an earlier output: that one is replaced, the link kept
         * (a link to nothing is replaced itself, as a file would be) */
        char *real = realpath(d->path, NULL);
        if (real) {
            free(d->path);
            d->path = real;
        }
    }
    if (d && d->path) d->tmp = tw_temporary_name(d->path, false, ".tmp-XXXXXX");
    if (!d || !d->path || !d->tmp) {
        if (d) free(d->path);
        free(d);
        errno = ENOMEM;
        return NULL;
    }
    if (!mkdtemp(d->tmp)) {
        int e = errno;
        free(d->tmp);
        free(d->path);
        free(d);
        errno = e;
        return NULL;
    }
    tw_temporary_add(d->tmp, true);
    /* mkdtemp makes it private; the output gets the usual permissions */
    mode_t mask = umask(0);
    umask(mask);
    chmod(d->tmp, 0777 & ~mask);
    return d;
}

static tw_output *open_in(tw_outdir *d, const char *name, int flags) {
    char *p = malloc(strlen(d->tmp) + strlen(name) + 2);
    if (!p) {
        errno = ENOMEM;
        return NULL;
    }
    sprintf(p, "%s/%s", d->tmp, name);
    int fd;
    do fd = open(p, flags | O_WRONLY | O_CLOEXEC, 0666);
    while (fd < 0 && errno == EINTR);
    /* a file made here is kept for tw_remove_temporaries() until the
     * directory is committed */
    char **v = NULL;
    if (fd >= 0 && (flags & O_CREAT)) v = realloc(d->files, (d->nfiles + 1) * sizeof *v);
    if (v) {
        d->files = v;
        d->files[d->nfiles++] = p;
        tw_temporary_add(p, false);
    } else {
        free(p);
    }
    if (fd < 0) return NULL;
    return tw_output_fd_owned(fd, name);
}

tw_output *tw_outdir_create(tw_outdir *d, const char *name) {
    return open_in(d, name, O_CREAT | O_EXCL);
}

tw_output *tw_outdir_append(tw_outdir *d, const char *name) {
    return open_in(d, name, O_APPEND);
}

const char *tw_outdir_path(const tw_outdir *d) { return d->path; }

static void free_dir(tw_outdir *d) {
    for (size_t i = 0; i < d->nfiles; i++) {
        tw_temporary_drop(d->files[i]);
        free(d->files[i]);
    }
    free(d->files);
    tw_temporary_drop(d->tmp);
    free(d->path);
    free(d->tmp);
    free(d);
}

int tw_outdir_commit(tw_outdir *d) {
    int err = 0;
    struct stat st;
    if (stat(d->path, &st) == 0) {
        /* the earlier output moves aside first, and goes when the new one
         * is in place */
        char *old = tw_temporary_name(d->path, false, ".old-XXXXXX");
        if (!old) {
            err = ENOMEM;
        } else {
            if (!mkdtemp(old) || rename(d->path, old) != 0) {
                err = errno;
                rmdir(old);
            } else if (rename(d->tmp, d->path) != 0) {
                err = errno;
                rename(old, d->path);
            } else {
                remove_flat_dir(old);
            }
            free(old);
        }
    } else if (rename(d->tmp, d->path) != 0) {
        err = errno;
    }
    if (err) remove_flat_dir(d->tmp);
    free_dir(d);
    return err;
}

void tw_outdir_abort(tw_outdir *d) {
    if (!d) return;
    remove_flat_dir(d->tmp);
    free_dir(d);
}
