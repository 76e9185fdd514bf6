// Tests for treedyn::ArticulatedInertia: its transforms (3x3 block formulas) against the dense congruences
// X* IA X^-1 and X^T IA X (Featherstone 2008, §7.2-7.3).
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

#include <type_traits>

using namespace spatial_test;
using treedyn::ArticulatedInertia;
using treedyn::RigidInertia;
using treedyn::Transform;

namespace {
constexpr int kSamples = 40;
}

TEMPLATE_TEST_CASE("ArticulatedInertia: construction, apply and sums", "[spatial][articulated]", float, double,
                   long double) {
  using T = TestType;
  Rng rng(31);
  CHECK(ArticulatedInertia<T>::zero().matrix() == M6<T>::Zero());
  for (int k = 0; k < kSamples; ++k) {
    const RigidInertia<T> I = random_rigid_inertia<T>(rng);
    const ArticulatedInertia<T> A = ArticulatedInertia<T>::from(I);
    CHECK(A.matrix() == I.matrix());
    const ArticulatedInertia<T> B = random_articulated_inertia<T>(rng);
    const T s = max_abs(B.M) * T(6);

    const V6<T> v = random_vec6<T>(rng);
    const Eigen::Matrix<T, 6, 3> S = random_matrix<T, 6, 3>(rng);
    const Eigen::Matrix<T, 6, Eigen::Dynamic> Sd = random_matrix<T, 6, Eigen::Dynamic>(rng, 6, 4);
    CHECK(close_entrywise(B.apply(v), dense_times(B.M, v), tolerance<T>(4, 1, s)));
    CHECK(close_entrywise(B.apply(S), dense_times(B.M, S), tolerance<T>(4, 1, s)));
    CHECK(close_entrywise(B.apply(Sd), dense_times(B.M, Sd), tolerance<T>(4, 1, s)));
    static_assert(std::is_same<decltype(B.apply(S)), Eigen::Matrix<T, 6, 3>>::value, "6x3 in, 6x3 out");

    ArticulatedInertia<T> acc = B;
    acc += A;
    CHECK(close_entrywise(acc.matrix(), (B.M + I.matrix()).eval(), tolerance<T>(2, 1, s)));
    ArticulatedInertia<T> acc2 = B;
    acc2 += I;  // the rigid overload adds block by block
    CHECK(close_entrywise(acc2.matrix(), (B.M + I.matrix()).eval(), tolerance<T>(2, 1, s)));
    CHECK(close_entrywise((B + A).matrix(), (B.M + A.M).eval(), tolerance<T>(2, 1, s)));
    CHECK(close_entrywise((B - A).matrix(), (B.M - A.M).eval(), tolerance<T>(2, 1, s)));
  }
  const ArticulatedInertia<double> D = random_articulated_inertia<double>(rng);
  CHECK(D.template cast<T>().matrix() == D.M.template cast<T>());
}

TEMPLATE_TEST_CASE("articulated-inertia transforms equal the dense congruences", "[spatial][articulated]", float,
                   double, long double) {
  using T = TestType;
  Rng rng(32);
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X = random_transform<T>(rng);
    const ArticulatedInertia<T> IA = random_articulated_inertia<T>(rng);
    const T sx = T(1) + X.r.template lpNorm<1>();
    const T s = max_abs(IA.M) * T(6) * sx * sx;
    const M6<T> D = dense_motion(X);
    const M6<T> Dinv = D.inverse();
    const M6<T> Dforce = dense_force(X);

    const ArticulatedInertia<T> IB = treedyn::apply_inertia(X, IA);
    CHECK(close_entrywise(IB.matrix(), (Dforce * IA.M * Dinv).eval(), tolerance<T>(32, 1, s * sx)));
    CHECK(IB.matrix() == IB.matrix().transpose());  // exactly symmetric by construction

    const ArticulatedInertia<T> IAt = treedyn::apply_transpose_inertia(X, IA);
    CHECK(close_entrywise(IAt.matrix(), (D.transpose() * IA.M * D).eval(), tolerance<T>(32, 1, s)));
    CHECK(IAt.matrix() == IAt.matrix().transpose());

    // the in-place form (the ABA's IA_λ += Xᵀ Ia X) adds exactly what apply_transpose_inertia returns
    ArticulatedInertia<T> acc = random_articulated_inertia<T>(rng);
    const M6<T> before = acc.M;
    treedyn::add_transpose_inertia(X, IA, acc);
    CHECK(acc.matrix() == (before + IAt.matrix()).eval());
    CHECK(acc.matrix() == acc.matrix().transpose());

    // round trip, and consistency with the rigid-body formulas when IA is a rigid inertia
    CHECK(close_entrywise(treedyn::apply_transpose_inertia(X, IB).matrix(), IA.M, tolerance<T>(32, 1, s * sx * sx)));
    const RigidInertia<T> R = random_rigid_inertia<T>(rng);
    const T sr = (R.m + R.h.template lpNorm<1>() + R.I.data.template lpNorm<1>()) * sx * sx;
    CHECK(close_entrywise(treedyn::apply_inertia(X, ArticulatedInertia<T>::from(R)).matrix(),
                        treedyn::apply_inertia(X, R).matrix(), tolerance<T>(32, 1, sr)));
    CHECK(close_entrywise(treedyn::apply_transpose_inertia(X, ArticulatedInertia<T>::from(R)).matrix(),
                        treedyn::apply_transpose_inertia(X, R).matrix(), tolerance<T>(32, 1, sr)));

    // the force of a moved velocity is the moved force: IA_B (X v) = X* (IA v)
    const V6<T> v = random_vec6<T>(rng);
    CHECK(close_entrywise(IB.apply(X.apply_motion(v)), X.apply_force(IA.apply(v)), tolerance<T>(32, 1, s * sx * T(2))));

    // An asymmetric input is read as its symmetric part.
    M6<T> skewed = random_matrix<T, 6, 6>(rng);
    skewed = (skewed - skewed.transpose()).eval();  // antisymmetric
    const ArticulatedInertia<T> perturbed{IA.M + skewed};
    CHECK(close_entrywise(treedyn::apply_inertia(X, perturbed).matrix(), IB.matrix(), tolerance<T>(32, 1, s * sx)));
  }
}
