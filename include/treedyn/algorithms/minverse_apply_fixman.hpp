// minverse_apply_fixman: M⁻¹b in O(n) for a serial chain by Fixman's soft/hard variables on (SE(3))ⁿ.
//
// Citation: K. Lee, Y. Wang, G. S. Chirikjian, "O(n) mass matrix inversion for serial manipulators and
// polypeptide chains using Lie derivatives", Robotica 2007 (docs/references.md):
// §2.2 steps I–V and eq. 7 (M⁻¹b = H11 b − H12 H22⁻¹ H21 b), §3.5 eq. 16 (the Lie derivative
// ∂f/∂ξ^i = d/dε f(T·(1 + εẼ_i)) at ε = 0), §3.6 eq. 20 (H = 𝒥⊕⁻¹ 𝓘⁻¹ 𝒥⊕⁻ᵀ), §4 eq. 21 (T_k^{k−1} =
// Q_{k−1}(T_{k−1}^c)⁻¹T_k^c Q_k⁻¹), eq. 22 (its Lie derivatives), eq. 26 (the "C" screw convention) and
// eq. 28 (the coordinate-extraction formulas); our notation: docs/notation.md.
//
// Contract
//   Model   a serial chain on a fixed base (λ(i) = i − 1, body 0 on the base) of revolute and prismatic
//           joints, every body with mass > 0 and a positive-definite rotational inertia about its centre
//           of mass (body 0 on a revolute joint excepted, see "Setup" F4). Anything else is rejected when
//           FixmanWorkspace is built: std::invalid_argument naming the body and the reason
//           (fixman_supported(model) asks the same question without throwing).
//   In      q (nq = n), b (n).  Out: ws.Minv_b = M(q)⁻¹ b (returned by reference), ws.status;
//           data.Xup holds the joint transforms ^iX_λ(i) of q.
//   Status  a block pivot of H22 that is not positive definite stops the factorization: ws.status
//           names the first scalar row of the failed 5×5 block of H22 (5·body), and ws.Minv_b is set to zero (no NaN).
//           A NaN or an infinity in q or b: ws.status = non_finite_input naming it, ws.Minv_b NaN.
//   Aliasing b may not alias ws.Minv_b. Cost O(n): per body one 6×6 Jacobian pair by forward-mode
//           autodiff, a few 6×6 products, one 5×5 block LDLᵀ step. noexcept; never allocates (the
//           workspace, built once, holds every buffer; the dual numbers have a fixed-size derivative).
// Indexing: paper body k = 1..n ↔ code body k−1; the paper's frame 0 (the base) ↔ code "body −1".
//
// Mapping our model onto the paper's coordinates (derivation; the paper's §4.1, eq. 26)
//   Our body i is placed by ^iX_{i−1} = XJ(q_i) X_T(i). For each body pick a body-fixed "D–H" frame F_i
//   with origin at body i's origin and axes R_i (columns in body-i coordinates) such that
//     z_i = a_i (the joint axis; constant in body-i coordinates, S_i = [a_i; 0] or [0; a_i]),
//     x_i ⟂ z_i and x_i ⟂ z_{i+1} (the next joint's axis seen from body i: E_T(i+1)ᵀ a_{i+1}).
//   For the fixed base choose F_{−1} with z along joint 0's axis E_T(0)ᵀa_0 (base coordinates), any x ⟂ z.
//   Then, with P_i = (R_i, 0) the pose of F_i in body i, the pose of F_i in F_{i−1} is
//     revolute:  P_{i−1}⁻¹ X_T-pose · R(a_i, q) · P_i = C_i · screw(e3, 0, q)   since R(a,q)R_i = R_i Rz(q),
//     prismatic: P_{i−1}⁻¹ X_T-pose · (1, q a_i) · P_i = C_i · screw(e3, q, 0)   since q a_i = R_i (q e3),
//   with C_i constant. Writing C_i = screw(e1,b,β)·screw(e2,a,α)·screw(e3,c0,γ0) (eq. 26), the joint
//   moves exactly one coordinate: γ = γ0 + q (revolute) or c = c0 + q (prismatic) — the soft variable,
//   with ∂s/∂q = 1 — and leaves (α, β, a, b, c | γ) constant: the five hard variables. Because the z axis
//   of F_i seen from F_{i−1} is (sin α, −sin β cos α, cos β cos α) and x_{i−1} ⟂ z_i by construction,
//   α ≡ 0: the chart (det 𝒥 = cos²α, the paper's §4.1) is non-singular at every configuration.
//   CoM frames (the paper's Fig. 1): T_k^c = T_k Q_k with Q_k = (1, c_k), c_k the centre of mass in F_k
//   coordinates (axes of F_k), so 𝓘_k = diag(Ī_C, m 1) in those axes, 𝓘_k⁻¹ = diag(Ī_C⁻¹, m⁻¹ 1).
//   A twist ξ_k = (ω; v) (angular first, our order and the paper's Ẽ_1..6) is a right perturbation
//   T_k^c ← T_k^c exp(εẼ) of the CoM frame, so ½ ξᵀ𝓘ξ is body k's kinetic energy and G = 𝒥ᵀ𝓘𝒥 with
//   G11 = M, the JSIM in our q (the paper's §2.2).
//
// Pseudo-code (labels repeated on the code lines that implement them)
//   Setup (FixmanWorkspace, once per model):
//   F1  per body k: F_k axes R_k: z = a_k, x ⟂ z_k, z_{k+1}; base frame F_{−1}: z = E_T(0)ᵀa_0
//   F2  soft index: γ (revolute) or c (prismatic); hard = the other five of (α, β, γ, a, b, c)
//   F3  CoM frame: c_k = R_kᵀ h/m; 𝓘_k⁻¹ = diag((R_kᵀ Ī_C R_k)⁻¹, m⁻¹ 1)
//   F4  body 0 on a revolute joint with a singular 𝓘 (e.g. a massless first link): add a point mass on
//       its axis at its origin and a rod inertia ν(1 − a aᵀ) about it — they never move, so M is unchanged
//       (ΔI S_0 = 0) while 𝓘_0 becomes invertible.
//   Apply:
//   I   T_k = ^{F_k}X_{F_{k−1}} = ^{F_k}X_k · ^kX_{k−1}(q_k) · ^{k−1}X_{F_{k−1}}        (eq. 21)
//   II  q_k = extract(T_k) = (α, β, γ, a, b, c)                                       (eq. 28)
//   III D_k⁺ = ∂q_k/∂ξ_k   = d/dε extract(T_k Q_k (1 + εẼ) Q_k⁻¹)                       (eq. 22, j = k)
//       D_k⁻ = ∂q_k/∂ξ_{k−1} = d/dε extract(Q_{k−1}(1 − εẼ)Q_{k−1}⁻¹ T_k)    (k > 1)    (eq. 22, j = k − 1)
//       — forward-mode autodiff (dual ε, 6 directions at once) through extract()
//   IV  H_kk = D_k⁺𝓘_k⁻¹D_k⁺ᵀ + D_k⁻𝓘_{k−1}⁻¹D_k⁻ᵀ;  H_{k,k−1} = D_k⁻𝓘_{k−1}⁻¹D_{k−1}⁺ᵀ       (eq. 20)
//       H22 ← the hard×hard parts (5×5 blocks, block tridiagonal); factor by block LDLᵀ
//   V   y_k = (b_k on the soft row, 0 on the hard rows);  u = H y;  c = u_hard = H21 b     (step V)
//       d = H22⁻¹ c
//       y_hard = −d;  u = H y;  x = u_soft = H11 b − H12 d                               (eq. 7)
// Parts: fixman_coordinates.hpp (eq. 28 and its Lie derivatives: F1, II, III), fixman_workspace.hpp
// (FixmanWorkspace, fixman_supported: F1–F4), both included here.
#pragma once

#include <cstddef>

#include <Eigen/Core>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/algorithms/fixman_coordinates.hpp"
#include "treedyn/algorithms/fixman_workspace.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/transform.hpp"
#include "treedyn/status.hpp"

namespace treedyn {

namespace detail {

/// A 𝓘_k⁻¹ Bᵀ with 𝓘_k⁻¹ = diag(Ī_C⁻¹, m⁻¹ 1) (IV).
template <class Scalar>
Matrix6<Scalar> fixman_weighted(const FixmanWorkspace<Scalar>& ws, const Matrix6<Scalar>& A, int k,
                                const Matrix6<Scalar>& B) noexcept {
  const std::size_t kk = static_cast<std::size_t>(k);
  Matrix6<Scalar> AW;
  AW.template leftCols<3>().noalias() = A.template leftCols<3>() * ws.Ic_inv[kk];
  AW.template rightCols<3>() = ws.m_inv[kk] * A.template rightCols<3>();
  Matrix6<Scalar> out;
  out.noalias() = AW * B.transpose();
  return out;
}

/// u = H y for the block-tridiagonal H of IV (6×6 blocks).
template <class Scalar>
void fixman_apply_h(FixmanWorkspace<Scalar>& ws) noexcept {
  const int n = ws.nbodies();
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    auto out = ws.u.template segment<6>(6 * k);
    out.noalias() = ws.H_diag[kk] * ws.y.template segment<6>(6 * k);
    if (k > 0) out.noalias() += ws.H_lower[kk] * ws.y.template segment<6>(6 * k - 6);
    if (k + 1 < n) out.noalias() += ws.H_lower[kk + 1].transpose() * ws.y.template segment<6>(6 * k + 6);
  }
}

}  // namespace detail

/// x = M(q)⁻¹ b by Fixman's method (see the header comment). Returns ws.Minv_b; ws.status
/// reports a failed H22 pivot (x is then zero). noexcept; never allocates.
template <class Scalar, int N, class Dq, class Db>
const Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& minverse_apply_fixman(const Model<Scalar, N>& model,
                                                                      Data<Scalar, N>& data,
                                                                      FixmanWorkspace<Scalar>& ws,
                                                                      const Eigen::MatrixBase<Dq>& q,
                                                                      const Eigen::MatrixBase<Db>& b) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  TREEDYN_SAME_SCALAR(Scalar, Db, "b");
  const int n = model.nbodies();
  constexpr const char* fn = "minverse_apply_fixman";
  if (!(detail::model_data_q_ok(fn, model, data, q) && detail::same_model(fn, "ws", ws.model_id, model.id()) &&
        detail::dof_vector_ok(fn, "b", model, b)))
    return ws.Minv_b;
  if (!detail::finite_ok(fn, "q", q, ws.status) || !detail::finite_ok(fn, "b", b, ws.status)) {
    ws.Minv_b.setConstant(detail::nan<Scalar>());  // a non-finite input: NaN, as every route (docs/errors.md)
    return ws.Minv_b;
  }
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    data.Xup[k] = model.joint_placement(k).transform(Scalar(q(model.q_offset(k))));             // ^kX_λ(k)
    const Transform<Scalar> X_prev_dh = (k == 0) ? ws.X_dh_base : ws.X_dh[kk - 1];
    ws.T[kk] = ws.X_dh[kk] * data.Xup[k] * X_prev_dh.inverse();                                         // I
    const Transform<Scalar> to_com{Matrix3<Scalar>::Identity(), ws.com[kk]};                     // ^{c}X_F
    const Transform<Scalar> from_com{Matrix3<Scalar>::Identity(), -ws.com[kk]};                  // ^{F}X_c
    ws.D_plus[kk] = detail::fixman_lie_derivative(from_com, Scalar(1), to_com * ws.T[kk]);       // II, III
    if (k > 0) {
      const Transform<Scalar> to_prev_com{Matrix3<Scalar>::Identity(), ws.com[kk - 1]};
      const Transform<Scalar> from_prev_com{Matrix3<Scalar>::Identity(), -ws.com[kk - 1]};
      ws.D_minus[kk] = detail::fixman_lie_derivative(ws.T[kk] * from_prev_com, Scalar(-1), to_prev_com);  // III
    }
  }
  for (int k = 0; k < n; ++k) {                                                                  // IV
    const std::size_t kk = static_cast<std::size_t>(k);
    ws.H_diag[kk] = detail::fixman_weighted(ws, ws.D_plus[kk], k, ws.D_plus[kk]);
    if (k > 0) {
      ws.H_diag[kk] += detail::fixman_weighted(ws, ws.D_minus[kk], k - 1, ws.D_minus[kk]);
      ws.H_lower[kk] = detail::fixman_weighted(ws, ws.D_minus[kk], k - 1, ws.D_plus[kk - 1]);
      ws.H22.lower(k) = ws.H_lower[kk](ws.hard[kk], ws.hard[kk - 1]);
    }
    ws.H22.diag(k) = ws.H_diag[kk](ws.hard[kk], ws.hard[kk]);
  }
  ws.status = block_tridiagonal_factor(ws.H22);                                                  // IV
  if (!ws.status.ok()) {
    ws.Minv_b.setZero();
    return ws.Minv_b;
  }
  ws.y.setZero();                                                                                // V
  for (int k = 0; k < n; ++k) ws.y(6 * k + ws.soft[static_cast<std::size_t>(k)]) = b(k);
  detail::fixman_apply_h(ws);                                                                    // V: u = H y
  for (int k = 0; k < n; ++k)
    ws.d.template segment<5>(5 * k) = ws.u.template segment<6>(6 * k)(ws.hard[static_cast<std::size_t>(k)]);
  block_tridiagonal_solve(ws.H22, ws.d);                                                         // V: d = H22⁻¹ c
  for (int k = 0; k < n; ++k)
    ws.y.template segment<6>(6 * k)(ws.hard[static_cast<std::size_t>(k)]) = -ws.d.template segment<5>(5 * k);
  detail::fixman_apply_h(ws);                                                                    // V: u = H y
  for (int k = 0; k < n; ++k) ws.Minv_b(k) = ws.u(6 * k + ws.soft[static_cast<std::size_t>(k)]);     // eq. 7
  return ws.Minv_b;
}

}  // namespace treedyn
