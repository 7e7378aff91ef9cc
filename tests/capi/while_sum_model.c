#include "while_sum_model.h"

#include <string.h>

static const uint32_t kOne[1] = {1};

#define TRY(expr)                               \
    do {                                        \
        int rc_ = (expr);                       \
        if (rc_ != ANEURALNETWORKS_NO_ERROR) return rc_; \
    } while (0)

static const ANeuralNetworksOperandType kTensorInt = {ANEURALNETWORKS_TENSOR_INT32, 1, kOne, 0.0f, 0};
static const ANeuralNetworksOperandType kTensorBool = {ANEURALNETWORKS_TENSOR_BOOL8, 1, kOne, 0.0f, 0};
static const ANeuralNetworksOperandType kInt = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
static const ANeuralNetworksOperandType kModel = {ANEURALNETWORKS_MODEL, 0, NULL, 0.0f, 0};

/* (i, s, n) -> i < n */
static int build_condition(ANeuralNetworksModel* m) {
    for (int k = 0; k < 3; ++k) TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 0 i, 1 s, 2 n */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorBool));                           /* 3 */
    const uint32_t in[2] = {0, 2}, out[1] = {3};
    TRY(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_LESS, 2, in, 1, out));
    const uint32_t inputs[3] = {0, 1, 2}, outputs[1] = {3};
    TRY(ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, inputs, 1, outputs));
    return ANeuralNetworksModel_finish(m);
}

/* (i, s, n) -> (i + step, s + i) */
static int build_body(ANeuralNetworksModel* m, int32_t step) {
    for (int k = 0; k < 4; ++k) TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 0 i, 1 s, 2 n, 3 step */
    TRY(ANeuralNetworksModel_addOperand(m, &kInt));                                  /* 4 activation */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt));                            /* 5 i' */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt));                            /* 6 s' */
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    TRY(ANeuralNetworksModel_setOperandValue(m, 3, &step, sizeof step));
    TRY(ANeuralNetworksModel_setOperandValue(m, 4, &none, sizeof none));
    const uint32_t add_i[3] = {0, 3, 4}, out_i[1] = {5};
    const uint32_t add_s[3] = {1, 0, 4}, out_s[1] = {6};
    TRY(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add_i, 1, out_i));
    TRY(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, add_s, 1, out_s));
    const uint32_t inputs[3] = {0, 1, 2}, outputs[2] = {5, 6};
    TRY(ANeuralNetworksModel_identifyInputsAndOutputs(m, 3, inputs, 2, outputs));
    return ANeuralNetworksModel_finish(m);
}

/* n -> WHILE(cond, body, i = 0, s = 0, n) */
static int build_main(ANeuralNetworksModel* m, const WhileSumModel* parts) {
    TRY(ANeuralNetworksModel_addOperand(m, &kModel));     /* 0 condition */
    TRY(ANeuralNetworksModel_addOperand(m, &kModel));     /* 1 body */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 2 i0 */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 3 s0 */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 4 n */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 5 i */
    TRY(ANeuralNetworksModel_addOperand(m, &kTensorInt)); /* 6 s */
    const int32_t zero = 0;
    TRY(ANeuralNetworksModel_setOperandValueFromModel(m, 0, parts->condition));
    TRY(ANeuralNetworksModel_setOperandValueFromModel(m, 1, parts->body));
    TRY(ANeuralNetworksModel_setOperandValue(m, 2, &zero, sizeof zero));
    TRY(ANeuralNetworksModel_setOperandValue(m, 3, &zero, sizeof zero));
    const uint32_t in[5] = {0, 1, 2, 3, 4}, out[2] = {5, 6};
    TRY(ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_WHILE, 5, in, 2, out));
    const uint32_t inputs[1] = {4};
    TRY(ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, inputs, 2, out));
    return ANeuralNetworksModel_finish(m);
}

int while_sum_model_build(WhileSumModel* model, int32_t step) {
    memset(model, 0, sizeof *model);
    TRY(ANeuralNetworksModel_create(&model->condition));
    TRY(ANeuralNetworksModel_create(&model->body));
    TRY(ANeuralNetworksModel_create(&model->main));
    TRY(build_condition(model->condition));
    TRY(build_body(model->body, step));
    return build_main(model->main, model);
}

void while_sum_model_free(WhileSumModel* model) {
    ANeuralNetworksModel_free(model->main);
    ANeuralNetworksModel_free(model->body);
    ANeuralNetworksModel_free(model->condition);
    memset(model, 0, sizeof *model);
}

const ANeuralNetworksDevice* find_device(const char* name) {
    uint32_t count = 0;
    if (ANeuralNetworks_getDeviceCount(&count) != ANEURALNETWORKS_NO_ERROR) return NULL;
    for (uint32_t i = 0; i < count; ++i) {
        ANeuralNetworksDevice* device = NULL;
        const char* device_name = NULL;
        if (ANeuralNetworks_getDevice(i, &device) != ANEURALNETWORKS_NO_ERROR) return NULL;
        if (ANeuralNetworksDevice_getName(device, &device_name) != ANEURALNETWORKS_NO_ERROR) return NULL;
        if (strcmp(device_name, name) == 0) return device;
    }
    return NULL;
}
