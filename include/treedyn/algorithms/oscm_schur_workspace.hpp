// OscmSchurWorkspace: the setting and the constant tip operators of Fijany's Schur forms of Λ⁻¹ and Λ.
//
// Source: A. Fijany, ICRA 1994 (docs/references.md), §III.C–D and §IV.A, in the
// notation of docs/notation.md. Shared by oscm_schur.hpp (Λ⁻¹ = 𝒟 − ℰᵀ𝒜⁻¹ℰ) and
// osim_schur.hpp (Λ = 𝒮 + ℛᵀ𝒴⁻¹ℛ); the global operators K̃ and 𝒜 are those of schur_operators.hpp, held in
// the member `schur` (a SchurWorkspace).
// Setting (anything else is rejected at construction with std::invalid_argument naming the body or
// frame and the reason): a serial chain on a fixed base (λ(i) = i − 1), exactly one operational frame E,
// fixed on the last body N (the tip) with all 6 rows selected, and a tip with a non-singular spatial inertia
// (𝒟 = ^EX_N I_N⁻¹ (^EX_N)ᵀ needs I_N⁻¹); SchurWorkspace's own rejections apply too.
// Everything at the tip is constant in body coordinates, so it is formed once here (0-based tip t = N − 1,
// X_E = ^EX_N the frame's placement, W_N the tip's constraint basis of schur_operators.hpp):
//   T1  𝒟   = X_E I_N⁻¹ X_Eᵀ                      (6×6: the tip body's compliance seen at E)
//   T2  𝒮   = 𝒟⁻¹ = (^NX_E)ᵀ I_N ^NX_E           (6×6: the tip body's inertia at E)
//   T3  ℰ_N = W_Nᵀ I_N⁻¹ X_Eᵀ                     ((6 − n_N)×6: the only nonzero block of ℰ = 𝒲ᵀ𝒫𝓘⁻¹βᵀ)
//   T4  ℛ_N = ℰ_N 𝒟⁻¹ = W_Nᵀ ^NX_E                ((6 − n_N)×6: the only nonzero block of ℛ)
//   T5  ℰ_N 𝒟⁻¹ ℰ_Nᵀ = W_Nᵀ I_N⁻¹ W_N             (𝒜_NN − 𝒴_NN: the one block in which 𝒴 differs from 𝒜)
// detail::oscm_schur_factor forms 𝒜 at q (schur_operators), optionally turns it into 𝒴 (subtracting T5 from
// the tip block) and factors it by block LDLᵀ (block_tridiagonal_factor), base to tip.
// Contract: OscmSchurWorkspace<Scalar> ws(model, frames) allocates (once); the algorithms then never do.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>

#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/schur_operators.hpp"
#include "treedyn/detail/scalar.hpp"
#include "treedyn/kernels/block_tridiagonal.hpp"
#include "treedyn/status.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"

namespace treedyn {

template <class Scalar>
class OscmSchurWorkspace {
 public:
  /// A tip-sized block: (6 − n_N) rows, at most 6×6, stored inline.
  using Block = typename BlockTridiagonal<Scalar, 6>::Block;

  OscmSchurWorkspace() = default;

  template <int N>
  OscmSchurWorkspace(const Model<Scalar, N>& model, const OperationalFrames<Scalar>& frames)
      : schur(validated(model, frames)) {
    tip_ = model.nbodies() - 1;
    const Matrix6<Scalar> X_E = frames.placement(0).motion_matrix();
    const Matrix6<Scalar> X_NE = frames.placement(0).inverse().motion_matrix();
    const Matrix6<Scalar>& Iinv = schur.inertia_inverse(tip_);
    D = X_E * Iinv * X_E.transpose();                                             // T1
    D = (D + D.transpose()).eval() / Scalar(2);
    S = X_NE.transpose() * model.inertia(tip_).matrix() * X_NE;                   // T2
    S = (S + S.transpose()).eval() / Scalar(2);
    E_N = schur.W(tip_).transpose() * Iinv * X_E.transpose();                     // T3
    R_N = schur.W(tip_).transpose() * X_NE;                                       // T4
    Y_shift = schur.W(tip_).transpose() * Iinv * schur.W(tip_);                   // T5
    V = E_N;
    tip_scale = Y_shift.diagonal();
    compliance.setZero();
    inertia.setZero();
  }

  /// The tip body t = N − 1 (0-based), the frame's body.
  [[nodiscard]] int tip() const noexcept { return tip_; }

  SchurWorkspace<Scalar> schur;      ///< Fijany's operators (K̃, 𝒜 = schur.A_chain, factored in place)
  Matrix6<Scalar> compliance;        ///< oscm_schur output: Fijany's Λ⁻¹ = J M⁻¹ Jᵀ at E (local frame coordinates)
  Matrix6<Scalar> inertia;           ///< osim_schur output: the operational-space inertia (J M⁻¹ Jᵀ)⁻¹ at E
  FactorStatus status;               ///< of the last call: 𝒜 (oscm_schur) or 𝒴 (osim_schur) not positive definite

  // Constant tip operators (T1–T5 above) and scratch.
  Matrix6<Scalar> D, S;              ///< 𝒟, 𝒮 = 𝒟⁻¹
  Block E_N, R_N, Y_shift;           ///< ℰ_N, ℛ_N, W_Nᵀ I_N⁻¹ W_N
  Block V;                           ///< scratch: C⁻¹ℰ_N or C⁻¹ℛ_N (C the tip pivot's Cholesky factor)
  typename BlockTridiagonal<Scalar, 6>::BlockVector tip_scale;  ///< scratch: diagonal of 𝒜_NN before factoring

 private:
  template <int N>
  static const Model<Scalar, N>& validated(const Model<Scalar, N>& model, const OperationalFrames<Scalar>& frames) {
    const std::string who = "treedyn::OscmSchurWorkspace: ";
    if (frames.size() != 1)
      throw std::invalid_argument(who + "Fijany's Schur forms take exactly one operational frame, got " +
                                  std::to_string(frames.size()));
    const std::string frame = "frame 0 ('" + frames.name(0) + "')";
    if (frames.nbodies() != model.nbodies())
      throw std::invalid_argument(who + frame + " was chosen on a model with " + std::to_string(frames.nbodies()) +
                                  " bodies, this one has " + std::to_string(model.nbodies()));
    for (int i = 0; i < model.nbodies(); ++i)
      if (model.parent(i) != i - 1)
        throw std::invalid_argument(who + "body " + std::to_string(i) + " ('" + model.name(i) + "') has parent " +
                                    std::to_string(model.parent(i)) + ", not " + std::to_string(i - 1) +
                                    ": the Schur forms need a serial chain on a fixed base");
    const int tip = model.nbodies() - 1;
    if (frames.body(0) != tip)
      throw std::invalid_argument(who + frame + " is on body " + std::to_string(frames.body(0)) + " ('" +
                                  model.name(frames.body(0)) + "'), not on the tip body " + std::to_string(tip) +
                                  " ('" + model.name(tip) + "')");
    if (frames.row_count(0) != 6)
      throw std::invalid_argument(who + frame + " selects " + std::to_string(frames.row_count(0)) +
                                  " rows: the Schur forms need all 6 rows of the frame");
    Eigen::LLT<Matrix6<Scalar>> llt(model.inertia(tip).matrix());
    if (!(model.inertia(tip).m > Scalar(0)) || llt.info() != Eigen::Success)
      throw std::invalid_argument(who + "the tip body " + std::to_string(tip) + " ('" + model.name(tip) +
                                  "') has a singular spatial inertia: 𝒟 = ^EX_N I_N⁻¹ (^EX_N)ᵀ needs I_N⁻¹");
    return model;
  }

  int tip_ = 0;
};

namespace detail {

/// Forms 𝒜 at q (schur_operators) — or 𝒴 if `tip_shift` (𝒴_NN = 𝒜_NN − W_Nᵀ I_N⁻¹ W_N, T5) — and factors it
/// by block LDLᵀ in ws.schur.A_chain; the tip pivot comes last, so its Cholesky factor C_N (A_chain.diag(tip))
/// is all that ℰᵀ𝒜⁻¹ℰ or ℛᵀ𝒴⁻¹ℛ need. With `tip_shift`, a tip pivot entry not above
/// c·N·ε·(𝒜_NN)_kk is cancellation noise of an exactly singular 𝒴 (J without full row rank) and is reported
/// like a non-positive one. Sets ws.status (and ws.schur.status); false on failure. noexcept; no allocation.
template <class Scalar, int N, class Dq>
bool oscm_schur_factor(const Model<Scalar, N>& model, Data<Scalar, N>& data, OscmSchurWorkspace<Scalar>& ws,
                       const Eigen::MatrixBase<Dq>& q, bool tip_shift) noexcept {
  using std::sqrt;
  if (!schur_operators(model, data, ws.schur, q)) {
    ws.schur.status = ws.status = data.config_status;
    return false;
  }
  auto& A = ws.schur.A_chain;
  const int t = ws.tip();
  if (tip_shift) {
    ws.tip_scale = A.diag(t).diagonal();
    A.diag(t) -= ws.Y_shift;
  }
  ws.status = block_tridiagonal_factor(A);
  if (ws.status.ok() && tip_shift) {
    const Scalar tol = Scalar(64) * Scalar(model.nbodies()) * std::numeric_limits<Scalar>::epsilon();
    for (int k = 0; k < A.size(t); ++k)
      if (!(A.diag(t)(k, k) > sqrt(tol * ws.tip_scale(k)))) {
        ws.status = FactorStatus::non_positive_pivot(A.offset(t) + k, "osim_schur");
        break;
      }
  }
  ws.schur.status = ws.status;
  return ws.status.ok();
}

/// The tip step shared by oscm_schur (C3–C4) and osim_schur (Y4–Y5), after oscm_schur_factor: V = C_N⁻¹ X_N,
/// C_N the tip pivot's Cholesky factor (ws.schur.A_chain.diag(tip)), then out = base − VᵀV when `subtract`,
/// else base + VᵀV; out is NaN when the factorization failed (`factored` false). Returns out. noexcept; no
/// allocation.
template <class Scalar>
const Matrix6<Scalar>& oscm_schur_tip_form(OscmSchurWorkspace<Scalar>& ws, bool factored,
                                           const typename OscmSchurWorkspace<Scalar>::Block& X_N,
                                           const Matrix6<Scalar>& base, bool subtract, Matrix6<Scalar>& out) noexcept {
  if (!factored) {
    out.setConstant(nan<Scalar>());
    return out;
  }
  ws.V = X_N;
  ws.schur.A_chain.diag(ws.tip()).template triangularView<Eigen::Lower>().solveInPlace(ws.V);
  out = base;
  if (subtract)
    out.noalias() -= ws.V.transpose() * ws.V;
  else
    out.noalias() += ws.V.transpose() * ws.V;
  return out;
}

}  // namespace detail
}  // namespace treedyn
