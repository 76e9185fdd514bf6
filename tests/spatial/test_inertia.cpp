// Tests for treedyn::Symmetric3 and treedyn::RigidInertia (transform, kinetic energy, point mass) against
// the dense definitions of Featherstone, Rigid Body Dynamics Algorithms, 2008, eqs. 2.62-2.63, Table 2.8.
#include <catch2/catch.hpp>

#include "spatial_test_support.hpp"

using namespace spatial_test;
using treedyn::RigidInertia;
using treedyn::Symmetric3;

namespace {
constexpr int kSamples = 40;

template <class T>
T inertia_scale(const RigidInertia<T>& I) {
  return I.m + I.h.template lpNorm<1>() + I.I.data.template lpNorm<1>();
}
}  // namespace

TEMPLATE_TEST_CASE("Symmetric3 stores, multiplies, adds and rotates like its dense matrix", "[spatial][inertia]",
                   float, double, long double) {
  using T = TestType;
  Rng rng(21);
  for (int k = 0; k < kSamples; ++k) {
    const M3<T> A = random_matrix<T, 3, 3>(rng), B = random_matrix<T, 3, 3>(rng);
    const M3<T> As = T(0.5) * (A + A.transpose()), Bs = T(0.5) * (B + B.transpose());
    const Symmetric3<T> SA = Symmetric3<T>::from_matrix(A), SB = Symmetric3<T>::from_matrix(B);
    const T eps = std::numeric_limits<T>::epsilon();
    CHECK(close_entrywise(SA.matrix(), As, T(2) * eps));  // from_matrix symmetrises
    CHECK(SA.matrix() == SA.matrix().transpose());
    for (Eigen::Index i = 0; i < 3; ++i)
      for (Eigen::Index j = 0; j < 3; ++j) CHECK(SA(i, j) == SA.matrix()(i, j));
    const V3<T> v = random_vec3<T>(rng);
    CHECK(close_entrywise(SA * v, (As * v).eval(), tolerance<T>(4, 1, T(3))));
    CHECK(close_entrywise((SA + SB).matrix(), (As + Bs).eval(), tolerance<T>(2, 1, T(2))));
    CHECK(close_entrywise((SA - SB).matrix(), (As - Bs).eval(), tolerance<T>(2, 1, T(2))));
    CHECK(close_entrywise((-SA).matrix(), (-As).eval(), T(0)));
    CHECK(close_entrywise((T(3) * SA).matrix(), (T(3) * As).eval(), tolerance<T>(2, 1, T(3))));
    CHECK(close_entrywise((SA * T(3)).matrix(), (T(3) * As).eval(), tolerance<T>(2, 1, T(3))));
    Symmetric3<T> acc = SA;
    acc += SB;
    CHECK(close_entrywise(acc.matrix(), (SA + SB).matrix(), T(0)));
    acc -= SB;
    CHECK(close_entrywise(acc.matrix(), SA.matrix(), tolerance<T>(2, 1, T(2))));
    CHECK(close_entrywise(SA.plus_diagonal(T(2)).matrix(), (As + T(2) * M3<T>::Identity()).eval(), tolerance<T>(2, 1, T(3))));
    const V3<T> a = random_vec3<T>(rng), b = random_vec3<T>(rng);
    CHECK(close_entrywise(Symmetric3<T>::outer_sum(a, b).matrix(), (a * b.transpose() + b * a.transpose()).eval(),
                        tolerance<T>(4, 1, T(2))));
    // congruence E S E^T, for a rotation and for a general matrix
    const M3<T> E = random_rotation<T>(rng);
    CHECK(close_entrywise(SA.congruence(E).matrix(), (E * As * E.transpose()).eval(), tolerance<T>(8, 1, T(9))));
    CHECK(close_entrywise(SA.congruence(B).matrix(), (B * As * B.transpose()).eval(), tolerance<T>(8, 1, T(27))));
  }
  CHECK(Symmetric3<T>::zero().matrix() == M3<T>::Zero());
  CHECK(Symmetric3<T>::identity().matrix() == M3<T>::Identity());
  const Symmetric3<double> D = Symmetric3<double>::from_entries(1, 2, 3, 4, 5, 6);
  CHECK(D.template cast<T>().matrix() == D.matrix().template cast<T>());
  M3<double> expected;
  expected << 1, 2, 4, 2, 3, 5, 4, 5, 6;  // (xx, yx, yy, zx, zy, zz)
  CHECK(D.matrix() == expected);
}

TEMPLATE_TEST_CASE("RigidInertia: dense form, apply, sums, centre of mass, kinetic energy", "[spatial][inertia]",
                   float, double, long double) {
  using T = TestType;
  Rng rng(22);
  for (int k = 0; k < kSamples; ++k) {
    const RigidInertia<T> I1 = random_rigid_inertia<T>(rng), I2 = random_rigid_inertia<T>(rng);
    const M6<T> D1 = dense_inertia<T>(I1.m, I1.h, I1.I.matrix());
    const M6<T> D2 = dense_inertia<T>(I2.m, I2.h, I2.I.matrix());
    const T s = inertia_scale(I1);
    CHECK(close_entrywise(I1.matrix(), D1, T(0)));
    CHECK(I1.matrix() == I1.matrix().transpose());

    const V6<T> v = random_vec6<T>(rng);
    const Eigen::Matrix<T, 6, 3> S = random_matrix<T, 6, 3>(rng);
    const Eigen::Matrix<T, 6, Eigen::Dynamic> Sd = random_matrix<T, 6, Eigen::Dynamic>(rng, 6, 2);
    CHECK(close_entrywise(I1.apply(v), dense_times(D1, v), tolerance<T>(4, 1, s)));
    CHECK(close_entrywise(I1.apply(S), dense_times(D1, S), tolerance<T>(4, 1, s)));
    CHECK(close_entrywise(I1.apply(Sd), dense_times(D1, Sd), tolerance<T>(4, 1, s)));

    const RigidInertia<T> sum = I1 + I2;
    CHECK(close_entrywise(sum.matrix(), (D1 + D2).eval(), tolerance<T>(2, 1, s + inertia_scale(I2))));
    RigidInertia<T> acc = I1;
    acc += I2;
    CHECK(acc.m == sum.m);
    CHECK(acc.h == sum.h);
    CHECK(acc.I.data == sum.I.data);

    // com() = h / m
    CHECK(close_entrywise((I1.m * I1.com()).eval(), I1.h, tolerance<T>(2, 1, s)));

    // kinetic energy ½ v^T I v
    const T ke = I1.kinetic_energy(v);
    SPATIAL_CHECK_NEAR(ke, T(0.5) * v.dot(dense_times(D1, v).col(0)), tolerance<T>(8, 1, s * T(6)));
    CHECK(ke > T(0));  // a physical inertia is positive definite
  }
  const RigidInertia<T> Z = RigidInertia<T>::zero();
  CHECK(Z.matrix() == M6<T>::Zero());
  const RigidInertia<double> Id = random_rigid_inertia<double>(rng);
  const RigidInertia<T> It = Id.template cast<T>();
  CHECK(It.m == T(Id.m));
  CHECK(It.h == Id.h.template cast<T>());
  CHECK(It.I.data == Id.I.data.template cast<T>());
}

TEMPLATE_TEST_CASE("from_mass_com_inertia is the parallel-axis theorem; a point mass is (m, m p, -m p×p×)",
                   "[spatial][inertia]", float, double, long double) {
  using T = TestType;
  Rng rng(23);
  for (int k = 0; k < kSamples; ++k) {
    const T m = rng.uniform<T>(0.5, 2.0);
    const V3<T> c = random_vec3<T>(rng);
    const M3<T> L = random_matrix<T, 3, 3>(rng);
    const M3<T> Ic = L * L.transpose() + T(0.1) * M3<T>::Identity();
    const RigidInertia<T> I = RigidInertia<T>::from_mass_com_inertia(m, c, Ic);
    const T s = m * (T(1) + c.squaredNorm()) + T(4);
    CHECK(I.m == m);
    CHECK(close_entrywise(I.h, (m * c).eval(), tolerance<T>(2, 1, m)));
    // parallel axis: Ī_O = Ī_C + m (|c|^2 1 - c c^T) = Ī_C - m c×c×
    const M3<T> parallel = Ic + m * (c.squaredNorm() * M3<T>::Identity() - c * c.transpose());
    CHECK(close_entrywise(I.I.matrix(), parallel, tolerance<T>(8, 1, s)));
    CHECK(close_entrywise(I.I.matrix(), (Ic - m * skew_oracle(c) * skew_oracle(c)).eval(), tolerance<T>(8, 1, s)));
    // the spatial inertia about O is the CoM-frame inertia diag(Ī_C, m 1) carried by the transform from O to
    // the CoM frame, X = xlt(c): I_O = X^T I_C X (Featherstone eq. 2.63).
    M6<T> IC = M6<T>::Zero();
    IC.template topLeftCorner<3, 3>() = Ic;
    IC.template bottomRightCorner<3, 3>() = m * M3<T>::Identity();
    const M6<T> Xc = dense_motion<T>(M3<T>::Identity(), c);
    CHECK(close_entrywise(I.matrix(), (Xc.transpose() * IC * Xc).eval(), tolerance<T>(16, 1, s)));
    // the Symmetric3 overload gives the same numbers
    const RigidInertia<T> I2 = RigidInertia<T>::from_mass_com_inertia(m, c, Symmetric3<T>::from_matrix(Ic));
    CHECK(I2.I.data == I.I.data);

    // point mass at p: (m, m p, -m p×p×); its momentum is m × (velocity of the point)
    const V3<T> p = random_vec3<T>(rng);
    const RigidInertia<T> P = RigidInertia<T>::from_mass_com_inertia(m, p, Symmetric3<T>::zero());
    const T sp = m * (T(1) + p.squaredNorm());
    CHECK(close_entrywise(P.h, (m * p).eval(), tolerance<T>(2, 1, m)));
    CHECK(close_entrywise(P.I.matrix(), (-m * skew_oracle(p) * skew_oracle(p)).eval(), tolerance<T>(8, 1, sp)));
    const V6<T> v = random_vec6<T>(rng);
    const V3<T> w = v.template head<3>();
    const V3<T> point_velocity = v.template tail<3>() + w.cross(p);
    const V6<T> momentum = P.apply(v);
    CHECK(close_entrywise(momentum.template tail<3>(), (m * point_velocity).eval(), tolerance<T>(8, 1, sp * T(4))));
    CHECK(close_entrywise(momentum.template head<3>(), (p.cross(m * point_velocity)).eval(), tolerance<T>(8, 1, sp * T(8))));
    SPATIAL_CHECK_NEAR(P.kinetic_energy(v), T(0.5) * m * point_velocity.squaredNorm(), tolerance<T>(8, 1, sp * T(8)));
  }
}
