/* nnfab from C through the NNAPI C API: builds a WHILE model
 *     i = 0; s = 0; while (i < n) { s += i; i += 1; }
 * with ANeuralNetworksModel_* (condition and body are models of their own,
 * referenced with setOperandValueFromModel), compiles it for the device
 * named on the command line with a priority, and runs it with a loop
 * timeout.
 *
 *   cc while_loop.c $(pkg-config --cflags --libs nnfab) -o while_loop
 *   ./while_loop sim 10        # i = 10, s = 45
 */
#include <android/NeuralNetworks.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != ANEURALNETWORKS_NO_ERROR) {                               \
            fprintf(stderr, "%s failed: result code %d\n", #call, rc_);      \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

static const uint32_t kOne[1] = {1};
static const ANeuralNetworksOperandType kTensor = {ANEURALNETWORKS_TENSOR_INT32, 1, kOne, 0.0f, 0};
static const ANeuralNetworksOperandType kBool = {ANEURALNETWORKS_TENSOR_BOOL8, 1, kOne, 0.0f, 0};
static const ANeuralNetworksOperandType kScalar = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
static const ANeuralNetworksOperandType kModel = {ANEURALNETWORKS_MODEL, 0, NULL, 0.0f, 0};

static void add_operands(ANeuralNetworksModel* m, const ANeuralNetworksOperandType* type, int count) {
    for (int k = 0; k < count; ++k) CHECK(ANeuralNetworksModel_addOperand(m, type));
}

/* Condition (i, s, n) -> i < n */
static ANeuralNetworksModel* condition_model(void) {
    ANeuralNetworksModel* m;
    CHECK(ANeuralNetworksModel_create(&m));
    add_operands(m, &kTensor, 3); /* 0 i, 1 s, 2 n */
    add_operands(m, &kBool, 1);   /* 3 */
    const uint32_t less_in[2] = {0, 2}, out[1] = {3}, in[3] = {0, 1, 2};
    CHECK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_LESS, 2, less_in, 1, out));
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, in, 1, out));
    CHECK(ANeuralNetworksModel_finish(m));
    return m;
}

/* Body (i, s, n) -> (i + 1, s + i) */
static ANeuralNetworksModel* body_model(void) {
    ANeuralNetworksModel* m;
    CHECK(ANeuralNetworksModel_create(&m));
    add_operands(m, &kTensor, 4); /* 0 i, 1 s, 2 n, 3 one */
    add_operands(m, &kScalar, 1); /* 4 fused activation */
    add_operands(m, &kTensor, 2); /* 5 i', 6 s' */
    const int32_t one = 1, none = ANEURALNETWORKS_FUSED_NONE;
    CHECK(ANeuralNetworksModel_setOperandValue(m, 3, &one, sizeof one));
    CHECK(ANeuralNetworksModel_setOperandValue(m, 4, &none, sizeof none));
    const uint32_t add_i[3] = {0, 3, 4}, add_s[3] = {1, 0, 4}, out_i[1] = {5}, out_s[1] = {6};
    CHECK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add_i, 1, out_i));
    CHECK(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add_s, 1, out_s));
    const uint32_t in[3] = {0, 1, 2}, out[2] = {5, 6};
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, in, 2, out));
    CHECK(ANeuralNetworksModel_finish(m));
    return m;
}

static const ANeuralNetworksDevice* device_named(const char* name) {
    uint32_t count = 0;
    CHECK(ANeuralNetworks_getDeviceCount(&count));
    for (uint32_t k = 0; k < count; ++k) {
        ANeuralNetworksDevice* device;
        const char* device_name;
        CHECK(ANeuralNetworks_getDevice(k, &device));
        CHECK(ANeuralNetworksDevice_getName(device, &device_name));
        if (strcmp(device_name, name) == 0) return device;
    }
    fprintf(stderr, "no device named %s\n", name);
    exit(2);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DEVICE [N]   (DEVICE: cpu, hls, sim, ...)\n", argv[0]);
        return 2;
    }
    const ANeuralNetworksDevice* device = device_named(argv[1]);
    int32_t n = argc > 2 ? atoi(argv[2]) : 10;

    ANeuralNetworksModel* condition = condition_model();
    ANeuralNetworksModel* body = body_model();
    ANeuralNetworksModel* model;
    CHECK(ANeuralNetworksModel_create(&model));
    add_operands(model, &kModel, 2);  /* 0 condition, 1 body */
    add_operands(model, &kTensor, 5); /* 2 i0, 3 s0, 4 n, 5 i, 6 s */
    const int32_t zero = 0;
    CHECK(ANeuralNetworksModel_setOperandValueFromModel(model, 0, condition));
    CHECK(ANeuralNetworksModel_setOperandValueFromModel(model, 1, body));
    CHECK(ANeuralNetworksModel_setOperandValue(model, 2, &zero, sizeof zero));
    CHECK(ANeuralNetworksModel_setOperandValue(model, 3, &zero, sizeof zero));
    const uint32_t while_in[5] = {0, 1, 2, 3, 4}, outputs[2] = {5, 6}, inputs[1] = {4};
    CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_WHILE, 5, while_in, 2, outputs));
    CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, inputs, 2, outputs));
    CHECK(ANeuralNetworksModel_finish(model));

    ANeuralNetworksCompilation* compilation;
    CHECK(ANeuralNetworksCompilation_createForDevices(model, &device, 1, &compilation));
    CHECK(ANeuralNetworksCompilation_setPriority(compilation, ANEURALNETWORKS_PRIORITY_HIGH));
    CHECK(ANeuralNetworksCompilation_finish(compilation));

    int32_t i = -1, s = -1;
    ANeuralNetworksExecution* execution;
    CHECK(ANeuralNetworksExecution_create(compilation, &execution));
    CHECK(ANeuralNetworksExecution_setLoopTimeout(execution, 500000000ull)); /* 0.5 s per loop */
    CHECK(ANeuralNetworksExecution_setInput(execution, 0, NULL, &n, sizeof n));
    CHECK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, &i, sizeof i));
    CHECK(ANeuralNetworksExecution_setOutput(execution, 1, NULL, &s, sizeof s));
    const int rc = ANeuralNetworksExecution_compute(execution);
    if (rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT || rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT) {
        fprintf(stderr, "the loop ran out of time (result code %d)\n", rc);
    } else if (rc != ANEURALNETWORKS_NO_ERROR) {
        fprintf(stderr, "compute failed: result code %d\n", rc);
    } else {
        printf("%s: n = %d -> i = %d, s = %d\n", argv[1], n, i, s);
    }

    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
    ANeuralNetworksModel_free(body);
    ANeuralNetworksModel_free(condition);
    return rc == ANEURALNETWORKS_NO_ERROR ? 0 : 1;
}
