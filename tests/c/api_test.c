/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Drives the whole C API from C: devices, streams, events, memory, buffers on every edge
 * type, the block work-wrapper, and every bad-input case. Returns 0 on success; on failure
 * prints what failed and returns 1. Runs on whatever backend GRCUDA_BACKEND selects. */

#include "grcuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                                                   \
    do {                                                                                   \
        if (!(condition)) {                                                                \
            const char *message = grcuda_last_error_message();                             \
            fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__,        \
                    __LINE__, #condition, message ? message : "none");                     \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define OK(call) CHECK((call) == GRCUDA_STATUS_OK)

/* The call must fail with `status` and leave a message mentioning `needle`. */
#define FAILS_WITH(call, status, needle)                                                   \
    do {                                                                                   \
        enum grcuda_status got_ = (call);                                                  \
        const char *message_ = grcuda_last_error_message();                                \
        if (got_ != (status) || message_ == NULL || strstr(message_, (needle)) == NULL) {  \
            fprintf(stderr, "%s:%d: %s returned %s with message \"%s\"; expected %s "     \
                    "mentioning \"%s\"\n", __FILE__, __LINE__, #call,                      \
                    grcuda_status_name(got_), message_ ? message_ : "(null)",              \
                    grcuda_status_name(status), (needle));                                 \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define INVALID(call, needle) FAILS_WITH(call, GRCUDA_STATUS_INVALID_ARGUMENT, needle)

static void test_basics(void) {
    CHECK(grcuda_abi_version() == GRCUDA_ABI_VERSION);
    CHECK(strcmp(grcuda_status_name(GRCUDA_STATUS_OK), "GRCUDA_STATUS_OK") == 0);
    CHECK(strcmp(grcuda_status_name(12345), "GRCUDA_STATUS_UNKNOWN") == 0);
    CHECK(strcmp(grcuda_status_name(-1), "GRCUDA_STATUS_UNKNOWN") == 0);
    int32_t count = -1;
    OK(grcuda_device_count(GRCUDA_BACKEND_SIMULATED, &count));
    CHECK(count == 2);
    INVALID(grcuda_device_count(99, &count), "backend 99 is unknown");
    CHECK(count == 0);
    INVALID(grcuda_device_count(GRCUDA_BACKEND_SIMULATED, NULL), "count_out is NULL");
}

static void test_device_errors(void) {
    struct grcuda_device *device = (struct grcuda_device *)1;
    INVALID(grcuda_device_open(-1, GRCUDA_BACKEND_AUTO, &device), "negative");
    CHECK(device == NULL);
    INVALID(grcuda_device_open(0, 7, &device), "backend 7 is unknown");
    INVALID(grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, NULL), "device_out is NULL");
    FAILS_WITH(grcuda_device_open(3, GRCUDA_BACKEND_SIMULATED, &device), GRCUDA_STATUS_NO_DEVICE,
               "ordinal 3 does not exist");
    FAILS_WITH(grcuda_device_open(4096, GRCUDA_BACKEND_AUTO, &device), GRCUDA_STATUS_NO_DEVICE,
               "does not exist");
    struct grcuda_device_info info;
    memset(&info, 0x5a, sizeof info);
    info.vmm_supported = true;
    INVALID(grcuda_device_get_info(NULL, &info), "device is NULL");
    CHECK(info.backend == 0 && info.name[0] == 0 && info.total_memory == 0 && !info.vmm_supported);
    grcuda_device_free(NULL);
    grcuda_stream_free(NULL);
    grcuda_event_free(NULL);
    grcuda_memory_free(NULL);
    grcuda_buffer_free(NULL);
    grcuda_block_free(NULL);
    CHECK(grcuda_stream_handle(NULL) == 0);
    CHECK(grcuda_memory_address(NULL) == NULL);
    CHECK(grcuda_memory_size(NULL) == 0);
    CHECK(grcuda_buffer_ring_items(NULL) == 0);
    CHECK(grcuda_block_stream(NULL) == NULL);
}

static void test_streams_events_memory(struct grcuda_device *device) {
    struct grcuda_stream *stream = NULL;
    /* Out-parameters are cleared on failure, also when the handle argument is NULL. */
    struct grcuda_stream *unused_stream = (struct grcuda_stream *)1;
    INVALID(grcuda_stream_new(NULL, &unused_stream), "device is NULL");
    CHECK(unused_stream == NULL);
    struct grcuda_event *null_device_event = (struct grcuda_event *)1;
    INVALID(grcuda_event_new(NULL, GRCUDA_HOST_WAIT_SPIN, &null_device_event), "device is NULL");
    CHECK(null_device_event == NULL);
    struct grcuda_memory *null_device_memory = (struct grcuda_memory *)1;
    INVALID(grcuda_memory_new(NULL, GRCUDA_MEMORY_DEVICE, 16, &null_device_memory), "device is NULL");
    CHECK(null_device_memory == NULL);
    struct grcuda_block *null_device_block = (struct grcuda_block *)1;
    INVALID(grcuda_block_new(NULL, GRCUDA_HOST_WAIT_SPIN, &null_device_block), "device is NULL");
    CHECK(null_device_block == NULL);
    uint64_t free_bytes = 12345;
    INVALID(grcuda_device_free_memory(NULL, &free_bytes), "device is NULL");
    CHECK(free_bytes == 0);
    INVALID(grcuda_block_consume(NULL, 0, 0, 1), "block is NULL");
    OK(grcuda_stream_new(device, &stream));
    /* A stream libgrcuda does not own, by its handle (a CuPy stream's ptr): here its own. */
    INVALID(grcuda_device_synchronize_stream_handle(NULL, 0), "device is NULL");
    OK(grcuda_device_synchronize_stream_handle(device, grcuda_stream_handle(stream)));
    struct grcuda_event *event = NULL, *unused_event = NULL;
    INVALID(grcuda_event_new(device, 5, &unused_event), "host wait 5 is unknown");
    CHECK(unused_event == NULL);
    OK(grcuda_event_new(device, GRCUDA_HOST_WAIT_BLOCK, &event));
    grcuda_event_free(event);
    OK(grcuda_event_new(device, GRCUDA_HOST_WAIT_SPIN, &event));

    const size_t bytes = 1 << 20;
    struct grcuda_memory *host_in = NULL, *host_out = NULL, *device_memory = NULL, *ring = NULL;
    OK(grcuda_memory_new(device, GRCUDA_MEMORY_PINNED_HOST, bytes, &host_in));
    OK(grcuda_memory_new(device, GRCUDA_MEMORY_PINNED_HOST, bytes, &host_out));
    OK(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, bytes, &device_memory));
    INVALID(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, 0, &ring), "size is 0");
    CHECK(ring == NULL);
    INVALID(grcuda_memory_new(device, 42, 16, &ring), "memory kind 42 is unknown");
    INVALID(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE_RING, (size_t)-1, &ring), "exceeds");
    FAILS_WITH(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, (size_t)1 << 42, &ring),
               GRCUDA_STATUS_OUT_OF_MEMORY, "free device memory");
    OK(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE_RING, 1, &ring));
    CHECK(grcuda_memory_size(ring) > 0);

    unsigned char *in = grcuda_memory_address(host_in), *out = grcuda_memory_address(host_out);
    for (size_t i = 0; i < bytes; i++) in[i] = (unsigned char)(i * 7 + 3);
    memset(out, 0, bytes);
    OK(grcuda_stream_copy_async(stream, grcuda_memory_address(device_memory), in, bytes));
    OK(grcuda_stream_copy_async(stream, out, grcuda_memory_address(device_memory), bytes));
    OK(grcuda_event_record(event, stream));
    enum grcuda_status query = grcuda_event_query(event);
    CHECK(query == GRCUDA_STATUS_OK || query == GRCUDA_STATUS_NOT_READY);
    OK(grcuda_event_synchronize(event));
    CHECK(grcuda_event_query(event) == GRCUDA_STATUS_OK);
    CHECK(memcmp(in, out, bytes) == 0);
    OK(grcuda_stream_memset_async(stream, grcuda_memory_address(device_memory), 0x5a, bytes / 2));
    OK(grcuda_stream_copy_async(stream, out, grcuda_memory_address(device_memory), bytes));
    OK(grcuda_stream_synchronize(stream));
    CHECK(out[0] == 0x5a && out[bytes / 2 - 1] == 0x5a && out[bytes / 2] == in[bytes / 2]);
    INVALID(grcuda_stream_memset_async(stream, NULL, 0, 4), "destination is NULL");
    INVALID(grcuda_stream_copy_async(stream, NULL, in, 4), "NULL");
    OK(grcuda_stream_copy_async(stream, NULL, NULL, 0));
    /* Sizes no memory can have, and overlapping copies, are refused before anything runs. */
    INVALID(grcuda_stream_memset_async(stream, grcuda_memory_address(device_memory), 0, (size_t)-16),
            "runs past the end of the address space");
    INVALID(grcuda_stream_copy_async(stream, out, in, (size_t)-1), "runs past the end");
    INVALID(grcuda_stream_copy_async(stream, in + 8, in, 64), "overlap");
    OK(grcuda_stream_wait_event(stream, event));
    INVALID(grcuda_stream_wait_event(stream, NULL), "event is NULL");
    OK(grcuda_stream_synchronize(stream));

    grcuda_memory_free(ring);
    grcuda_memory_free(device_memory);
    grcuda_memory_free(host_out);
    grcuda_memory_free(host_in);
    grcuda_event_free(event);
    grcuda_stream_free(stream);
}

static void test_buffer_errors(struct grcuda_device *device) {
    struct grcuda_buffer *buffer = (struct grcuda_buffer *)1;
    INVALID(grcuda_buffer_new(device, 0, 16, GRCUDA_HOST_WAIT_SPIN, &buffer), "item size is 0");
    CHECK(buffer == NULL);
    INVALID(grcuda_buffer_new(device, 4, 0, GRCUDA_HOST_WAIT_SPIN, &buffer), "at least 1 item");
    INVALID(grcuda_buffer_new(device, 8, (size_t)-1 / 4, GRCUDA_HOST_WAIT_SPIN, &buffer), "exceeds");
    INVALID(grcuda_buffer_new(device, 4, 16, 9, &buffer), "host wait 9 is unknown");
    buffer = (struct grcuda_buffer *)1;
    INVALID(grcuda_buffer_new(NULL, 4, 16, GRCUDA_HOST_WAIT_SPIN, &buffer), "device is NULL");
    CHECK(buffer == NULL);
    OK(grcuda_buffer_new(device, 4, 1000, GRCUDA_HOST_WAIT_SPIN, &buffer));
    size_t n = grcuda_buffer_ring_items(buffer);
    CHECK(n >= 1000);
    CHECK(grcuda_buffer_item_size(buffer) == 4);

    void *pointer = NULL;
    OK(grcuda_buffer_writer_pointer(buffer, 0, &pointer)); /* allowed before the transfer type */
    CHECK(pointer != NULL);
    INVALID(grcuda_buffer_post_work(buffer, 0, 1), "transfer type is not set");
    INVALID(grcuda_buffer_begin_write(buffer, 0, 1), "transfer type is not set");
    INVALID(grcuda_buffer_set_transfer_type(buffer, 0), "transfer type 0 is unknown");
    INVALID(grcuda_buffer_set_transfer_type(buffer, 4), "transfer type 4 is unknown");

    struct grcuda_stream *stream = NULL;
    OK(grcuda_stream_new(device, &stream));
    size_t reader = 99;
    OK(grcuda_buffer_add_reader(buffer, NULL, &reader)); /* a CPU reader */
    CHECK(reader == 0);
    OK(grcuda_buffer_set_transfer_type(buffer, GRCUDA_TRANSFER_DEVICE_TO_HOST));
    INVALID(grcuda_buffer_set_transfer_type(buffer, GRCUDA_TRANSFER_DEVICE_TO_HOST), "already set");
    INVALID(grcuda_buffer_add_reader(buffer, stream, &reader), "register them without a stream");
    OK(grcuda_buffer_set_writer_stream(buffer, stream));

    INVALID(grcuda_buffer_writer_pointer(buffer, n, &pointer), "out of range");
    CHECK(pointer == NULL);
    const void *read_pointer = NULL;
    INVALID(grcuda_buffer_reader_pointer(buffer, n + 5, &read_pointer), "out of range");
    INVALID(grcuda_buffer_writer_pointer(buffer, 0, NULL), "pointer_out is NULL");
    INVALID(grcuda_buffer_post_work(buffer, n, 1), "out of range");
    INVALID(grcuda_buffer_post_work(buffer, 0, n + 1), "exceeds");
    INVALID(grcuda_buffer_begin_write(buffer, 0, (size_t)-1), "exceeds");
    INVALID(grcuda_buffer_consume(buffer, 1, 0, 1), "reader 1 does not exist");
    INVALID(grcuda_buffer_consume(buffer, 0, n, 1), "out of range");
    INVALID(grcuda_buffer_set_reader_stream(buffer, 3, NULL), "reader 3 does not exist");
    OK(grcuda_buffer_post_work(buffer, 0, 0)); /* zero-length work is a no-op */
    OK(grcuda_buffer_begin_write(buffer, n - 1, 0));
    OK(grcuda_buffer_consume(buffer, 0, 0, 0));
    OK(grcuda_buffer_wait_published(buffer, 0, n));
    INVALID(grcuda_buffer_wait_published(buffer, n, 1), "out of range");
    size_t published = 99;
    OK(grcuda_buffer_published_items(buffer, 0, n, &published));
    CHECK(published == n); /* nothing was posted, so nothing is pending */
    INVALID(grcuda_buffer_published_items(buffer, 0, n + 1, &published), "exceeds");
    CHECK(published == 0);

    struct grcuda_buffer *host_to_device = NULL;
    OK(grcuda_buffer_new(device, 4, 100, GRCUDA_HOST_WAIT_SPIN, &host_to_device));
    OK(grcuda_buffer_set_writer_stream(host_to_device, stream));
    INVALID(grcuda_buffer_set_transfer_type(host_to_device, GRCUDA_TRANSFER_HOST_TO_DEVICE),
            "register it without a stream");
    OK(grcuda_buffer_set_writer_stream(host_to_device, NULL));
    OK(grcuda_buffer_set_transfer_type(host_to_device, GRCUDA_TRANSFER_HOST_TO_DEVICE));
    INVALID(grcuda_buffer_set_writer_stream(host_to_device, stream), "CPU block");

    grcuda_buffer_free(host_to_device);
    grcuda_stream_free(stream); /* the buffer keeps the stream alive */
    OK(grcuda_buffer_synchronize(buffer));
    grcuda_buffer_free(buffer);
}

/* CPU -> H2D buffer -> GPU block (copy) -> D2D buffer -> GPU block (copy) -> D2H buffer -> CPU,
 * several laps of the rings, with chunks that cross the wrap point. */
static void test_chain(struct grcuda_device *device) {
    struct grcuda_buffer *edges[3] = {NULL, NULL, NULL};
    const uint32_t kinds[3] = {GRCUDA_TRANSFER_HOST_TO_DEVICE, GRCUDA_TRANSFER_DEVICE_TO_DEVICE,
                               GRCUDA_TRANSFER_DEVICE_TO_HOST};
    for (int i = 0; i < 3; i++) {
        OK(grcuda_buffer_new(device, sizeof(float), 3000, GRCUDA_HOST_WAIT_BLOCK, &edges[i]));
        OK(grcuda_buffer_set_transfer_type(edges[i], kinds[i]));
    }
    struct grcuda_block *blocks[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        OK(grcuda_block_new(device, GRCUDA_HOST_WAIT_BLOCK, &blocks[i]));
        const struct grcuda_buffer *inputs[1] = {edges[i]}, *outputs[1] = {edges[i + 1]};
        OK(grcuda_block_attach_ports(blocks[i], inputs, 1, outputs, 1));
        CHECK(grcuda_block_stream(blocks[i]) != NULL);
    }
    size_t cpu_reader = 99;
    OK(grcuda_buffer_add_reader(edges[2], NULL, &cpu_reader));
    CHECK(cpu_reader == 0); /* the GPU block's port on the device-to-host edge is in host memory */
    INVALID(grcuda_block_consume(blocks[1], 1, 0, 1), "input port 1 does not exist");
    INVALID(grcuda_block_attach_ports(blocks[0], NULL, 1, NULL, 0), "inputs is NULL");
    INVALID(grcuda_block_end_work(blocks[0], NULL, 0), "1 input port");

    const size_t n = grcuda_buffer_ring_items(edges[0]);
    const size_t chunk = n / 3 + 7; /* never divides the ring: chunks cross the wrap point */
    size_t position = 0;
    for (size_t lap = 0; lap < 10; lap++, position = (position + chunk) % n) {
        /* CPU source writes host memory and posts (the DMA starts). */
        void *host = NULL;
        OK(grcuda_buffer_begin_write(edges[0], position, chunk));
        OK(grcuda_buffer_writer_pointer(edges[0], position, &host));
        for (size_t i = 0; i < chunk; i++) ((float *)host)[i] = (float)(lap * chunk + i);
        OK(grcuda_buffer_post_work(edges[0], position, chunk));
        /* Each GPU block: begin_write, copy on its stream, end_work or consume, post_work. */
        for (int b = 0; b < 2; b++) {
            const void *in = NULL;
            void *out = NULL;
            OK(grcuda_buffer_begin_write(edges[b + 1], position, chunk));
            OK(grcuda_buffer_begin_read(edges[b], position, &in));
            OK(grcuda_buffer_writer_pointer(edges[b + 1], position, &out));
            OK(grcuda_stream_copy_async(grcuda_block_stream(blocks[b]), out, in, chunk * sizeof(float)));
            if (b == 0) { /* a sync block: one event for its read and its post */
                const struct grcuda_consumption consumed = {position, chunk};
                OK(grcuda_block_end_work(blocks[b], &consumed, 1));
            } else { /* a general block: a record per input */
                OK(grcuda_block_consume(blocks[b], 0, position, chunk));
            }
            OK(grcuda_buffer_post_work(edges[b + 1], position, chunk));
        }
        /* CPU sink waits for the host copy and checks. */
        const void *result = NULL;
        OK(grcuda_buffer_wait_published(edges[2], position, chunk));
        size_t published = 0;
        OK(grcuda_buffer_published_items(edges[2], position, chunk, &published));
        CHECK(published == chunk);
        OK(grcuda_buffer_begin_read(edges[2], position, &result));
        for (size_t i = 0; i < chunk; i++) {
            if (((const float *)result)[i] != (float)(lap * chunk + i)) {
                fprintf(stderr, "chain: lap %zu item %zu is %f\n", lap, i, ((const float *)result)[i]);
                failures++;
                break;
            }
        }
        OK(grcuda_buffer_consume(edges[2], cpu_reader, position, chunk));
    }
    grcuda_block_free(blocks[0]);
    grcuda_block_free(blocks[1]);
    for (int i = 0; i < 3; i++) grcuda_buffer_free(edges[i]);
}

/* Kernels and FFT from C, checked against results computed here. */
static void test_kernels(struct grcuda_device *device) {
    enum { COUNT = 4096, FFT_SIZE = 256 };
    struct grcuda_stream *stream = NULL;
    OK(grcuda_stream_new(device, &stream));
    struct grcuda_memory *host = NULL, *memory[4] = {NULL, NULL, NULL, NULL};
    OK(grcuda_memory_new(device, GRCUDA_MEMORY_PINNED_HOST, 4 * COUNT * 8, &host));
    for (int i = 0; i < 4; i++) OK(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, COUNT * 8, &memory[i]));
    float *values = grcuda_memory_address(host);
    for (int i = 0; i < COUNT; i++) values[i] = (float)((i * 37) % 101) / 10.0f + 0.5f;
    void *a = grcuda_memory_address(memory[0]), *b = grcuda_memory_address(memory[1]);
    void *c = grcuda_memory_address(memory[2]), *d = grcuda_memory_address(memory[3]);
    OK(grcuda_stream_copy_async(stream, a, values, COUNT * sizeof(float)));
    OK(grcuda_multiply_const_ff(stream, a, b, COUNT, 2.0f));          /* b = 2a */
    const void *inputs[3] = {a, b, a};
    OK(grcuda_add_ff(stream, inputs, 3, c, COUNT));                    /* c = 4a */
    OK(grcuda_nlog10_ff(stream, c, d, COUNT, 10.0f, 1.0f));            /* d = 10 log10(4a) + 1 */
    float *result = values + COUNT;
    OK(grcuda_stream_copy_async(stream, result, d, COUNT * sizeof(float)));
    OK(grcuda_stream_synchronize(stream));
    for (int i = 0; i < COUNT; i++) {
        float expected = 10.0f * log10f(4.0f * values[i]) + 1.0f;
        if (fabsf(result[i] - expected) > 1e-4f * fabsf(expected) + 1e-5f) {
            fprintf(stderr, "kernels: item %d is %f, expected %f\n", i, result[i], expected);
            failures++;
            break;
        }
    }
    /* FFT of a complex tone at bin 5: all energy in bin 5. */
    float *tone = values;
    for (int i = 0; i < FFT_SIZE; i++) {
        tone[2 * i] = cosf(2.0f * 3.14159265f * 5.0f * (float)i / FFT_SIZE);
        tone[2 * i + 1] = sinf(2.0f * 3.14159265f * 5.0f * (float)i / FFT_SIZE);
    }
    OK(grcuda_stream_copy_async(stream, a, tone, FFT_SIZE * 8));
    struct grcuda_fft_plan *plan = NULL;
    OK(grcuda_fft_plan_new(stream, GRCUDA_FFT_FORWARD, FFT_SIZE, &plan));
    OK(grcuda_fft_plan_execute(plan, 1, a, b));
    OK(grcuda_complex_to_mag(stream, b, c, FFT_SIZE));
    OK(grcuda_stream_copy_async(stream, result, c, FFT_SIZE * sizeof(float)));
    OK(grcuda_stream_synchronize(stream));
    CHECK(fabsf(result[5] - FFT_SIZE) < 1e-2f);
    CHECK(fabsf(result[6]) < 1e-2f && fabsf(result[4]) < 1e-2f);

    OK(grcuda_fft_plan_execute(plan, 0, NULL, NULL)); /* an empty batch */
    INVALID(grcuda_fft_plan_execute(plan, 1, a, (char *)a + 8), "overlap");
    INVALID(grcuda_fft_plan_execute(NULL, 1, a, b), "plan is NULL");
    OK(grcuda_fft_plan_execute(plan, 1, a, a)); /* in place */
    grcuda_fft_plan_free(plan); /* with a transform queued: freeing waits for it */
    grcuda_fft_plan_free(NULL);
    struct grcuda_fft_plan *no_plan = (struct grcuda_fft_plan *)1;
    INVALID(grcuda_fft_plan_new(stream, 9, FFT_SIZE, &no_plan), "FFT kind 9 is unknown");
    CHECK(no_plan == NULL);
    INVALID(grcuda_fft_plan_new(NULL, GRCUDA_FFT_FORWARD, FFT_SIZE, &no_plan), "stream is NULL");
    INVALID(grcuda_fft_plan_new(stream, GRCUDA_FFT_FORWARD, 0, &no_plan), "FFT size is 0");
    INVALID(grcuda_fft_plan_new(stream, GRCUDA_FFT_FORWARD, FFT_SIZE, NULL), "plan_out is NULL");
    INVALID(grcuda_add_ff(stream, inputs, 0, c, COUNT), "at least one input");
    INVALID(grcuda_add_ff(stream, NULL, 2, c, COUNT), "inputs is NULL");
    INVALID(grcuda_multiply_const_ff(stream, NULL, b, COUNT, 1.0f), "NULL");
    OK(grcuda_multiply_const_ff(stream, NULL, NULL, 0, 1.0f)); /* zero-length work */
    struct grcuda_complex32 k = {0.0f, 1.0f};
    OK(grcuda_multiply_const_cc(stream, a, b, FFT_SIZE, k));
    OK(grcuda_stream_synchronize(stream));
    for (int i = 0; i < 4; i++) grcuda_memory_free(memory[i]);
    grcuda_memory_free(host);
    grcuda_stream_free(stream);
}

int main(void) {
    test_basics();
    test_device_errors();
    struct grcuda_device *device = NULL;
    OK(grcuda_device_open(0, GRCUDA_BACKEND_AUTO, &device));
    if (device == NULL) return 1;
    struct grcuda_device_info info;
    OK(grcuda_device_get_info(device, &info));
    printf("C API test on %s (backend %u, compute capability %d.%d, %d multiprocessors, "
           "ring granularity %llu)\n", info.name, info.backend, info.compute_capability_major,
           info.compute_capability_minor, info.multiprocessor_count,
           (unsigned long long)info.ring_granularity);
    /* Everything runs twice, and the second round must leave free device memory exactly
     * where it found it. The first round leaves what the driver keeps for itself: loaded
     * kernel modules, FFT plans, its sub-allocator's pages. */
    uint64_t free_before = 0, free_after = 0;
    for (int round = 0; round < 2; round++) {
        OK(grcuda_device_free_memory(device, &free_before));
        test_streams_events_memory(device);
        test_buffer_errors(device);
        test_chain(device);
        test_kernels(device);
        OK(grcuda_device_synchronize(device));
        OK(grcuda_device_free_memory(device, &free_after));
    }
    if (free_after != free_before) {
        fprintf(stderr, "free device memory went from %llu to %llu bytes\n",
                (unsigned long long)free_before, (unsigned long long)free_after);
        failures++;
    }
    grcuda_device_free(device);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("C API test passed\n");
    return 0;
}
