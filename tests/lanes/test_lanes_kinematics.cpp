// bias, crba, forward_kinematics, frame_jacobian and integrate instantiated on treedyn::Lanes (docs/lanes.md):
// every lane equals the scalar kernel on that lane's state.
//
// Within c·n·ε(T)·(1 + ‖result‖∞), n the number of bodies, not bit for bit: every one of these kernels starts
// from the joint transforms, whose sin/cos over lanes are std::experimental::simd's polynomials (within 2 ulps
// of libm's, docs/lanes.md#sin-and-cos), and Eigen sums the scalar path's 3-vector products in SIMD packets
// (another summation order) while lane coefficients are summed in order. No kernel here solves with H, so
// the bound carries no condition number. The worst ratio measured is WARNed (docs/lanes.md#accuracy-of-the-kernels-on-lanes).
#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"

namespace {

using treedyn::test::dense;
using treedyn::test::DenseOf;

template <class V>
using ScalarOf = typename std::decay_t<V>::Scalar;

const auto bias_kernel = [](const auto& m, auto& d, const auto& q, const auto& qd, const auto&) {
  return dense(treedyn::bias(m, d, q, qd));
};
const auto crba_kernel = [](const auto& m, auto& d, const auto& q, const auto&, const auto&) {
  return dense(treedyn::crba(m, d, q));  // the packed ancestor rows of H
};
/// Every body's ^i X_0 as a column (E row by row, then r).
const auto forward_kinematics_kernel = [](const auto& m, auto& d, const auto& q, const auto&, const auto&) {
  const auto& X = treedyn::forward_kinematics(m, d, q);
  DenseOf<ScalarOf<decltype(q)>> out(12, m.nbodies());
  for (int i = 0; i < m.nbodies(); ++i) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) out(3 * r + c, i) = X[i].E(r, c);
    out.col(i).template tail<3>() = X[i].r;
  }
  return out;
};
/// The world-aligned Jacobian of a point offset from the last body (the longest path of most models).
const auto frame_jacobian_kernel = [](const auto& m, auto& d, const auto& q, const auto&, const auto&) {
  using S = ScalarOf<decltype(q)>;
  treedyn::forward_kinematics(m, d, q);
  treedyn::Transform<S> placement = treedyn::Transform<S>::identity();
  placement.r << S(0.1), S(-0.2), S(0.3);
  return dense(treedyn::frame_jacobian(m, d, m.nbodies() - 1, placement, treedyn::ReferenceFrame::world_aligned));
};
/// q ⊕ 0.3 q̇ (quaternions by the exponential map, whose small-angle series is selected lane by lane).
const auto integrate_kernel = [](const auto& m, auto&, const auto& q, const auto& qd, const auto&) {
  using S = ScalarOf<decltype(q)>;
  Eigen::Matrix<S, Eigen::Dynamic, 1> out(m.nq());
  treedyn::integrate(m, q, qd, S(0.3), out);
  return dense(out);
};

/// check_double4_float8 with no condition factor.
template <class Kernel>
void check_both(const char* what, const Kernel& kernel, std::uint64_t seed) {
  treedyn::test::check_double4_float8(what, kernel, seed, [](const auto&, const auto&, int) { return 1.0; });
}

}  // namespace

TEST_CASE("bias over Lanes<double, 4> and Lanes<float, 8> equals the scalar bias lane by lane", "[lanes]") {
  check_both("bias", bias_kernel, 5100);
}

TEST_CASE("crba over Lanes<double, 4> and Lanes<float, 8> equals the scalar crba lane by lane", "[lanes]") {
  check_both("crba", crba_kernel, 5300);
}

TEST_CASE("forward_kinematics over Lanes equals the scalar forward_kinematics lane by lane", "[lanes]") {
  check_both("fk", forward_kinematics_kernel, 5500);
}

TEST_CASE("frame_jacobian over Lanes equals the scalar frame_jacobian lane by lane", "[lanes]") {
  check_both("J", frame_jacobian_kernel, 5700);
}

TEST_CASE("integrate over Lanes equals the scalar integrate lane by lane", "[lanes]") {
  check_both("integrate", integrate_kernel, 5900);
}
