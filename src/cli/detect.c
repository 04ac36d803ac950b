/* tracewright detect: tell the format of each file. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { O_ALL = 1, O_HELP };

static const cli_opt opts[] = {
    {"all", 'a', false, O_ALL},
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright detect [-a] [FILE...]\n"
           "\n"
           "Print 'FILE: FORMAT (confidence N)' for each file, judged from its first\n"
           "bytes and its name.  Unknown or ambiguous input is reported with the\n"
           "candidates; give the format with -f where a command reads it.  FILE '-'\n"
           "or no FILE means standard input.\n"
           "\n"
           "Options:\n"
           "  -a, --all   list every format that matches, with its confidence\n"
           "  -h, --help  show this help and exit\n"
           "\n"
           "Exit status: 0 every file was recognised; 2 otherwise.\n");
}

int cmd_detect(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "detect", argc, argv);
    bool all = false;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    if (!files) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    const char *arg;
    int id;
    while ((id = cli_next(&p, opts, &arg, NULL)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: free(files); return EXIT_TROUBLE;
        case CLI_OPERAND: files[nfiles++] = (char *)arg; break;
        case O_ALL: all = true; break;
        case O_HELP: help(); free(files); return EXIT_OK;
        }
    }
    if (nfiles == 0) files[nfiles++] = "-";  /* standard input, as elsewhere */
    if (!cli_stdin_ok("detect", files, nfiles, NULL)) {
        free(files);
        return EXIT_TROUBLE;
    }
    cli_diag diag;
    cli_diag_init(&diag, 0);
    int rc = EXIT_OK;
    for (int i = 0; i < nfiles; i++) {
        tw_input *in;
        if (tw_input_open(files[i], NULL, &diag.sink, &in) != 0) {
            rc = EXIT_TROUBLE;
            continue;
        }
        if (all) {
            const unsigned char *head;
            size_t len = tw_input_head(in, &head);
            tw_probe_result res[32];
            size_t n = tw_detect(head, len, tw_input_path(in), res, 32);
            if (n > 32) n = 32;
            for (size_t k = 0; k < n; k++)
                printf("%s: %s (confidence %d)\n", tw_input_name(in), res[k].format->name,
                       res[k].score);
            if (!tw_detect_pick(res, n)) {
                tw_detect_input(in, &diag.sink, NULL);
                rc = EXIT_TROUBLE;
            }
        } else {
            int score;
            const tw_format *f = tw_detect_input(in, &diag.sink, &score);
            if (f) printf("%s: %s (confidence %d)\n", tw_input_name(in), f->name, score);
            else rc = EXIT_TROUBLE;
        }
        tw_input_close(in);
    }
    free(files);
    return rc;
}
