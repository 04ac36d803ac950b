/* libFuzzer target: the text1-bin reader (see fuzz.h). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tw_optset *opts = tw_fuzz_options("text1-bin", size);
    tw_fuzz_read("text1-bin", opts, data, size, NULL);
    tw_optset_free(opts);
    return 0;
}
