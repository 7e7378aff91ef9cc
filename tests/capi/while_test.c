/* A WHILE model built through ANeuralNetworksModel_* (condition and body
 * through setOperandValueFromModel), compiled for the one device named on
 * the command line with createForDevices + setPriority, and run in every
 * execution mode: compute, startCompute + Event_wait, burst, fenced (with a
 * dependency chain and a failed dependency), with a loop timeout and a
 * deadline. Checks NNAPI's results and result codes. */
#define _GNU_SOURCE /* mkdtemp, opendir */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "capi_check.h"
#include "while_sum_model.h"

int capi_failures = 0;

typedef struct Run {
    int32_t n;
    int32_t i;
    int32_t s;
    ANeuralNetworksExecution* execution;
} Run;

static ANeuralNetworksCompilation* compile(ANeuralNetworksModel* model, const ANeuralNetworksDevice* device,
                                           int priority) {
    ANeuralNetworksCompilation* c = NULL;
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &c), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, priority), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    return c;
}

static void prepare_run(Run* run, ANeuralNetworksCompilation* c, int32_t n) {
    memset(run, 0, sizeof *run);
    run->n = n;
    run->i = run->s = -1;
    CHECK_RC(ANeuralNetworksExecution_create(c, &run->execution), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(run->execution, 0, NULL, &run->n, sizeof run->n), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutput(run->execution, 0, NULL, &run->i, sizeof run->i), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutput(run->execution, 1, NULL, &run->s, sizeof run->s), ANEURALNETWORKS_NO_ERROR);
}

static void check_sum(const Run* run) {
    CHECK(run->i == run->n);
    CHECK(run->s == run->n * (run->n - 1) / 2);
    uint32_t rank = 0, dims[1] = {0};
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(run->execution, 1, &rank), ANEURALNETWORKS_NO_ERROR);
    CHECK(rank == 1);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(run->execution, 1, dims), ANEURALNETWORKS_NO_ERROR);
    CHECK(dims[0] == 1);
}

static int is_missed_deadline(int rc) {
    return rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT || rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT;
}

/* Files in `dir` other than . and .. */
static int count_files(const char* dir) {
    DIR* d = opendir(dir);
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent* e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ++n;
    }
    closedir(d);
    return n;
}

/* setCaching: the first compilation stores its prepared form under the
 * token (fabric devices; the cpu device compiles nothing to keep), the second
 * loads it, and both run the model right. */
static void check_caching(ANeuralNetworksModel* model, const ANeuralNetworksDevice* device, int fabric) {
    char dir[] = "/tmp/nnfab-capi-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    for (int k = 0; k < ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN; ++k) token[k] = (uint8_t)(3 * k + 5);
    for (int round = 0; round < 2; ++round) {
        ANeuralNetworksCompilation* c = NULL;
        CHECK_RC(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &c), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksCompilation_setCaching(c, dir, token), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
        CHECK(count_files(dir) == (fabric ? 1 : 0));
        Run run;
        prepare_run(&run, c, 8);
        CHECK_RC(ANeuralNetworksExecution_compute(run.execution), ANEURALNETWORKS_NO_ERROR);
        check_sum(&run);
        ANeuralNetworksExecution_free(run.execution);
        ANeuralNetworksCompilation_free(c);
    }
    DIR* d = opendir(dir);
    if (d != NULL) {
        for (struct dirent* e = readdir(d); e != NULL; e = readdir(d)) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "cpu";
    const ANeuralNetworksDevice* device = find_device(name);
    if (device == NULL) {
        fprintf(stderr, "no device named %s\n", name);
        return 1;
    }

    WhileSumModel sum;
    CHECK_RC(while_sum_model_build(&sum, 1), ANEURALNETWORKS_NO_ERROR);
    bool supported[1] = {false};
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(sum.main, &device, 1, supported),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(supported[0]);
    ANeuralNetworksCompilation* c = compile(sum.main, device, ANEURALNETWORKS_PRIORITY_HIGH);

    /* compute, with timing and a generous deadline */
    Run run;
    prepare_run(&run, c, 12);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(run.execution, true), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(run.execution, 60000000000ull), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(run.execution, ANeuralNetworks_getMaximumLoopTimeout() + 1),
             ANEURALNETWORKS_NO_ERROR); /* clamped, not refused */
    CHECK_RC(ANeuralNetworksExecution_compute(run.execution), ANEURALNETWORKS_NO_ERROR);
    check_sum(&run);
    uint64_t on_hardware = 0, in_driver = 0;
    CHECK_RC(ANeuralNetworksExecution_getDuration(run.execution, ANEURALNETWORKS_DURATION_ON_HARDWARE, &on_hardware),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_getDuration(run.execution, ANEURALNETWORKS_DURATION_IN_DRIVER, &in_driver),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(in_driver != 0 && (on_hardware == UINT64_MAX || on_hardware <= in_driver));
    ANeuralNetworksExecution_free(run.execution);

    /* startCompute + Event_wait (twice: the same status) */
    prepare_run(&run, c, 7);
    ANeuralNetworksEvent* event = NULL;
    CHECK_RC(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
    check_sum(&run);
    int fence_fd = 0;
    CHECK_RC(ANeuralNetworksEvent_getSyncFenceFd(event, &fence_fd), ANEURALNETWORKS_OP_FAILED);
    CHECK(fence_fd == -1);
    ANeuralNetworksEvent_free(event);
    ANeuralNetworksExecution_free(run.execution);

    /* burst */
    ANeuralNetworksBurst* burst = NULL;
    CHECK_RC(ANeuralNetworksBurst_create(c, &burst), ANEURALNETWORKS_NO_ERROR);
    prepare_run(&run, c, 5);
    CHECK_RC(ANeuralNetworksExecution_burstCompute(run.execution, burst), ANEURALNETWORKS_NO_ERROR);
    check_sum(&run);
    ANeuralNetworksExecution_free(run.execution);
    ANeuralNetworksBurst_free(burst);

    /* fenced: the second execution starts after the first one's event */
    Run first, second;
    prepare_run(&first, c, 9);
    prepare_run(&second, c, 4);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(second.execution, true), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksEvent* first_done = NULL;
    ANeuralNetworksEvent* second_done = NULL;
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(first.execution, NULL, 0, 0, &first_done),
             ANEURALNETWORKS_NO_ERROR);
    const ANeuralNetworksEvent* deps[1] = {first_done};
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(second.execution, deps, 1, 60000000000ull,
                                                                   &second_done),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksEvent_wait(second_done), ANEURALNETWORKS_NO_ERROR);
    check_sum(&first); /* the dependency has completed before the dependent ran */
    check_sum(&second);
    uint64_t fenced = 0;
    CHECK_RC(ANeuralNetworksExecution_getDuration(second.execution, ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER, &fenced),
             ANEURALNETWORKS_NO_ERROR);
    CHECK(fenced != 0 && fenced != UINT64_MAX);
    CHECK_RC(ANeuralNetworksExecution_getDuration(second.execution, ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, &fenced),
             ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksEvent_free(second_done);
    ANeuralNetworksEvent_free(first_done);
    ANeuralNetworksExecution_free(second.execution);
    ANeuralNetworksExecution_free(first.execution);

    /* A loop that never ends: the loop timeout stops it (MISSED_DEADLINE_*),
     * in compute and in startCompute + Event_wait. */
    WhileSumModel forever;
    CHECK_RC(while_sum_model_build(&forever, 0), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation* fc = compile(forever.main, device, ANEURALNETWORKS_PRIORITY_LOW);
    prepare_run(&run, fc, 3);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(run.execution, 1000000), ANEURALNETWORKS_NO_ERROR);
    int rc = ANeuralNetworksExecution_compute(run.execution);
    CHECK(is_missed_deadline(rc));
    uint32_t rank = 0;
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(run.execution, 0, &rank), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksExecution_free(run.execution);

    prepare_run(&run, fc, 3);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(run.execution, 1000000), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_startCompute(run.execution, &event), ANEURALNETWORKS_NO_ERROR);
    rc = ANeuralNetworksEvent_wait(event);
    CHECK(is_missed_deadline(rc));
    ANeuralNetworksEvent_free(event);
    ANeuralNetworksExecution_free(run.execution);

    /* The deadline (Execution_setTimeout) ends it before the 15 s loop timeout. */
    prepare_run(&run, fc, 3);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(run.execution, ANeuralNetworks_getMaximumLoopTimeout()),
             ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(run.execution, 20000000), ANEURALNETWORKS_NO_ERROR);
    rc = ANeuralNetworksExecution_compute(run.execution);
    CHECK(is_missed_deadline(rc));
    ANeuralNetworksExecution_free(run.execution);

    /* A failed dependency fails the dependent execution with its status. */
    Run failing, dependent;
    prepare_run(&failing, fc, 3);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(failing.execution, 0), ANEURALNETWORKS_NO_ERROR);
    prepare_run(&dependent, c, 3);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(failing.execution, NULL, 0, 0, &first_done),
             ANEURALNETWORKS_NO_ERROR);
    deps[0] = first_done;
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(dependent.execution, deps, 1, 0, &second_done),
             ANEURALNETWORKS_NO_ERROR);
    const int failed = ANeuralNetworksEvent_wait(first_done);
    CHECK(is_missed_deadline(failed));
    CHECK_RC(ANeuralNetworksEvent_wait(second_done), failed);
    CHECK(dependent.i == -1); /* it never ran */
    ANeuralNetworksEvent_free(second_done);
    ANeuralNetworksEvent_free(first_done);
    ANeuralNetworksExecution_free(dependent.execution);
    ANeuralNetworksExecution_free(failing.execution);

    int32_t type = 0;
    CHECK_RC(ANeuralNetworksDevice_getType(device, &type), ANEURALNETWORKS_NO_ERROR);
    check_caching(sum.main, device, type == ANEURALNETWORKS_DEVICE_ACCELERATOR);

    ANeuralNetworksCompilation_free(fc);
    ANeuralNetworksCompilation_free(c);
    while_sum_model_free(&forever);
    while_sum_model_free(&sum);
    if (capi_failures == 0) printf("C API on %s: all checks passed\n", name);
    return CAPI_TEST_RESULT();
}
