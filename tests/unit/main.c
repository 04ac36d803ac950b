/* The unit-test runner: every test listed here runs once. */
#include <stdarg.h>
#include <stdlib.h>

#include "harness.h"

#define TESTS(X)                                                                        \
    X(strtab_interning) X(strtab_many) X(strtab_front_cache) X(strtab_limit) X(hash_stable)                   \
    X(time_round) X(parse_numbers) X(scan_hex) X(find_byte) X(utf8_validation) X(utf16_units) X(display_cells) X(json_escaping) X(json_escaping_every_place) X(xml_escaping) X(base64)        \
    X(csv_quoting) X(output_numbers) X(output_oneline_pad) X(output_errors) X(output_replace) X(grow) X(calloc_lines) X(event_clear_copy) X(spool_channels) X(format_utc) X(floor_to) X(chrome_nesting_repairs) X(chrome_spooled_as_direct) X(chrome_spooled_foreign_strings) X(chrome_replay_changed) X(viewers_random_input) X(viewer_checks_fail) X(input_lines_mem)                \
    X(input_lines_stream) X(input_window) X(input_long_lines) X(input_peek) X(input_open_errors) X(input_map_ahead) X(input_read_ahead) X(input_read_ahead_terminal) X(input_read_ahead_threads) X(input_wait) X(input_truncated) X(input_truncated_last_page) \
    X(diag_rules) X(registry_lookup) X(detect_formats) X(options)                       \
    X(rtl_header) X(rtl_records) X(rtl_messages) X(rtl_subscopes_option)                \
    X(rtl_wraparound) X(rtl_bad_lines) X(rtl_interleaved) X(rtl_interleaved_deep) X(rtl_pid_from_name)          \
    X(rtl_trailer_reopen) X(rtl_writer) X(writer_losses) X(writer_extremes) X(rtl_writer_ambiguities) X(name_limit) X(transient_names)                                               \
    X(stacktrack_event_outlives_eof) X(lms_basic) X(lms_negative_diff) X(lms_mapping_problems) X(lms_largest_id) X(lms_legacy)            \
    X(lms_bad_lines) X(lms_writer)                                                      \
    X(jsonl_reader_fields) X(jsonl_reader_strings) X(jsonl_reader_errors)              \
    X(jsonl_writer_bytes) X(jsonl_hostile_keys) X(jsonl_ranges) X(source_merge) X(source_threads_min_bytes) X(source_drop_details) X(source_next_ref) X(source_merge_unanchored) X(source_merge_extreme) X(pump_steering) X(pump_idle) X(read_batch_contract) X(reader_batch_equals_next) X(text1_checks_switch) \
    X(stats_nesting) X(stats_thread_names) X(stats_recursion) X(stats_zero_length) X(stats_repairs) X(stats_threads) \
    X(stats_preemption) X(stats_fast_path) X(stats_fast_path_taken) X(stats_time_backwards) X(durations) X(stats_pairing_hooks) X(stat_arithmetic) X(profile_api) X(json_tree) \
    X(json_tree_errors)

#define DECLARE(name) void test_##name(void);
TESTS(DECLARE)

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define ENTRY(name) {#name, test_##name},
    TESTS(ENTRY)
};

static int failures;
static const char *current;

void tu_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("%s:%d: %s: ", file, line, current);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

int main(int argc, char **argv) {
    int pass = 0, fail = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        current = tests[i].name;
        int before = failures;
        tests[i].fn();
        if (failures == before) pass++;
        else {
            printf("FAIL %s\n", tests[i].name);
            fail++;
        }
    }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
