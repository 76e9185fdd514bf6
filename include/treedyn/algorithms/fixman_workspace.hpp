// FixmanWorkspace: the per-body constants of Fixman's method (set-up steps F1–F4: the D–H frames, the
// soft and hard variables, the inverse CoM inertias; Lee, Wang & Chirikjian, Robotica 2007, §4 eq. 26 and
// §3.6 eq. 20; docs/references.md) and the per-call buffers of minverse_apply_fixman, with
// fixman_supported, the check of which models the method handles. Building it is the only step that
// allocates; minverse_apply_fixman.hpp holds the algorithm and the derivation.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include "treedyn/algorithms/fixman_coordinates.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

/// Whether minverse_apply_fixman can handle `model`; if not and `reason` is given, *reason names the body
/// and the rule broken. Allocates (strings); for set-up only.
template <class Scalar, int N>
bool fixman_supported(const Model<Scalar, N>& model, std::string* reason = nullptr);

/// Everything minverse_apply_fixman needs, sized once from the model (the only place that allocates).
template <class Scalar>
class FixmanWorkspace {
 public:
  using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using Index5 = Eigen::Array<int, 5, 1>;

  /// Builds the per-body constants (F1–F4); std::invalid_argument naming the body when the model is not
  /// a fixed-base serial chain of revolute / prismatic joints with invertible body inertias.
  template <int N>
  explicit FixmanWorkspace(const Model<Scalar, N>& model) {
    std::string reason;
    if (!fixman_supported(model, &reason)) throw std::invalid_argument("treedyn::FixmanWorkspace: " + reason);
    const int n = model.nbodies();
    nbodies_ = n;
    model_id = model.id();
    auto axis_in_parent = [&](int i) {  // joint i's axis in body (i−1) coordinates
      return Vector3<Scalar>(model.tree_transform(i).E.transpose() * model.joint(i).axis);
    };
    X_dh_base = detail::fixman_dh_frame<Scalar>(axis_in_parent(0), axis_in_parent(0));      // F1 (base)
    for (int k = 0; k < n; ++k) {
      const Vector3<Scalar>& a = model.joint(k).axis;
      const Vector3<Scalar> next = (k + 1 < n) ? axis_in_parent(k + 1) : a;
      X_dh.push_back(detail::fixman_dh_frame<Scalar>(a, next));                               // F1
      soft.push_back(model.joint(k).type == JointType::revolute ? detail::fixman_gamma        // F2
                                                                : detail::fixman_c);
      Index5 h;
      for (int j = 0; j < 5; ++j) h(j) = j < soft.back() ? j : j + 1;
      hard.push_back(h);
      const RigidInertia<Scalar> I = invertible_inertia(model, k);                            // F4
      const Matrix3<Scalar> R = X_dh.back().E.transpose();                                    // F3
      const Vector3<Scalar> c = I.h / I.m;
      const Matrix3<Scalar> Ic = I.I.matrix() + I.m * skew(c) * skew(c);  // Ī_C = Ī_O + m c×c×
      com.push_back(R.transpose() * c);
      Ic_inv.push_back((R.transpose() * Ic * R).inverse());
      m_inv.push_back(Scalar(1) / I.m);
    }
    T.assign(static_cast<std::size_t>(n), Transform<Scalar>::identity());
    D_plus.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    D_minus.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H_diag.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H_lower.assign(static_cast<std::size_t>(n), Matrix6<Scalar>::Zero());
    H22 = BlockTridiagonal<Scalar, 5>(std::vector<int>(static_cast<std::size_t>(n), 5));
    y = VectorX::Zero(6 * n);
    u = VectorX::Zero(6 * n);
    d = VectorX::Zero(5 * n);
    Minv_b = VectorX::Zero(n);
  }

  [[nodiscard]] int nbodies() const noexcept { return nbodies_; }

  // constants (setup)
  Transform<Scalar> X_dh_base;              ///< ^{F_{−1}}X_base
  std::vector<Transform<Scalar>> X_dh;      ///< ^{F_k}X_k = (R_kᵀ, 0)
  std::vector<int> soft;                    ///< index of the soft variable in (α, β, γ, a, b, c)
  std::vector<Index5> hard;                 ///< indices of the five hard variables
  std::vector<Vector3<Scalar>> com;         ///< c_k: centre of mass in F_k coordinates (Q_k = (1, c_k))
  std::vector<Matrix3<Scalar>> Ic_inv;      ///< Ī_C⁻¹ in F_k axes
  std::vector<Scalar> m_inv;                ///< 1 / m_k
  // per call
  std::vector<Transform<Scalar>> T;         ///< I: ^{F_k}X_{F_{k−1}}
  std::vector<Matrix6<Scalar>> D_plus;      ///< III: ∂q_k/∂ξ_k
  std::vector<Matrix6<Scalar>> D_minus;     ///< III: ∂q_k/∂ξ_{k−1} (zero for k = 0: the base is fixed)
  std::vector<Matrix6<Scalar>> H_diag;      ///< IV: H_kk (6×6, coordinate set k)
  std::vector<Matrix6<Scalar>> H_lower;     ///< IV: H_{k,k−1}
  BlockTridiagonal<Scalar, 5> H22{std::vector<int>{}};  ///< IV: hard×hard part, then its block LDLᵀ
  VectorX y, u, d;                          ///< V: 6n, 6n and 5n scratch
  VectorX Minv_b;                           ///< output M⁻¹ b
  FactorStatus status;                      ///< status of the last H22 factorization

  /// Model::id() of the model it was built for; the algorithms taking it check it (detail/check.hpp).
  std::uint64_t model_id = 0;

 private:
  /// F4: model.inertia(k), or for body 0 on a revolute joint with a singular 𝓘 the same inertia plus
  /// a point mass μ at the origin and a rod ν(1 − a aᵀ) about the axis (invisible to M).
  template <int N>
  static RigidInertia<Scalar> invertible_inertia(const Model<Scalar, N>& model, int k) {
    RigidInertia<Scalar> I = model.inertia(k);
    if (k != 0 || inertia_invertible(I)) return I;
    const Vector3<Scalar>& a = model.joint(0).axis;
    Scalar total = Scalar(0);
    for (int i = 0; i < model.nbodies(); ++i) total += model.inertia(i).m;
    const Scalar mu = total > Scalar(0) ? Scalar(total / Scalar(model.nbodies())) : Scalar(1);
    const Scalar nu = a.dot(I.I.matrix() * a);
    I.m += mu;
    const Matrix3<Scalar> rod = nu * (Matrix3<Scalar>::Identity() - a * a.transpose());
    I.I = I.I + Symmetric3<Scalar>::from_matrix(rod);
    return I;
  }

 public:
  /// m > 0 and Ī_C positive definite (relative to its largest eigenvalue).
  static bool inertia_invertible(const RigidInertia<Scalar>& I) {
    if (!(I.m > Scalar(0))) return false;
    const Vector3<Scalar> c = I.h / I.m;
    const Matrix3<Scalar> Ic = I.I.matrix() + I.m * skew(c) * skew(c);
    const Vector3<Scalar> ev = Eigen::SelfAdjointEigenSolver<Matrix3<Scalar>>(Ic, Eigen::EigenvaluesOnly).eigenvalues();
    return ev(0) > Scalar(64) * std::numeric_limits<Scalar>::epsilon() * ev(2);
  }

 private:
  int nbodies_ = 0;
};

template <class Scalar, int N>
bool fixman_supported(const Model<Scalar, N>& model, std::string* reason) {
  auto fail = [&](int i, const std::string& why) {
    if (reason) {
      *reason = "Fixman's method cannot handle this model: ";
      if (i >= 0) *reason += "body " + std::to_string(i) + " ('" + model.name(i) + "') ";
      *reason += why;
    }
    return false;
  };
  if (model.nbodies() == 0) return fail(-1, "it has no bodies");
  for (int i = 0; i < model.nbodies(); ++i) {
    const Joint<Scalar>& j = model.joint(i);
    if (i == 0 && j.type == JointType::free_flyer)
      return fail(i, "has a free_flyer joint: the method needs a fixed base (soft variables = joint coordinates)");
    if (model.parent(i) != i - 1)
      return fail(i, "has parent " + std::to_string(model.parent(i)) + ", not " + std::to_string(i - 1) +
                         ": the method needs a serial chain (λ(i) = i − 1)");
    if (j.type != JointType::revolute && j.type != JointType::prismatic)
      return fail(i, std::string("has a ") + j.type_name() +
                         " joint: only revolute and prismatic joints move exactly one screw coordinate");
    const bool augmentable = i == 0 && j.type == JointType::revolute &&
                             j.axis.dot(model.inertia(0).I.matrix() * j.axis) > Scalar(0);
    if (!augmentable && !FixmanWorkspace<Scalar>::inertia_invertible(model.inertia(i)))
      return fail(i, "has a singular spatial inertia about its centre of mass (mass or rotational inertia not "
                     "positive definite): H = G⁻¹ needs every free body's 𝓘 invertible");
  }
  return true;
}

}  // namespace treedyn
