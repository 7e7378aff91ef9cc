/* A minimal check harness for the C API tests, which are C programs (the
 * client code under test is C): each failed check prints where and what,
 * and the program's exit status is the number of failures (capped). */
#ifndef NNFAB_TESTS_CAPI_CHECK_H
#define NNFAB_TESTS_CAPI_CHECK_H

#include <stdio.h>

extern int capi_failures;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            ++capi_failures;                                                \
        }                                                                   \
    } while (0)

/* expr must return exactly the result code `expected`. */
#define CHECK_RC(expr, expected)                                                          \
    do {                                                                                  \
        int capi_rc_ = (expr);                                                            \
        if (capi_rc_ != (expected)) {                                                     \
            fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__, __LINE__, \
                    #expr, capi_rc_, #expected, (int)(expected));                         \
            ++capi_failures;                                                              \
        }                                                                                 \
    } while (0)

#define CAPI_TEST_RESULT() (capi_failures > 100 ? 100 : capi_failures)

#endif
