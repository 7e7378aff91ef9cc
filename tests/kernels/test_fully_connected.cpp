// FULLY_CONNECTED against a naive reference (bit-exact: the kernel promises
// the reference summation order) and against NNAPI CTS vectors.
#include <algorithm>
#include <cmath>
#include <random>

#include "kernel_test_util.h"

namespace nnfab::cpu::test {
namespace {

using OT = OperationType;

float activate(float x, int act) {
  switch (act) {
    case 1: return x < 0 ? 0 : x;
    case 2: return x < -1 ? -1 : (x > 1 ? 1 : x);
    case 3: return x < 0 ? 0 : (x > 6 ? 6 : x);
    default: return x;
  }
}

// out[b][u] = act((((0 + x0*w0) + x1*w1) + ...) + bias[u]), products rounded.
std::vector<float> naive(const std::vector<float>& in, const std::vector<float>& w,
                         const std::vector<float>& bias, size_t batch, size_t units, size_t n,
                         int act) {
  std::vector<float> out(batch * units);
  for (size_t b = 0; b < batch; ++b) {
    for (size_t u = 0; u < units; ++u) {
      float total = 0.0f;
      for (size_t i = 0; i < n; ++i) {
        const float product = in[b * n + i] * w[u * n + i];
        total = total + product;
      }
      out[b * units + u] = activate(total + bias[u], act);
    }
  }
  return out;
}

std::vector<float> randomFloats(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& f : v) f = dist(rng);
  return v;
}

TEST(FullyConnected, CtsFullyConnectedFloat) {  // V1_0 fully_connected_float
  auto r = run(OT::FULLY_CONNECTED,
               {f32({3, 1}, {2, 32, 16}), f32({1, 1}, {2}), f32({1}, {4}), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.type, OperandType::TENSOR_FLOAT32);
  EXPECT_EQ(r.shape.dims, (Dimensions{3, 1}));
  EXPECT_EQ(r.f32(), (std::vector<float>{8, 68, 36}));
}

TEST(FullyConnected, HandComputed) {
  // input [2,3], weights [2,3], bias [2]
  auto r = run(OT::FULLY_CONNECTED, {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                                     f32({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}),
                                     f32({2}, {10, -20}), scalar(0)});
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 2}));
  EXPECT_EQ(r.f32(), (std::vector<float>{8, -17, 8, -12.5f}));
  auto relu = run(OT::FULLY_CONNECTED, {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                                        f32({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}),
                                        f32({2}, {10, -20}), scalar(1)});
  EXPECT_EQ(relu.f32(), (std::vector<float>{8, 0, 8, 0}));
  auto relu6 = run(OT::FULLY_CONNECTED, {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                                         f32({2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f}),
                                         f32({2}, {10, -20}), scalar(3)});
  EXPECT_EQ(relu6.f32(), (std::vector<float>{6, 0, 6, 0}));
}

TEST(FullyConnected, CtsFullyConnectedFloat2Relu) {  // V1_0 fully_connected_float_2
  const std::vector<float> weights = {
      0.091327,  0.103366,  -0.316505, -0.08312,  0.149366,  -0.196636, -0.123672, 0.0628,
      0.063031,  0.19167,   -0.062001, -0.061504, -0.275581, 0.059388,  -0.118497, -0.079224,
      0.109758,  0.008307,  -0.062657, -0.060962, -0.049782, -0.106719, -0.319482, -0.10365,
      0.266455,  0.051517,  -0.123448, 0.322464,  0.043282,  -0.173782, -0.190381, 0.002013,
      0.096086,  0.131157,  0.031164,  0.100638,  -0.312191, -0.080923, -0.101318, -0.116614,
      0.142238,  0.08654,   -0.139154, 0.174268,  -0.073161, 0.080072,  0.006874,  0.229382,
      -0.104321, -0.176035, -0.208587, -0.001019, -0.162032, 0.080824,  -0.025021, 0.07446,
      -0.252595, -0.16175,  -0.136403, 0.008308,  0.00571,   0.0966,    0.289839,  0.218816,
      -0.304651, -0.070958, 0.054598,  0.147113,  -0.139112, -0.072798, -0.163335, -0.167863,
      -0.128762, -0.03578,  0.117262,  0.017177,  0.263335,  -0.176612, 0.262961,  -0.093654,
      -0.339283, 0.333071,  0.180827,  0.287583,  0.06635,   -0.197947, -0.114449, -0.236035,
      0.103532,  -0.034284, 0.093299,  -0.145361, 0.054001,  0.25057,   0.15701,   -0.14348,
      -0.139061, -0.048873, 0.067557,  0.139038,  0.324106,  0.227041,  0.037793,  -0.225747,
      -0.241619, 0.357835,  0.135762,  -0.306764, -0.125982, 0.091916,  0.266587,  0.030135,
      0.265148,  0.141627,  0.02012,   0.083815,  -0.124556, -0.100124, -0.048159, 0.181172,
      0.302309,  -0.041084, 0.146334,  -0.061511, -0.232605, 0.281324,  0.145408,  -0.221897};
  const std::vector<float> bias = {-0.160594, 0.20577,  -0.078307, -0.077984, 0.001937, 0.01586,
                                   0.03681,   0.012346, 0.001028,  0.038551,  0.075415, 0.020804,
                                   0.048478,  -0.03227, 0.175688,  -0.085662};
  const std::vector<float> input = {0.503691, 0.196961, 0.521017, 0.554248, 0.288678, 0.792476,
                                    0.561653, 0.46223,  0.650736, 0.163132, 0.029658, 0.411544,
                                    0.470539, 0.57239,  0.538755, 0.21203};
  const std::vector<float> expected = {
      0.0, 0.0732134, 0.0, 0.0,      0.0, 0.280859, 0.0,      0.128927, 0.0,      0.0777251, 0.0,
      0.270268, 0.271435, 0.0173503, 0.335465, 0.235562, 0.0, 0.0745866, 0.0, 0.051611, 0.0,
      0.253876, 0.0, 0.0814873, 0.0, 0.104104, 0.0, 0.248529, 0.264194, 0.0, 0.302973, 0.166252};
  auto r = run(OT::FULLY_CONNECTED,
               {f32({2, 8}, input), f32({16, 8}, weights), f32({16}, bias), scalar(1)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{2, 16}));
  const auto out = r.f32();
  ASSERT_EQ(out.size(), expected.size());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expected[i], 1e-5) << i;
  EXPECT_EQ(bits(out), bits(naive(input, weights, bias, 2, 16, 8, 1)));
}

TEST(FullyConnected, MatchesNaiveReferenceBitExact) {
  std::mt19937 rng(1234);
  const size_t batches[] = {1, 2, 3, 5};
  const size_t unitCounts[] = {1, 3, 4, 5, 9};
  const size_t inputSizes[] = {1, 7, 16, 33};
  for (size_t batch : batches) {
    for (size_t units : unitCounts) {
      for (size_t n : inputSizes) {
        for (int act = 0; act < 4; ++act) {
          const auto in = randomFloats(rng, batch * n);
          const auto w = randomFloats(rng, units * n);
          const auto bias = randomFloats(rng, units);
          auto r = run(OT::FULLY_CONNECTED,
                       {f32({static_cast<uint32_t>(batch), static_cast<uint32_t>(n)}, in),
                        f32({static_cast<uint32_t>(units), static_cast<uint32_t>(n)}, w),
                        f32({static_cast<uint32_t>(units)}, bias), scalar(act)},
                       OperandType::TENSOR_FLOAT32, /*misalign=*/act == 2);
          ASSERT_TRUE(r.status.isOk()) << r.status.message();
          EXPECT_EQ(r.shape.dims, (Dimensions{static_cast<uint32_t>(batch), static_cast<uint32_t>(units)}));
          EXPECT_EQ(bits(r.f32()), bits(naive(in, w, bias, batch, units, n, act)))
              << "batch " << batch << " units " << units << " n " << n << " act " << act;
        }
      }
    }
  }
}

TEST(FullyConnected, SumStartsAtPositiveZero) {
  // Products 0 * -1 = -0; the sum starts at +0 (+0 + -0 = +0), so with a -0
  // bias the result is +0, not -0.
  auto r = run(OT::FULLY_CONNECTED,
               {f32({1, 2}, {0, 0}), f32({1, 2}, {-1, -1}), f32({1}, {-0.0f}), scalar(0)});
  EXPECT_EQ(bits(r.f32()), bits({0.0f}));
}

TEST(FullyConnected, HigherRankInputFlattens) {
  std::mt19937 rng(99);
  const auto in = randomFloats(rng, 2 * 3 * 4);  // [2,3,4] -> [4, 6] with input_size 6
  const auto w = randomFloats(rng, 5 * 6);
  const auto bias = randomFloats(rng, 5);
  auto r = run(OT::FULLY_CONNECTED, {f32({2, 3, 4}, in), f32({5, 6}, w), f32({5}, bias), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{4, 5}));
  EXPECT_EQ(bits(r.f32()), bits(naive(in, w, bias, 4, 5, 6, 0)));
  auto r4 = run(OT::FULLY_CONNECTED,
                {f32({1, 2, 3, 4}, in), f32({5, 6}, w), f32({5}, bias), scalar(0)});
  EXPECT_EQ(r4.shape.dims, (Dimensions{4, 5}));
}

TEST(FullyConnected, BatchZero) {
  auto r = run(OT::FULLY_CONNECTED,
               {f32({0, 3}, {}), f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2}), scalar(0)});
  EXPECT_OK(r);
  EXPECT_EQ(r.shape.dims, (Dimensions{0, 2}));
  EXPECT_TRUE(r.bytes.empty());
  auto r3 = run(OT::FULLY_CONNECTED,
                {f32({2, 0, 3}, {}), f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2}), scalar(1)});
  EXPECT_OK(r3);
  EXPECT_EQ(r3.shape.dims, (Dimensions{0, 2}));
}

TEST(FullyConnected, Errors) {
  const Tensor w = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor bias = f32({2}, {1, 2});
  const Tensor in = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_OK(run(OT::FULLY_CONNECTED, {in, w, bias, scalar(0)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {f32({6}, {1, 2, 3, 4, 5, 6}), w, bias, scalar(0)}));  // rank 1
  EXPECT_FAILS(run(OT::FULLY_CONNECTED,
                   {f32({1, 1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}), w, bias, scalar(0)}));  // rank 5
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {f32({2, 2}, {1, 2, 3, 4}), w, bias, scalar(0)}));  // 4 % 3
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, f32({6}, {1, 2, 3, 4, 5, 6}), bias, scalar(0)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, w, f32({3}, {1, 2, 3}), scalar(0)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, w, f32({1, 2}, {1, 2}), scalar(0)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, w, bias, scalar(4)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, w, bias}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {i32({2, 3}, {1, 2, 3, 4, 5, 6}),
                                         i32({2, 3}, {1, 2, 3, 4, 5, 6}), i32({2}, {1, 2}),
                                         scalar(0)}));
  Tensor noBias = bias;
  noBias.noValue = true;
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, w, noBias, scalar(0)}));
  // Zero-sized weights: only the batch may be 0.
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {f32({2, 0}, {}), f32({2, 0}, {}), bias, scalar(0)}));
  EXPECT_FAILS(run(OT::FULLY_CONNECTED, {in, f32({0, 3}, {}), f32({0}, {}), scalar(0)}));
}

}  // namespace
}  // namespace nnfab::cpu::test
