// A deliberately naive dense reference for the dynamics algorithms: explicit 6×6
// matrices written from Featherstone's book, body Jacobians, H = Σ Jᵢᵀ Iᵢ Jᵢ, Newton–Euler with dense
// cross-product matrices. Never shared with include/: it uses only a Model's raw description (joints'
// XJ(q) and S, tree transforms, inertias) and builds everything else itself.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "treedyn/model/model.hpp"

namespace treedyn::reference {

template <class S>
using Mat6 = Eigen::Matrix<S, 6, 6>;
template <class S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;

template <class S>
Eigen::Matrix<S, 3, 3> cross3(const Eigen::Matrix<S, 3, 1>& a) {
  Eigen::Matrix<S, 3, 3> m;
  m << S(0), -a(2), a(1), a(2), S(0), -a(0), -a(1), a(0), S(0);
  return m;
}

/// Dense motion transform ^B X_A = [E 0; −E r× E] (Featherstone eq. 2.24).
template <class S>
Mat6<S> motion_matrix(const Eigen::Matrix<S, 3, 3>& E, const Eigen::Matrix<S, 3, 1>& r) {
  Mat6<S> X = Mat6<S>::Zero();
  X.template topLeftCorner<3, 3>() = E;
  X.template bottomRightCorner<3, 3>() = E;
  X.template bottomLeftCorner<3, 3>() = -E * cross3(r);
  return X;
}

/// crm(v) = [ω× 0; v× ω×]; crf(v) = −crm(v)ᵀ.
template <class S>
Mat6<S> crm(const Vec6<S>& v) {
  Mat6<S> m = Mat6<S>::Zero();
  m.template topLeftCorner<3, 3>() = cross3<S>(v.template head<3>());
  m.template bottomRightCorner<3, 3>() = cross3<S>(v.template head<3>());
  m.template bottomLeftCorner<3, 3>() = cross3<S>(v.template tail<3>());
  return m;
}
template <class S>
Mat6<S> crf(const Vec6<S>& v) {
  return -crm(v).transpose();
}

/// Dense spatial inertia [Ī h×; −h× m1] from (m, h, Ī about the origin).
template <class S>
Mat6<S> inertia_matrix(const RigidInertia<S>& I) {
  Mat6<S> M = Mat6<S>::Zero();
  M.template topLeftCorner<3, 3>() = I.I.matrix();
  M.template topRightCorner<3, 3>() = cross3(I.h);
  M.template bottomLeftCorner<3, 3>() = -cross3(I.h);
  M.template bottomRightCorner<3, 3>() = I.m * Eigen::Matrix<S, 3, 3>::Identity();
  return M;
}

/// Everything the reference derives from (model, q): per-body dense ^i X_λ(i), ^i X_0 and body Jacobians.
template <class S, int N>
struct Kinematics {
  std::vector<Mat6<S>> Xup, X0;
  std::vector<MatX<S>> J;  // 6 × n body Jacobian of body i in body-i coordinates

  template <class Dq>
  Kinematics(const Model<S, N>& model, const Eigen::MatrixBase<Dq>& q) {
    const int nb = model.nbodies(), n = model.nv();
    for (int i = 0; i < nb; ++i) {
      const Joint<S>& joint = model.joint(i);
      const Transform<S> XJ = joint.transform(q.segment(model.q_offset(i), joint.nq()));
      const Transform<S>& XT = model.tree_transform(i);
      Xup.push_back(motion_matrix(XJ.E, XJ.r) * motion_matrix(XT.E, XT.r));
      const int p = model.parent(i);
      X0.push_back(p == no_parent ? Xup.back() : Mat6<S>(Xup.back() * X0[static_cast<std::size_t>(p)]));
    }
    for (int i = 0; i < nb; ++i) {
      MatX<S> Ji = MatX<S>::Zero(6, n);
      for (int j = i; j != no_parent; j = model.parent(j)) {
        const Mat6<S> X_ij = X0[static_cast<std::size_t>(i)] * X0[static_cast<std::size_t>(j)].inverse();
        Ji.middleCols(model.v_offset(j), model.joint(j).nv()) = X_ij * model.joint(j).motion_subspace();
      }
      J.push_back(Ji);
    }
  }
};

/// H = Σ_i J_iᵀ I_i J_i.
template <class S, int N, class Dq>
MatX<S> mass_matrix(const Model<S, N>& model, const Eigen::MatrixBase<Dq>& q) {
  const Kinematics<S, N> kin(model, q);
  MatX<S> H = MatX<S>::Zero(model.nv(), model.nv());
  for (int i = 0; i < model.nbodies(); ++i)
    H += kin.J[static_cast<std::size_t>(i)].transpose() * inertia_matrix(model.inertia(i)) * kin.J[static_cast<std::size_t>(i)];
  return H;
}

/// Σ ½ v_iᵀ I_i v_i with v_i = J_i q̇.
template <class S, int N, class Dq, class Dv>
S kinetic_energy(const Model<S, N>& model, const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd) {
  const Kinematics<S, N> kin(model, q);
  S T = S(0);
  for (int i = 0; i < model.nbodies(); ++i) {
    const Vec6<S> v = kin.J[static_cast<std::size_t>(i)] * qd;
    T += S(0.5) * v.dot(inertia_matrix(model.inertia(i)) * v);
  }
  return T;
}

/// Newton–Euler with dense matrices: τ = Σ_i J_iᵀ (I_i a_i + crf(v_i) I_i v_i − f_ext,i), where
/// a_i = J_i q̈ + J̇_i q̇ + X0_i a_grav is obtained by the recursive velocity-product terms.
template <class S, int N, class Dq, class Dv, class Da>
VecX<S> inverse_dynamics(const Model<S, N>& model, const Eigen::MatrixBase<Dq>& q, const Eigen::MatrixBase<Dv>& qd,
                         const Eigen::MatrixBase<Da>& qdd, const std::vector<Vec6<S>>& f_ext = {}) {
  const Kinematics<S, N> kin(model, q);
  const int nb = model.nbodies();
  Vec6<S> a_grav = Vec6<S>::Zero();
  a_grav.template tail<3>() = -model.gravity();
  std::vector<Vec6<S>> v(static_cast<std::size_t>(nb)), a(static_cast<std::size_t>(nb));
  VecX<S> tau = VecX<S>::Zero(model.nv());
  for (int i = 0; i < nb; ++i) {
    const auto iu = static_cast<std::size_t>(i);
    const int p = model.parent(i);
    const MatX<S> Si = model.joint(i).motion_subspace();
    const VecX<S> qdi = qd.segment(model.v_offset(i), Si.cols());
    const Vec6<S> vJ = Si * qdi;
    v[iu] = kin.J[iu] * qd;
    const Vec6<S> a_parent = (p == no_parent) ? a_grav : a[static_cast<std::size_t>(p)];
    a[iu] = kin.Xup[iu] * a_parent + Si * qdd.segment(model.v_offset(i), Si.cols()) + crm(v[iu]) * vJ;
  }
  for (int i = 0; i < nb; ++i) {
    const auto iu = static_cast<std::size_t>(i);
    const Mat6<S> I = inertia_matrix(model.inertia(i));
    Vec6<S> f = I * a[iu] + crf(v[iu]) * I * v[iu];
    if (!f_ext.empty()) f -= f_ext[iu];
    tau += kin.J[iu].transpose() * f;  // J_iᵀ maps the body force to every joint on its path
  }
  return tau;
}

}  // namespace treedyn::reference
