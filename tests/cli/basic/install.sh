# make install puts binary, library, headers and man page under DESTDIR/PREFIX;
# a program builds against the installed headers and library alone;
# make uninstall takes everything away again
make -s -C "$TOP" BUILD="$BUILD" install DESTDIR="$PWD/root" PREFIX=/opt/tw >/dev/null
(cd root && find . -type f | sort)
root/opt/tw/bin/tracewright --version | head -n 1
cat >count.c <<'END'
#include <stdio.h>
#include <tracewright/tracewright.h>

int main(int argc, char **argv) {
    tw_diag_sink diag = {0};
    tw_strtab *names = tw_strtab_new();
    tw_source *src;
    if (tw_source_open((const char *const *)argv + 1, (size_t)argc - 1, NULL, names, &diag,
                       &src) != TW_OK)
        return 2;
    tw_event ev;
    unsigned long begins = 0;
    while (tw_source_next(src, &ev) == TW_OK) begins += ev.kind == TW_BEGIN;
    printf("%s: %llu events, %lu begins, %zu names, library %s\n",
           tw_source_info(src)->format, (unsigned long long)tw_source_event_count(src), begins,
           tw_strtab_count(names), tw_version());
    tw_source_close(src);
    tw_strtab_free(names);
    return 0;
}
END
san=""
nm root/opt/tw/lib/libtracewright.a 2>/dev/null | grep -q __asan_ && san="-fsanitize=address,undefined"
cc -std=c11 -Wall -Wextra -Werror $san -I root/opt/tw/include -o count count.c root/opt/tw/lib/libtracewright.a &&
    ./count "$EXAMPLES/control-loop.csv"
make -s -C "$TOP" BUILD="$BUILD" uninstall DESTDIR="$PWD/root" PREFIX=/opt/tw >/dev/null
echo "after uninstall: $(cd root && find . -type f | wc -l) files"
