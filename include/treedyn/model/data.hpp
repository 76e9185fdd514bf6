// treedyn Data: every workspace quantity of the algorithms, sized once from a Model.
//
// Reference: ../shared/design/architecture.md §4. Only the Model builder and this constructor may
// allocate; with a fixed N not even this constructor does (every member is fixed-size or has a fixed
// maximum size). One Data per thread. The branch-induced zeros of H are set here, once: the CRBA writes
// only the nonzeros (seed 000 §5).
#pragma once

#include "treedyn/detail/storage.hpp"
#include "treedyn/kernels/factor_status.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"
#include "treedyn/spatial/transform.hpp"

namespace treedyn {

template <class Scalar, int N = Dynamic>
struct Data {
  explicit Data(const Model<Scalar, N>& model)
      : Xup(model.nbodies(), Transform<Scalar>::identity()),
        X_world(model.nbodies(), Transform<Scalar>::identity()),
        v(model.nbodies(), Motion<Scalar>::Zero()),
        a(model.nbodies(), Motion<Scalar>::Zero()),
        f(model.nbodies(), Force<Scalar>::Zero()),
        IC(model.nbodies(), RigidInertia<Scalar>::zero()),
        tau(VectorN<Scalar, N>::Zero(model.nv())),
        C(VectorN<Scalar, N>::Zero(model.nv())),
        qdd(VectorN<Scalar, N>::Zero(model.nv())),
        H(MatrixN<Scalar, N>::Zero(model.nv(), model.nv())),
        H_factor(PackedVector<Scalar, N>::Zero(model.h_pattern().nonzeros())),
        J(Eigen::Matrix<Scalar, 6, N>::Zero(6, model.nv())) {}

  // per body (index i)
  detail::Array<Transform<Scalar>, N> Xup;      ///< ^i X_λ(i) = XJ(q_i) X_T(i)
  detail::Array<Transform<Scalar>, N> X_world;  ///< ^i X_0: body i's placement (world → body coordinates)
  detail::Array<Motion<Scalar>, N> v;           ///< body velocities, body coordinates
  detail::Array<Motion<Scalar>, N> a;           ///< body accelerations (gravity as base acceleration)
  detail::Array<Force<Scalar>, N> f;            ///< RNEA body forces
  detail::Array<RigidInertia<Scalar>, N> IC;    ///< CRBA composite inertias

  // per DoF
  VectorN<Scalar, N> tau;                       ///< rnea output
  VectorN<Scalar, N> C;                         ///< bias output
  VectorN<Scalar, N> qdd;                       ///< forward dynamics output
  MatrixN<Scalar, N> H;                         ///< joint-space inertia matrix (full symmetric)
  PackedVector<Scalar, N> H_factor;             ///< LTDL factor of H on packed ancestor rows
  FactorStatus factor_status;                   ///< status of the last factorization of H
  Eigen::Matrix<Scalar, 6, N> J;                ///< frame_jacobian output
};

}  // namespace treedyn
