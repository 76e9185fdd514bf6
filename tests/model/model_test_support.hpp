// Shared helpers for the model tests: single-joint models, dense oracles written from the definitions
// (body placements by composing ^iX_λ(i) = XJ(q_i) X_T(i), body Jacobians, H = Σ Jᵢᵀ Iᵢ Jᵢ), the
// body velocity read off crm(v) = −Ẋ X⁻¹. Tolerances come from support/tolerance.hpp. Nothing here uses
// treedyn/algorithms (written concurrently): the oracles are deliberately naive and dense.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "support/random.hpp"
#include "support/tolerance.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/spatial.hpp"

namespace model_test {

template <class T>
using VecX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using MatX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using M6 = treedyn::Matrix6<T>;
template <class T>
using V6 = treedyn::Vector6<T>;
template <class T>
using V3 = treedyn::Vector3<T>;

using treedyn::test::close_entrywise;
using treedyn::test::eps;

/// The six joint types that move (fixed merges away).
inline const std::vector<treedyn::JointType>& moving_types() {
  static const std::vector<treedyn::JointType> types = {
      treedyn::JointType::revolute,  treedyn::JointType::prismatic, treedyn::JointType::helical,
      treedyn::JointType::spherical, treedyn::JointType::planar,    treedyn::JointType::free_flyer};
  return types;
}

/// A joint of the given type with a general (non-unit, non-aligned) axis and a nonzero pitch.
template <class T>
treedyn::Joint<T> general_joint(treedyn::JointType type) {
  const V3<T> axis(T(0.3), T(-0.5), T(0.8));
  switch (type) {
    case treedyn::JointType::revolute: return treedyn::Joint<T>::revolute(axis);
    case treedyn::JointType::prismatic: return treedyn::Joint<T>::prismatic(axis);
    case treedyn::JointType::helical: return treedyn::Joint<T>::helical(axis, T(0.15));
    case treedyn::JointType::spherical: return treedyn::Joint<T>::spherical();
    case treedyn::JointType::planar: return treedyn::Joint<T>::planar();
    case treedyn::JointType::free_flyer: return treedyn::Joint<T>::free_flyer();
    case treedyn::JointType::fixed: break;
  }
  return treedyn::Joint<T>::fixed();
}

/// A unit point mass at (0.1, 0.2, 0.3) with a small spherical inertia: a valid body.
template <class T>
treedyn::RigidInertia<T> simple_inertia() {
  return treedyn::RigidInertia<T>::from_mass_com_inertia(T(1), V3<T>(T(0.1), T(0.2), T(0.3)),
                                                         treedyn::Symmetric3<T>::identity() * T(0.01));
}

/// A one-body model whose only joint has the given type (the builder normalises the axis).
template <class T>
treedyn::Model<T> single_joint_model(treedyn::JointType type) {
  treedyn::ModelBuilder<T> builder;
  builder.add_body(treedyn::no_parent, general_joint<T>(type), treedyn::Transform<T>::identity(), simple_inertia<T>(),
                   "only");
  return builder.build();
}

/// Uniform random vector in [−1, 1]^n.
template <class T>
VecX<T> random_vector(treedyn::test::Rng& rng, int n) {
  VecX<T> v(n);
  for (int k = 0; k < n; ++k) v(k) = static_cast<T>(rng.uniform());
  return v;
}

/// The body velocity v with crm(v) = M, read off the left skew blocks of M = [ω× 0; v× ω×].
template <class T>
V6<T> velocity_from_crm(const M6<T>& M) {
  V6<T> v;
  v << M(2, 1), M(0, 2), M(1, 0), M(5, 1), M(3, 2), M(4, 0);
  return v;
}

/// ^iX_0 for every body: the base-to-body transforms, composed from ^iX_λ(i) = XJ(q_i) X_T(i).
template <class T, int N, class Derived>
std::vector<treedyn::Transform<T>> body_placements(const treedyn::Model<T, N>& model,
                                                   const Eigen::MatrixBase<Derived>& q) {
  std::vector<treedyn::Transform<T>> X0(static_cast<std::size_t>(model.nbodies()));
  for (int i = 0; i < model.nbodies(); ++i) {
    const treedyn::Joint<T>& joint = model.joint(i);
    const VecX<T> qi = q.segment(model.q_offset(i), joint.nq());
    const treedyn::Transform<T> Xup = joint.transform(qi) * model.tree_transform(i);
    const int p = model.parent(i);
    X0[static_cast<std::size_t>(i)] = (p == treedyn::no_parent) ? Xup : Xup * X0[static_cast<std::size_t>(p)];
  }
  return X0;
}

/// Dense body Jacobian of body i in body-i coordinates (6 × nv): column block of ancestor joint j is
/// ^iX_j S_j.
template <class T, int N>
MatX<T> body_jacobian(const treedyn::Model<T, N>& model, const std::vector<treedyn::Transform<T>>& X0, int i) {
  MatX<T> J = MatX<T>::Zero(6, model.nv());
  const M6<T> Xi0 = X0[static_cast<std::size_t>(i)].motion_matrix();
  for (int j = i; j != treedyn::no_parent; j = model.parent(j)) {
    const M6<T> Xij = Xi0 * X0[static_cast<std::size_t>(j)].inverse().motion_matrix();
    const MatX<T> S = model.joint(j).motion_subspace();
    J.block(0, model.v_offset(j), 6, S.cols()) = Xij * S;
  }
  return J;
}

/// H(q) = Σ_i J_iᵀ I_i J_i, dense (the kinetic-energy definition, ½ q̇ᵀ H q̇ = Σ ½ v_iᵀ I_i v_i).
template <class T, int N, class Derived>
MatX<T> mass_matrix(const treedyn::Model<T, N>& model, const Eigen::MatrixBase<Derived>& q) {
  const std::vector<treedyn::Transform<T>> X0 = body_placements(model, q);
  MatX<T> H = MatX<T>::Zero(model.nv(), model.nv());
  for (int i = 0; i < model.nbodies(); ++i) {
    const MatX<T> J = body_jacobian(model, X0, i);
    H += J.transpose() * model.inertia(i).matrix() * J;
  }
  return H;
}

/// Total mass of the model (merged fixed bodies included).
template <class T, int N>
T total_mass(const treedyn::Model<T, N>& model) {
  T m(0);
  for (int i = 0; i < model.nbodies(); ++i) m += model.inertia(i).m;
  return m;
}

/// Position of a body-fixed point p (body-i coordinates) in base coordinates.
template <class T>
V3<T> world_point(const treedyn::Transform<T>& X0i, const V3<T>& p) {
  // X0i = ^iX_0 = (E, r): body origin r in base coordinates, E = ^iR_0.
  return X0i.r + X0i.E.transpose() * p;
}

template <class Array>
std::vector<int> to_vector(const Array& a) {
  return std::vector<int>(a.begin(), a.end());
}

}  // namespace model_test
