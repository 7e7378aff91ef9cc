/* The WHILE model the C API tests build through ANeuralNetworksModel_*:
 *   i = 0; s = 0; while (i < n) { s = s + i; i = i + step; }  -> (i, s)
 * with the condition and the body as separate models referenced through
 * setOperandValueFromModel. Input n: TENSOR_INT32 [1]; outputs i, s:
 * TENSOR_INT32 [1]. step = 0 never ends (for loop timeouts). */
#ifndef NNFAB_TESTS_CAPI_WHILE_SUM_MODEL_H
#define NNFAB_TESTS_CAPI_WHILE_SUM_MODEL_H

#include <android/NeuralNetworks.h>

typedef struct WhileSumModel {
    ANeuralNetworksModel* condition;
    ANeuralNetworksModel* body;
    ANeuralNetworksModel* main;
} WhileSumModel;

/* ANEURALNETWORKS_NO_ERROR with all three models finished, or the first
 * failing call's code. */
int while_sum_model_build(WhileSumModel* model, int32_t step);
void while_sum_model_free(WhileSumModel* model);

/* The device with this name, or NULL. */
const ANeuralNetworksDevice* find_device(const char* name);

#endif
