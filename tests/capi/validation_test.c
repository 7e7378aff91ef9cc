/* The NNAPI validation rules CTS checks (TestValidation.cpp and friends),
 * as C client code against nnfab's libneuralnetworks: NULL pointers, object
 * lifecycles, operand and operation validation, device and compilation
 * options, execution arguments, memory domains. Runs on the `cpu` device. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <android/NeuralNetworks.h>

#include "capi_check.h"
#include "while_sum_model.h"

int capi_failures = 0;

static const uint32_t kTwo[1] = {2};
static const ANeuralNetworksOperandType kFloat2 = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, kTwo, 0.0f, 0};
static const ANeuralNetworksOperandType kInt = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};

/* out = a + b over float[2]: operands 0 a, 1 b, 2 activation, 3 out. */
static ANeuralNetworksModel* add_model(int finish) {
    ANeuralNetworksModel* m = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kInt), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    const int32_t none = 0;
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    const uint32_t in[3] = {0, 1, 2}, out[1] = {3};
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    const uint32_t inputs[2] = {0, 1};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, inputs, 1, out), ANEURALNETWORKS_NO_ERROR);
    if (finish) CHECK_RC(ANeuralNetworksModel_finish(m), ANEURALNETWORKS_NO_ERROR);
    return m;
}

static ANeuralNetworksCompilation* compile_for(ANeuralNetworksModel* m, const char* device_name) {
    const ANeuralNetworksDevice* device = find_device(device_name);
    CHECK(device != NULL);
    ANeuralNetworksCompilation* c = NULL;
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(m, &device, 1, &c), ANEURALNETWORKS_NO_ERROR);
    return c;
}

static void test_null_pointers(void) {
    ANeuralNetworksModel* m = add_model(0);
    CHECK_RC(ANeuralNetworksModel_create(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperand(NULL, &kFloat2), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(NULL, 0, NULL, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 0, NULL, 8), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(m, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromMemory(m, 0, NULL, 0, 8), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    const uint32_t idx[1] = {0};
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 0, NULL, 1, idx), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 1, idx, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 0, NULL, 1, idx), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, idx, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(NULL, true), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksModel_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksCompilation* c = NULL;
    CHECK_RC(ANeuralNetworksCompilation_create(NULL, &c), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_create(m, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(NULL, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(NULL, ANEURALNETWORKS_PRIORITY_LOW), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(NULL, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksCompilation_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {0};
    CHECK_RC(ANeuralNetworksCompilation_setCaching(NULL, "/tmp", token), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksExecution* e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(NULL, &e), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(NULL, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(NULL, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setInput(NULL, 0, NULL, NULL, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setOutput(NULL, 0, NULL, NULL, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_compute(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksEvent* ev = (ANeuralNetworksEvent*)&ev;  /* must be overwritten with NULL */
    CHECK_RC(ANeuralNetworksExecution_startCompute(NULL, &ev), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK(ev == NULL);
    CHECK_RC(ANeuralNetworksEvent_wait(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksEvent_createFromSyncFenceFd(1, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    int fd = 7;
    CHECK_RC(ANeuralNetworksEvent_getSyncFenceFd(NULL, &fd), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK(fd == -1);
    CHECK_RC(ANeuralNetworksEvent_getSyncFenceFd(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(NULL, NULL, 0, 0, &ev), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(NULL, NULL, 0, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(NULL, true), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(NULL, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(NULL, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_burstCompute(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(NULL, 0, NULL, NULL, 0, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(NULL, 0, NULL, NULL, 0, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_createFromAHardwareBuffer(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(NULL, NULL, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_createFromDesc(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getType(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getVersion(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getFeatureLevel(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworks_getDeviceCount(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworks_getDevice(0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_getName(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksDevice_wait(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemoryDesc_create(NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(8, PROT_READ, 0, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksMemory_copy(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_getDuration(NULL, 0, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksBurst_create(NULL, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    /* Free with NULL is a no-op, and so is free of unfinished objects. */
    ANeuralNetworksModel_free(NULL);
    ANeuralNetworksCompilation_free(NULL);
    ANeuralNetworksExecution_free(NULL);
    ANeuralNetworksEvent_free(NULL);
    ANeuralNetworksMemory_free(NULL);
    ANeuralNetworksMemoryDesc_free(NULL);
    ANeuralNetworksBurst_free(NULL);
    ANeuralNetworksModel_free(m);
}

static void test_model_lifecycle(void) {
    ANeuralNetworksModel* m = add_model(1);
    const uint32_t idx[1] = {0};
    const float value[2] = {1, 2};
    CHECK_RC(ANeuralNetworksModel_finish(m), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 0, value, sizeof value), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 1, idx, 1, idx), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, idx, 1, idx), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(m, true), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_relaxComputationFloat32toFloat16(m, false), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(m);

    /* An unfinished model cannot be compiled nor be an operand's value. */
    ANeuralNetworksModel* open = add_model(0);
    ANeuralNetworksCompilation* c = (ANeuralNetworksCompilation*)&c;
    CHECK_RC(ANeuralNetworksCompilation_create(open, &c), ANEURALNETWORKS_BAD_STATE);
    CHECK(c == NULL);
    ANeuralNetworksModel* outer = NULL;
    const ANeuralNetworksOperandType model_type = {ANEURALNETWORKS_MODEL, 0, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_create(&outer), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(outer, &model_type), ANEURALNETWORKS_NO_ERROR);
    /* BAD_STATE for the unfinished value comes before the index check. */
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(outer, 7, open), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_finish(open), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(outer, -1, open), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(outer, 1, open), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValueFromModel(outer, 0, open), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksModel_free(outer);
    ANeuralNetworksModel_free(open);

    /* A failed finish poisons the model: everything after is BAD_STATE. */
    ANeuralNetworksModel* empty = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&empty), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_finish(empty), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_finish(empty), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksModel_addOperand(empty, &kFloat2), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_create(empty, &c), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksModel_free(empty);
}

static void test_operands(void) {
    ANeuralNetworksModel* m = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR);
    const uint32_t dims[1] = {2};
    ANeuralNetworksOperandType quant = {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, dims, -1.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &quant), ANEURALNETWORKS_BAD_DATA);
    quant.scale = 1.0f;
    quant.zeroPoint = -1;
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &quant), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksOperandType scalar_with_dims = {ANEURALNETWORKS_INT32, 1, dims, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &scalar_with_dims), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksOperandType rank_without_dims = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &rank_without_dims), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksOperandType dims_without_rank = {ANEURALNETWORKS_TENSOR_FLOAT32, 0, dims, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &dims_without_rank), ANEURALNETWORKS_BAD_DATA);
    const uint32_t huge[9] = {5, 4, 4, 786433, 5, 3, 16777216, 4, 5};
    const ANeuralNetworksOperandType overflow = {ANEURALNETWORKS_TENSOR_FLOAT32, 9, huge, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &overflow), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksOperandType bad_code = {99, 0, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &bad_code), ANEURALNETWORKS_BAD_DATA);
    /* Unknown extents and unknown rank are allowed on tensors. */
    const uint32_t unknown[2] = {0, 3};
    const ANeuralNetworksOperandType partial = {ANEURALNETWORKS_TENSOR_FLOAT32, 2, unknown, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &partial), ANEURALNETWORKS_NO_ERROR);  /* 0 */
    const ANeuralNetworksOperandType no_rank = {ANEURALNETWORKS_TENSOR_FLOAT32, 0, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &no_rank), ANEURALNETWORKS_NO_ERROR);  /* 1 */
    const ANeuralNetworksOperandType f32 = {ANEURALNETWORKS_FLOAT32, 0, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &f32), ANEURALNETWORKS_NO_ERROR);  /* 2 */
    const float values[5] = {0};
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, values, 20), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 3, values, 4), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, -1, values, 4), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 0, values, 12), ANEURALNETWORKS_BAD_DATA); /* not fully specified */
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, values, 4), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, NULL, 0), ANEURALNETWORKS_NO_ERROR);  /* omitted */
    CHECK_RC(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
                     m, 5, &(ANeuralNetworksSymmPerChannelQuantParams){0, 1, values}),
             ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);
}

static void test_operations_and_graph(void) {
    ANeuralNetworksModel* m = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kInt), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(m, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    const int32_t none = 0;
    CHECK_RC(ANeuralNetworksModel_setOperandValue(m, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    const uint32_t in[3] = {0, 1, 2}, out[1] = {3}, bad_in[3] = {0, 1, 9};
    CHECK_RC(ANeuralNetworksModel_addOperation(m, -1, 3, in, 1, out), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, bad_in, 1, out), ANEURALNETWORKS_BAD_DATA);
    /* Signatures are checked as operations are added: too few inputs, an extra output. */
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 2, in, 1, out), ANEURALNETWORKS_BAD_DATA);
    const uint32_t two_out[2] = {3, 0};
    CHECK_RC(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 2, two_out), ANEURALNETWORKS_BAD_DATA);
    /* identifyInputsAndOutputs: input also output, duplicates, a constant. */
    const uint32_t a[1] = {0}, dup[2] = {0, 0}, constant[1] = {2};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, a, 1, a), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, dup, 1, out), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, constant, 1, out), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(m);

    /* finish: operations out of order are fine; a cycle, a second writer,
     * and an operand read but never written are not. */
    ANeuralNetworksModel* g = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&g), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(g, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(g, &kInt), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(g, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(g, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    const uint32_t second[3] = {3, 1, 2}, second_out[1] = {4};
    CHECK_RC(ANeuralNetworksModel_addOperation(g, ANEURALNETWORKS_ADD, 3, second, 1, second_out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperation(g, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    const uint32_t ins[2] = {0, 1};
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(g, 2, ins, 1, second_out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_finish(g), ANEURALNETWORKS_NO_ERROR);
    /* supported operations are reported in the order they were added */
    bool supported[2] = {false, false};
    const ANeuralNetworksDevice* cpu = find_device("cpu");
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(g, &cpu, 1, supported), ANEURALNETWORKS_NO_ERROR);
    CHECK(supported[0] && supported[1]);
    ANeuralNetworksModel_free(g);

    ANeuralNetworksModel* cyc = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&cyc), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(cyc, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(cyc, &kInt), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(cyc, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(cyc, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    const uint32_t c1[3] = {0, 4, 2}, c1_out[1] = {3}, c2[3] = {3, 1, 2}, c2_out[1] = {4};
    CHECK_RC(ANeuralNetworksModel_addOperation(cyc, ANEURALNETWORKS_ADD, 3, c1, 1, c1_out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperation(cyc, ANEURALNETWORKS_ADD, 3, c2, 1, c2_out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(cyc, 2, ins, 1, c2_out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_finish(cyc), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(cyc);

    ANeuralNetworksModel* twice = NULL;
    CHECK_RC(ANeuralNetworksModel_create(&twice), ANEURALNETWORKS_NO_ERROR);
    for (int k = 0; k < 2; ++k) CHECK_RC(ANeuralNetworksModel_addOperand(twice, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(twice, &kInt), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperand(twice, &kFloat2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_setOperandValue(twice, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperation(twice, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_addOperation(twice, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_identifyInputsAndOutputs(twice, 2, ins, 1, out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksModel_finish(twice), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksModel_free(twice);
}

static void test_devices(void) {
    uint32_t count = 0;
    CHECK_RC(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
    CHECK(count >= 1);
    ANeuralNetworksDevice* device = NULL;
    CHECK_RC(ANeuralNetworks_getDevice(count, &device), ANEURALNETWORKS_BAD_DATA);
    int saw_cpu = 0;
    for (uint32_t i = 0; i < count; ++i) {
        ANeuralNetworksDevice* again = NULL;
        const char* name = NULL;
        const char* version = NULL;
        int32_t type = -1;
        int64_t level = 0;
        CHECK_RC(ANeuralNetworks_getDevice(i, &device), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworks_getDevice(i, &again), ANEURALNETWORKS_NO_ERROR);
        CHECK(device == again); /* stable handles */
        CHECK_RC(ANeuralNetworksDevice_getName(device, &name), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksDevice_getVersion(device, &version), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksDevice_getType(device, &type), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksDevice_getFeatureLevel(device, &level), ANEURALNETWORKS_NO_ERROR);
        CHECK_RC(ANeuralNetworksDevice_wait(device), ANEURALNETWORKS_NO_ERROR);
        CHECK(level == 30);
        CHECK(version != NULL && version[0] != '\0');
        for (uint32_t j = 0; j < i; ++j) { /* unique names */
            ANeuralNetworksDevice* other = NULL;
            const char* other_name = NULL;
            CHECK_RC(ANeuralNetworks_getDevice(j, &other), ANEURALNETWORKS_NO_ERROR);
            CHECK_RC(ANeuralNetworksDevice_getName(other, &other_name), ANEURALNETWORKS_NO_ERROR);
            CHECK(strcmp(name, other_name) != 0);
        }
        if (strcmp(name, "cpu") == 0) {
            saw_cpu = 1;
            CHECK(type == ANEURALNETWORKS_DEVICE_CPU);
        } else {
            CHECK(type == ANEURALNETWORKS_DEVICE_ACCELERATOR);
        }
    }
    CHECK(saw_cpu);
    CHECK(ANeuralNetworks_getDefaultLoopTimeout() == 2000000000ull);
    CHECK(ANeuralNetworks_getMaximumLoopTimeout() == 15000000000ull);
}

static void test_compilation_options(void) {
    ANeuralNetworksModel* m = add_model(1);
    const ANeuralNetworksDevice* cpu = find_device("cpu");
    const ANeuralNetworksDevice* twice[2] = {cpu, cpu};
    ANeuralNetworksCompilation* c = NULL;
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(m, &cpu, 0, &c), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(m, twice, 2, &c), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksDevice* with_null[1] = {NULL};
    CHECK_RC(ANeuralNetworksCompilation_createForDevices(m, with_null, 1, &c), ANEURALNETWORKS_UNEXPECTED_NULL);
    bool supported[1];
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(m, twice, 2, supported), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksModel_getSupportedOperationsForDevices(m, &cpu, 0, supported), ANEURALNETWORKS_BAD_DATA);

    /* ANeuralNetworksCompilation_create: no timeouts, no timing. */
    CHECK_RC(ANeuralNetworksCompilation_create(m, &c), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, 40), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, -1), ANEURALNETWORKS_BAD_DATA);
    const int bad_priorities[7] = {0, 89, 91, 99, 101, 109, 111};
    for (int k = 0; k < 7; ++k) CHECK_RC(ANeuralNetworksCompilation_setPriority(c, bad_priorities[k]), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 1000000000ull), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, 1), ANEURALNETWORKS_BAD_STATE); /* state before device rule */
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_LOW), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksCompilation_setPreference(c, 0), ANEURALNETWORKS_BAD_STATE);
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {0};
    CHECK_RC(ANeuralNetworksCompilation_setCaching(c, "/tmp", token), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksExecution* e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(e, 1), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(e, 1), ANEURALNETWORKS_NO_ERROR); /* any compilation */
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);

    /* One device: timeouts allowed, UINT64_MAX included. */
    c = compile_for(m, "cpu");
    CHECK_RC(ANeuralNetworksCompilation_setTimeout(c, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_HIGH), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksCompilation_setCaching(c, "/tmp", token), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_BAD_STATE); /* not finished */
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

static void test_execution(void) {
    ANeuralNetworksModel* m = add_model(1);
    ANeuralNetworksCompilation* c = compile_for(m, "cpu");
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    float a[2] = {1, 2}, b[2] = {10, 20}, out[2] = {0, 0}, big[5] = {0};
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, big, 20), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 999, NULL, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, -1, NULL, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
    const ANeuralNetworksOperandType invalid = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, NULL, 0.0f, 0};
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &invalid, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
    const uint32_t three[1] = {3};
    const ANeuralNetworksOperandType other_shape = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, three, 0.0f, 0};
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &other_shape, big, 12), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, big, 20), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, &kFloat2, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a), ANEURALNETWORKS_BAD_STATE); /* set twice */
    /* Outputs are queried only after the execution completed. */
    uint32_t rank = 0, dims[1] = {0};
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA); /* input 1 unset: can be fixed */
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 1, NULL, b, sizeof b), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA); /* output unset */
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    CHECK(out[0] == 11.0f && out[1] == 22.0f);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank), ANEURALNETWORKS_NO_ERROR);
    CHECK(rank == 1);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
    CHECK(dims[0] == 2);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandRank(e, -1, &rank), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_getOutputOperandDimensions(e, 999, dims), ANEURALNETWORKS_BAD_DATA);
    /* Used up: every setter and every compute path is BAD_STATE now. */
    ANeuralNetworksEvent* ev = NULL;
    const ANeuralNetworksEvent* no_event[1] = {NULL};
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 1, 0, &ev), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, no_event, 1, 0, &ev), ANEURALNETWORKS_UNEXPECTED_NULL);
    CHECK(ev == NULL);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_startCompute(e, &ev), ANEURALNETWORKS_BAD_STATE);
    CHECK(ev == NULL);
    CHECK_RC(ANeuralNetworksExecution_startComputeWithDependencies(e, NULL, 0, 0, &ev), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setLoopTimeout(e, 1), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setTimeout(e, 1), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksBurst* burst = NULL;
    CHECK_RC(ANeuralNetworksBurst_create(c, &burst), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_burstCompute(e, burst), ANEURALNETWORKS_BAD_STATE);
    /* getDuration: the code is checked before the state; no timing requested -> BAD_STATE. */
    uint64_t duration = 0;
    CHECK_RC(ANeuralNetworksExecution_getDuration(e, -1, &duration), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_getDuration(e, 4, &duration), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration),
             ANEURALNETWORKS_BAD_STATE);
    CHECK(duration == UINT64_MAX);
    ANeuralNetworksExecution_free(e);

    /* A burst runs executions of its own compilation only. */
    ANeuralNetworksExecution* e2 = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e2), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e2, 0, NULL, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e2, 1, NULL, b, sizeof b), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e2, 0, NULL, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksCompilation* other = compile_for(m, "cpu");
    CHECK_RC(ANeuralNetworksCompilation_finish(other), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksBurst* other_burst = NULL;
    CHECK_RC(ANeuralNetworksBurst_create(other, &other_burst), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_burstCompute(e2, other_burst), ANEURALNETWORKS_BAD_DATA);
    out[0] = out[1] = 0;
    CHECK_RC(ANeuralNetworksExecution_burstCompute(e2, burst), ANEURALNETWORKS_NO_ERROR);
    CHECK(out[0] == 11.0f && out[1] == 22.0f);
    ANeuralNetworksExecution_free(e2);
    ANeuralNetworksBurst_free(other_burst);
    ANeuralNetworksBurst_free(burst);
    ANeuralNetworksCompilation_free(other);

    /* Sync fences are Android's: creating an event from one is the stub error. */
    ANeuralNetworksEvent* fence_event = (ANeuralNetworksEvent*)&fence_event;
    CHECK_RC(ANeuralNetworksEvent_createFromSyncFenceFd(-1, &fence_event), ANEURALNETWORKS_BAD_DATA);
    CHECK(fence_event == NULL);
    CHECK_RC(ANeuralNetworksEvent_createFromSyncFenceFd(0, &fence_event), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

/* Shared memory (memfd) as constant, input and output. */
static void test_fd_memory(void) {
    const int fd = memfd_create("nnfab-capi-test", 0);
    CHECK(fd >= 0);
    CHECK(ftruncate(fd, 64) == 0);
    const float inputs[4] = {1, 2, 10, 20};
    CHECK(pwrite(fd, inputs, sizeof inputs, 0) == (ssize_t)sizeof inputs);
    ANeuralNetworksMemory* memory = NULL;
    CHECK_RC(ANeuralNetworksMemory_createFromFd(0, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_WRITE, -1, 0, &memory), ANEURALNETWORKS_BAD_DATA);
    /* past the end of the memfd: refused (touching it would be SIGBUS) */
    CHECK_RC(ANeuralNetworksMemory_createFromFd(128, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemory* read_only = NULL;
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 0, &read_only), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);

    ANeuralNetworksModel* m = add_model(1);
    ANeuralNetworksCompilation* c = compile_for(m, "cpu");
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution* e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 64), ANEURALNETWORKS_BAD_DATA); /* length */
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 60, 8), ANEURALNETWORKS_BAD_DATA); /* past the end */
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 100, 8), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 999, NULL, memory, 0, 8), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 8), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 8), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, memory, 8, 8), ANEURALNETWORKS_NO_ERROR);
    /* an output in read-only memory would fault: refused */
    CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, read_only, 16, 8), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, 16, 8), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    float sums[2] = {0, 0};
    CHECK(pread(fd, sums, sizeof sums, 16) == (ssize_t)sizeof sums); /* the output is in the shared memory */
    CHECK(sums[0] == 11.0f && sums[1] == 22.0f);
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
    ANeuralNetworksMemory_free(read_only);
    ANeuralNetworksMemory_free(memory);
    close(fd);
}

/* Device memory from a descriptor: roles, dimensions, initialization. */
static void test_memory_domain(void) {
    ANeuralNetworksModel* m = add_model(1);
    ANeuralNetworksCompilation* open = compile_for(m, "cpu");
    ANeuralNetworksCompilation* c = compile_for(m, "cpu");
    CHECK_RC(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksMemoryDesc* desc = NULL;
    CHECK_RC(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_DATA); /* no role */
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, open, 0, 1.0f), ANEURALNETWORKS_BAD_DATA); /* unfinished */
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 999, 1.0f), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 10.0f), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 0.0f), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 0, 1.0f), ANEURALNETWORKS_BAD_DATA); /* same role */
    CHECK_RC(ANeuralNetworksMemoryDesc_addOutputRole(desc, c, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
    const uint32_t three[1] = {3};
    CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, three), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, NULL), ANEURALNETWORKS_UNEXPECTED_NULL);
    ANeuralNetworksMemory* memory = NULL;
    CHECK_RC(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksMemoryDesc_addInputRole(desc, c, 1, 1.0f), ANEURALNETWORKS_BAD_STATE);
    CHECK_RC(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksMemoryDesc_free(desc);

    float a[2] = {1, 2}, out[2] = {0, 0};
    /* Uninitialized device memory as an input: OP_FAILED at compute. */
    ANeuralNetworksExecution* e = NULL;
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 8), ANEURALNETWORKS_BAD_DATA);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 1, NULL, memory, 0, 0), ANEURALNETWORKS_BAD_DATA); /* no role */
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 1, NULL, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
    ANeuralNetworksExecution_free(e);
    /* Written as an output, it is initialized and feeds the next run. */
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 0, NULL, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 1, NULL, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutputFromMemory(e, 0, NULL, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_free(e);
    CHECK_RC(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInputFromMemory(e, 0, NULL, memory, 0, 0), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setInput(e, 1, NULL, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_setOutput(e, 0, NULL, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
    CHECK_RC(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
    CHECK(out[0] == 3.0f && out[1] == 6.0f); /* (1+1)+1, (2+2)+2 */
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksMemory_free(memory);
    ANeuralNetworksCompilation_free(open);
    ANeuralNetworksCompilation_free(c);
    ANeuralNetworksModel_free(m);
}

int main(void) {
    test_null_pointers();
    test_model_lifecycle();
    test_operands();
    test_operations_and_graph();
    test_devices();
    test_compilation_options();
    test_execution();
    test_fd_memory();
    test_memory_domain();
    return CAPI_TEST_RESULT();
}
