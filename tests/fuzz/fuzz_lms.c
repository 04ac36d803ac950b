/* libFuzzer target: the lms reader (see fuzz.h). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tw_optset *opts = tw_fuzz_options("lms", size);
    tw_fuzz_read("lms", opts, data, size, NULL);
    tw_optset_free(opts);
    return 0;
}
