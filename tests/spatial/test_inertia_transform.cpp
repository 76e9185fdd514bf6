// Tests for the rigid-inertia transforms apply_inertia / apply_transpose_inertia against the dense
// congruences and the kinetic-energy invariance (Featherstone 2008,
// Table 2.8).
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

using namespace spatial_test;
using treedyn::RigidInertia;
using treedyn::Transform;

namespace {
constexpr int kSamples = 40;

template <class T>
T inertia_scale(const RigidInertia<T>& I) {
  return I.m + I.h.template lpNorm<1>() + I.I.data.template lpNorm<1>();
}
}  // namespace

TEMPLATE_TEST_CASE("rigid inertia transforms equal the dense congruences; kinetic energy is invariant",
                   "[spatial][inertia]", float, double, long double) {
  using T = TestType;
  Rng rng(24);
  for (int k = 0; k < kSamples; ++k) {
    const Transform<T> X = random_transform<T>(rng);
    const RigidInertia<T> IA = random_rigid_inertia<T>(rng);
    const T sx = T(1) + X.r.template lpNorm<1>();
    const T s = inertia_scale(IA) * sx * sx;
    const M6<T> D = dense_motion(X);
    const M6<T> Dinv = D.inverse();
    const M6<T> Dforce = dense_force(X);

    // (a) I_B = X* I_A X^-1 (force-side congruence), and back: X^T I_B X = I_A in A coordinates.
    const RigidInertia<T> IB = treedyn::apply_inertia(X, IA);
    CHECK(IB.m == IA.m);
    CHECK(close_entrywise(IB.matrix(), (Dforce * IA.matrix() * Dinv).eval(), tolerance<T>(32, 1, s * sx)));
    CHECK(close_entrywise(IB.h, (X.E * (IA.h - IA.m * X.r)).eval(), tolerance<T>(8, 1, s)));
    const RigidInertia<T> back = treedyn::apply_transpose_inertia(X, IB);
    CHECK(close_entrywise(back.matrix(), IA.matrix(), tolerance<T>(32, 1, s * sx)));
    const RigidInertia<T> IB2 = random_rigid_inertia<T>(rng);
    CHECK(close_entrywise(treedyn::apply_transpose_inertia(X, IB2).matrix(),
                        (D.transpose() * IB2.matrix() * D).eval(), tolerance<T>(32, 1, inertia_scale(IB2) * sx * sx)));
    // The transpose form equals the forward form with the inverse transform.
    CHECK(close_entrywise(treedyn::apply_transpose_inertia(X, IB2).matrix(),
                        treedyn::apply_inertia(X.inverse(), IB2).matrix(), tolerance<T>(32, 1, inertia_scale(IB2) * sx * sx)));
    // Table 2.8's Ī' = E (Ī + r×h× + (h - m r)× r×) E^T, written out with skew matrices.
    const M3<T> rx = skew_oracle(X.r), hx = skew_oracle(IA.h), hmrx = skew_oracle<T>(IA.h - IA.m * X.r);
    const M3<T> Ibar = X.E * (IA.I.matrix() + rx * hx + hmrx * rx) * X.E.transpose();
    CHECK(close_entrywise(IB.I.matrix(), Ibar, tolerance<T>(16, 1, s)));

    // (b) ½ (X v)^T I_B (X v) = ½ v^T I_A v; and the force I_B (X v) = X* (I_A v).
    const V6<T> v = random_vec6<T>(rng);
    const V6<T> Xv = X.apply_motion(v);
    SPATIAL_CHECK_NEAR(IB.kinetic_energy(Xv), IA.kinetic_energy(v), tolerance<T>(16, 1, s * sx * T(6)));
    CHECK(close_entrywise(IB.apply(Xv), X.apply_force(IA.apply(v)), tolerance<T>(16, 1, s * sx * T(2))));

    // Composite inertia: transforming a sum is the sum of the transforms.
    const RigidInertia<T> sum_then = treedyn::apply_inertia(X, IA + IB2);
    const RigidInertia<T> then_sum = treedyn::apply_inertia(X, IA) + treedyn::apply_inertia(X, IB2);
    CHECK(close_entrywise(sum_then.matrix(), then_sum.matrix(), tolerance<T>(16, 1, (inertia_scale(IA) + inertia_scale(IB2)) * sx * sx)));
  }
}
