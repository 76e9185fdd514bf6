// oscm: the operational-space compliance matrix Λ⁻¹ = J M⁻¹ Jᵀ of n_c frames by the Υ / EFPA recursion, O(N + n_c·d + n_c²).
//
// Reference: A. Jain, "Minimal Coordinates Formulation of Contact Dynamics" (Jain (n.d.), docs/references.md),
// Appendix, eqs. 60–69 (Jain's articulated-body quantities with q̇ = 0: ψ(℘(k),k) = ^{λ(k)}X*_k P_k,
// H*D⁻¹H = Ω^J, the base-to-tips Υ recursion eqs. 67–68, the Ω(i,j) = Ω(i,k) ψ(k,j) products of eq. 69);
// the same recursion as Wensing, Featherstone & Orin's EFPA (ICRA 2012); the ABA's pass 2 without bias
// (O1–O3) is detail/articulated_body.hpp's aba_inertia_outward_pass and aba_inertia_step.
// Jain ("S1" in the pseudo-code) names J M⁻¹ Jᵀ the OSCM and writes it Λ; here Λ is Khatib's operational-space
// inertia (osim.hpp) and the compliance is Λ⁻¹ (docs/notation.md#operational-space-λ-is-the-inertia).
//
// Definitions (code 0-based: paper body k ↔ code k−1; "λ(i) ≠ 0" ↔ "parent != no_parent"):
//   P_i = 1 − U_i D_i⁻¹ S_iᵀ  (articulated force propagator),   Ω^J_i = S_i D_i⁻¹ S_iᵀ,
//   G_i = ^{λ(i)}X*_i P_i = X_iᵀ P_i (X_i = ^iX_λ(i): a force in i coordinates carried to λ(i)),
//   K_{k←j} = G_{c_1} ⋯ G_j (path j → … → c_1 → k),  K_{j←j} = 1.
// Pseudo-code:
//   O1  X_i = XJ(q_i) X_T(i);  IA_i = I_i                         (ABA pass 1 with q̇ = 0: no velocity terms)
//   O2  for i = N..1:  U_i = IA_i S_i;  D_i = S_iᵀ U_i;  D_i⁻¹ (Cholesky; D_i not ≻ 0 → status, Λ⁻¹ = NaN);
//                      Û_i = U_i D_i⁻¹                                                      (ABA pass 2)
//   O3     if λ(i) ≠ 0:  IA_λ(i) += X_iᵀ (IA_i − U_i Û_iᵀ) X_i
//   O4  for i = 1..N on a path from a frame's body to the root (EFPA: the other bodies are never needed):
//         Ω_i = Ω^J_i + G_iᵀ Ω_λ(i) G_i   (Ω_λ(i) = 0 at a root)              (S1 eqs. 67–68: Υ(k))
//   O5  for each frame a on body b = b(a):  K_{b,a} = (^aX_b)ᵀ;  for k = b, λ(b), …, the root:
//         r_{k,a} = S_kᵀ K_{k,a};  K_{λ(k),a} = G_k K_{k,a} = X_kᵀ (K_{k,a} − Û_k r_{k,a})   (S1 eq. 69)
//   O6  for each pair a ≤ a':  c = cca(b(a), b(a'))  (while x ≠ y: if x > y then x = λ(x) else y = λ(y));
//         (Λ⁻¹)_aa' = K_{c,a}ᵀ Ω_c K_{c,a'} on the selected rows and columns (0 if there is no common
//         ancestor: two subtrees of a fixed base);  (Λ⁻¹)_a'a = (Λ⁻¹)_aa'ᵀ;  diagonal blocks symmetrized.
// oscm_faithful runs O4 on every path body. oscm (the optimised variant, tested against it) forms Ω only
// at the closest common ancestors of pairs of distinct frames and above (frames.omega_node; for the
// humanoid's feet and hands: the torso alone), so every off-diagonal pair reads Ω_c directly, and a
// frame's diagonal block completes Ω_c = Σ_{k ∈ anc(c)} K_{k←c}ᵀ Ω^J_k K_{k←c} below the nearest such
// anchor w term by term (O(d) per frame, so the bound O(N + n_c·d + n_c²) holds):
//   O6' (Λ⁻¹)_aa' = K_{w,a}ᵀ Ω_w K_{w,a'} + Σ_{k = c, λ(c), … below w} r_{k,a}ᵀ D_k⁻¹ r_{k,a'}
// (a rank-1 term per 1-DoF joint, 36 multiplications, against ~350 for one step of O4).
// How O4 is evaluated (the EFPA observation, exact algebra, no 6×6×6 products): with T = X_i Ω_λ X_iᵀ,
//   G_iᵀ Ω_λ G_i + Ω^J_i = Pᵀ T P + S D⁻¹ Sᵀ = T − (S Wᵀ + W Sᵀ),   W = T Û − ½ S (Ûᵀ T Û + D⁻¹)
// (a rank-2 correction for a 1-DoF joint, W one 6-vector). T is a motion-side congruence; it is the
// force-side one of articulated_inertia.hpp with the 3×3 blocks swapped (Π X* Π = X, Π = [0 1; 1 0]),
// so it reuses those block formulas (about 220 multiplications, exactly symmetric).
// Contract: frames built on this model (OperationalFrames(model), then add()). q has model.nq() entries.
// Writes data.Xup, data.IA, data.D, data.U, data.U_Dinv, frames.Dinv, frames.Omega, frames.K and frames.SK
// (where O6 reads them: oscm, K at the Ω nodes and SK below them; oscm_faithful, K on every path body),
// frames.status and frames.compliance (returned): rows() × rows(), both triangles, symmetric. Λ⁻¹'s row
// offset(a) + k is frame a's spatial row row_index(a, k) of its LOCAL frame ([ω; v] in frame a
// coordinates, as frame_jacobian(…, ReferenceFrame::local)). A joint pivot D_i that is not positive
// definite stops the kernel: frames.status names that BODY and Λ⁻¹ is NaN. Cost O(N + n_c·d + n_c²)
// (d = depth of the deepest frame body). noexcept; never allocates.
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include <array>

#include "treedyn/algorithms/detail/articulated_body.hpp"
#include "treedyn/algorithms/detail/joint_block.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/detail/joint_pivot.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/articulated_inertia.hpp"

namespace treedyn {
namespace detail {

/// X Ω Xᵀ for a symmetric motion-side matrix Ω (a compliance: force → acceleration), X = ^B X_A = (E, r):
/// Π (X* (Π Ω Π) X*ᵀ) Π with the 3×3 block formulas of articulated_inertia.hpp.
template <class Scalar>
Matrix6<Scalar> transport_compliance(const Transform<Scalar>& X, const Matrix6<Scalar>& Omega) noexcept {
  const SymmetricBlocks<Scalar> in = symmetric_blocks(Omega);
  const SymmetricBlocks<Scalar> swapped{in.C, in.B.transpose(), in.A};
  const SymmetricBlocks<Scalar> out = rotate_blocks<false>(shift_blocks(swapped, X.r), X.E);
  return assemble(SymmetricBlocks<Scalar>{out.C, out.B.transpose(), out.A}).M;
}

// The steps O4–O6 below are written on coefficients (loops over the joint's n_i ≤ 6 columns, fixed 6×6
// storage): one small function per scalar and joint width, where composed Eigen expressions would
// instantiate a family of expression types at every call (compile time;
// docs/design-notes.md#kernels-written-once-per-scalar-compile-time). NI = 1 lets the
// compiler unroll a 1-DoF joint's loops; NI = Dynamic reads n_i at run time.

/// O4 for body i: Ω_i = T − (S Wᵀ + W Sᵀ), W = T Û − ½ S (Ûᵀ T Û + D⁻¹), T = X_i Ω_λ(i) X_iᵀ (0 at a root).
template <int NI, class Scalar, int N>
void oscm_omega(const Model<Scalar, N>& model, const Data<Scalar, N>& data, OperationalFrames<Scalar>& frames,
                int i) noexcept {
  const int p = model.parent(i), vi = model.v_offset(i), ni = joint_width<NI>(model, i);
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[i];
  const Matrix6<Scalar> T = (p == no_parent) ? Matrix6<Scalar>::Zero().eval()
                                             : transport_compliance(data.Xup[i], frames.Omega[static_cast<std::size_t>(p)]);
  Scalar W[6][6], A[6][6];  // W (6×n_i, by column), A = Ûᵀ T Û + D⁻¹ (n_i×n_i)
  for (int c = 0; c < ni; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int l = 0; l < 6; ++l) t += T(r, l) * data.U_Dinv(l, vi + c);
      W[c][r] = t;
    }
  const PivotMatrix<Scalar>& Dinv = frames.Dinv[static_cast<std::size_t>(i)];
  for (int b = 0; b < ni; ++b)
    for (int a = 0; a < ni; ++a) {
      Scalar t(0);
      for (int l = 0; l < 6; ++l) t += data.U_Dinv(l, vi + a) * W[b][l];
      A[b][a] = Dinv(a, b) + t;
    }
  for (int c = 0; c < ni; ++c)  // W −= S (½ A)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int a = 0; a < ni; ++a) t += S(r, a) * (Scalar(0.5) * A[c][a]);
      W[c][r] -= t;
    }
  Scalar R[6][6];  // R = S Wᵀ
  for (int col = 0; col < 6; ++col)
    for (int row = 0; row < 6; ++row) {
      Scalar t(0);
      for (int c = 0; c < ni; ++c) t += S(row, c) * W[c][col];
      R[row][col] = t;
    }
  Matrix6<Scalar>& Omega = frames.Omega[static_cast<std::size_t>(i)];
  for (int col = 0; col < 6; ++col)  // Ω = T − (R + Rᵀ): exactly symmetric
    for (int row = 0; row < 6; ++row) Omega(row, col) = T(row, col) - (R[row][col] + R[col][row]);
}

/// K_{k,a} by rows (moment rows 0–2, force rows 3–5), each padded to 8 columns (the last two stay 0). O5
/// carries it up a path in this form: every step is a sum of scaled rows, and a whole row is one or two
/// SIMD registers (8 floats or doubles with AVX / AVX-512, 2–4 packets without), so each step is about 40
/// vector operations where scalar code over the 6×6 entries takes 216 multiplications; each row is read
/// back in the shape it was written (no load spans two narrower stores).
template <class Scalar>
struct ForceRows {
  using Row = Eigen::Matrix<Scalar, 1, 8>;
  Row row[6];

  /// The rows of a 6×6 K (the padding 0).
  void load(const Matrix6<Scalar>& K) noexcept {
    for (int l = 0; l < 6; ++l) {
      row[l].setZero();
      for (int c = 0; c < 6; ++c) row[l](c) = K(l, c);
    }
  }
  /// Writes the 6×6 K.
  void store(Matrix6<Scalar>& K) const noexcept {
    for (int c = 0; c < 6; ++c)
      for (int l = 0; l < 6; ++l) K(l, c) = row[l](c);
  }
};

/// O5 at body k: SK = S_kᵀ K (first n_k rows), and, below a parent, K ← G_k K = X_kᵀ (K − Û_k SK).
template <int NI, class Scalar, int N>
void oscm_propagate(const Model<Scalar, N>& model, const Data<Scalar, N>& data, int k, ForceRows<Scalar>& K,
                    Matrix6<Scalar>& SK, bool to_parent) noexcept {
  using Row = typename ForceRows<Scalar>::Row;
  const int vk = model.v_offset(k), nk = joint_width<NI>(model, k);
  const MotionSubspace<Scalar>& S = model.motion_subspaces()[k];
  const Row* const Kr = K.row;
  Row SKr[6];
  for (int r = 0; r < nk; ++r) {
    SKr[r] = (S(0, r) * Kr[0] + S(1, r) * Kr[1] + S(2, r) * Kr[2]) + (S(3, r) * Kr[3] + S(4, r) * Kr[4] + S(5, r) * Kr[5]);
    for (int c = 0; c < 6; ++c) SK(r, c) = SKr[r](c);
  }
  if (!to_parent) return;
  for (int l = 0; l < 6; ++l) {  // K −= Û_k SK
    Row u = data.U_Dinv(l, vk) * SKr[0];
    for (int r = 1; r < nk; ++r) u += data.U_Dinv(l, vk + r) * SKr[r];
    K.row[l] -= u;
  }
  // X_kᵀ [n; f] = [Eᵀn + r × Eᵀf; Eᵀf] on all six columns at once
  const Transform<Scalar>& X = data.Xup[k];
  const Matrix3<Scalar>& E = X.E;
  const Vector3<Scalar>& r = X.r;
  Row Etn[3], Etf[3];
  for (int l = 0; l < 3; ++l) {
    Etn[l] = E(0, l) * Kr[0] + E(1, l) * Kr[1] + E(2, l) * Kr[2];
    Etf[l] = E(0, l) * Kr[3] + E(1, l) * Kr[4] + E(2, l) * Kr[5];
  }
  K.row[0] = Etn[0] + (r(1) * Etf[2] - r(2) * Etf[1]);
  K.row[1] = Etn[1] + (r(2) * Etf[0] - r(0) * Etf[2]);
  K.row[2] = Etn[2] + (r(0) * Etf[1] - r(1) * Etf[0]);
  for (int l = 0; l < 3; ++l) K.row[3 + l] = Etf[l];
}

/// Out = Aᵀ In on rows padded to 8 (ForceRows): row r of Out = Σ_l A(l, r) · row l of In, each A(l, r)
/// read from column r of A (contiguous) and broadcast. O6 forms its two 6×6×6 products this way: Ω_w K with
/// A = Ω_w (exactly symmetric: O4 forms T − (R + Rᵀ), the free joint ½(D⁻¹ + D⁻ᵀ)) and K_aᵀ (Ω_w K) with
/// A = K_a. Eigen's own 6×6 product runs in 2-lane packets for double and entirely scalar for float (six
/// rows are no multiple of a 4-float packet).
template <class Scalar>
void oscm_transpose_times_rows(const Matrix6<Scalar>& A, const ForceRows<Scalar>& In, ForceRows<Scalar>& Out) noexcept {
  for (int r = 0; r < 6; ++r) {
    const Scalar* const a = A.col(r).data();
    Out.row[r] = a[0] * In.row[0] + a[1] * In.row[1] + a[2] * In.row[2] + a[3] * In.row[3] + a[4] * In.row[4] +
                 a[5] * In.row[5];
  }
}

/// O6's sum term r_aᵀ D_k⁻¹ r_b (r = S_kᵀ K, the stored SK rows) added to B.
template <int NI, class Scalar, int N>
void oscm_add_joint_term(const Model<Scalar, N>& model, const OperationalFrames<Scalar>& frames, int k,
                         const Matrix6<Scalar>& SKa, const Matrix6<Scalar>& SKb, Matrix6<Scalar>& B) noexcept {
  const PivotMatrix<Scalar>& Dinv = frames.Dinv[static_cast<std::size_t>(k)];
  const int nk = joint_width<NI>(model, k);
  Scalar Dinv_rb[6][6];  // D_k⁻¹ r_b (n_k×6, by row)
  for (int a = 0; a < nk; ++a)
    for (int c = 0; c < 6; ++c) {
      Scalar t(0);
      for (int b = 0; b < nk; ++b) t += Dinv(a, b) * SKb(b, c);
      Dinv_rb[a][c] = t;
    }
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r) {
      Scalar t(0);
      for (int a = 0; a < nk; ++a) t += SKa(a, r) * Dinv_rb[a][c];
      B(r, c) += t;
    }
}

/// Index of frame a's path entry (K, SK) at its ancestor c.
template <class Scalar>
std::size_t oscm_slot(const OperationalFrames<Scalar>& frames, int a, int c) noexcept {
  const int b = frames.body(a);
  const int t = frames.depth[static_cast<std::size_t>(b)] - frames.depth[static_cast<std::size_t>(c)];
  return static_cast<std::size_t>(frames.K_offset[static_cast<std::size_t>(a)] + t);
}

/// Copies the selected rows / columns of the 6×6 block B of the frame pair (a, a2) into Λ⁻¹, both triangles:
/// the selected entries gathered once into a fixed 6×6 block, then written as two block copies.
template <class Scalar>
void oscm_store_block(OperationalFrames<Scalar>& frames, int a, int a2, const Matrix6<Scalar>& B) noexcept {
  const int ra = frames.row_offset(a), rb = frames.row_offset(a2);
  const int na = frames.row_count(a), nb = frames.row_count(a2);
  if (na == 6 && nb == 6) {  // all six rows of both frames (row indices ascending: the identity selection)
    frames.compliance.template block<6, 6>(ra, rb) = B;
    frames.compliance.template block<6, 6>(rb, ra) = B.transpose();
    return;
  }
  const std::array<int, 6>& ia = frames.row_indices(a), &ib = frames.row_indices(a2);
  Matrix6<Scalar> selected = Matrix6<Scalar>::Zero();
  for (int l = 0; l < nb; ++l)
    for (int k = 0; k < na; ++k) selected(k, l) = B(ia[static_cast<std::size_t>(k)], ib[static_cast<std::size_t>(l)]);
  frames.compliance.block(ra, rb, na, nb) = selected.topLeftCorner(na, nb);
  frames.compliance.block(rb, ra, nb, na) = selected.topLeftCorner(na, nb).transpose();
}

/// O1–O6. Faithful: Ω_i on every path body, (Λ⁻¹)_aa' = K_{c,a}ᵀ Ω_c K_{c,a'} (the pseudo-code as written).
/// Reduced: Ω_i only where two frames meet and above (frames.omega_node); a diagonal block, whose
/// c has no Ω, adds the rest of Ω_c = Σ_{k ∈ anc(c)} K_{k←c}ᵀ Ω^J_k K_{k←c} term by term from the rows
/// S_kᵀ K already formed in O5: (Λ⁻¹)_aa' = K_{w,a}ᵀ Ω_w K_{w,a'} + Σ_{k = c … below w} (S_kᵀK_{k,a})ᵀ D_k⁻¹ (S_kᵀK_{k,a'}),
/// w = frames.omega_anchor[c] (same numbers up to rounding: tested).
template <bool Faithful, class Scalar, int N, class Dq>
const typename OperationalFrames<Scalar>::MatrixX& oscm_impl(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                             OperationalFrames<Scalar>& frames,
                                                             const Eigen::MatrixBase<Dq>* q) noexcept {
  constexpr const char* fn = Faithful ? "oscm_faithful" : "oscm";
  if (!oscm_arguments_ok(fn, model, data, frames, q)) return frames.compliance;
  if (!aba_inertia_outward_pass(model, data, q, fn)) return oscm_fail(frames, data.config_status);  // O1
  for (const int i : model.inward_order())                                          // O2–O3, D_i⁻¹ kept
    if (!aba_inertia_step(model, data, i, &frames.Dinv[static_cast<std::size_t>(i)]))
      return oscm_fail(frames, FactorStatus::non_positive_joint_pivot(i, "oscm"));
  frames.status = FactorStatus::success();
  const std::vector<char>& omega_node = Faithful ? frames.on_path : frames.omega_node;
  for (int i = 0; i < model.nbodies(); ++i) {                                        // O4
    if (!omega_node[static_cast<std::size_t>(i)]) continue;
    if (model.joint(i).type == JointType::free_flyer) {  // Ω_i = D_i⁻¹ (aba_free_inertia_step), symmetrized
      const Matrix6<Scalar> Dinv = frames.Dinv[static_cast<std::size_t>(i)];
      frames.Omega[static_cast<std::size_t>(i)] = Scalar(0.5) * (Dinv + Dinv.transpose());
      continue;
    }
    with_joint_width(model.motion_subspaces()[i].cols(),
                     [&](auto width) { oscm_omega<decltype(width)::value>(model, data, frames, i); });
  }
  for (int a = 0; a < frames.size(); ++a) {                                          // O5
    std::size_t slot = static_cast<std::size_t>(frames.K_offset[static_cast<std::size_t>(a)]);
    // frames.K[slot] = (^aX_b)ᵀ = ^bX*_a is constant: set once by OperationalFrames::add()
    ForceRows<Scalar> K;
    K.load(frames.K[slot]);
    for (int k = frames.body(a); k != no_parent; k = model.parent(k), ++slot) {
      const int p = model.parent(k);
      // O6 reads SK only below an Ω node (reduced), K only at an Ω node; a root needs no K above it
      if (p == no_parent && omega_node[static_cast<std::size_t>(k)]) break;
      with_joint_width(model.motion_subspaces()[k].cols(), [&](auto width) {
        oscm_propagate<decltype(width)::value>(model, data, k, K, frames.SK[slot], p != no_parent);
      });
      if (p == no_parent || !omega_node[static_cast<std::size_t>(p)]) continue;
      K.store(frames.K[slot + 1]);
    }
  }
  for (int a2 = 0; a2 < frames.size(); ++a2) {                                       // O6
    ForceRows<Scalar> OmegaK;  // Ω_w K_{w,a2} by rows, formed once for all the frames a that meet a2 at the same w
    int OmegaK_at = no_parent;
    for (int a = 0; a <= a2; ++a) {
      const int c = closest_common_ancestor(frames.parent, frames.body(a), frames.body(a2));
      Matrix6<Scalar> B = Matrix6<Scalar>::Zero();
      if (c != no_parent) {
        const int w = Faithful ? c : frames.omega_anchor[static_cast<std::size_t>(c)];
        if (w != no_parent) {
          if (w != OmegaK_at) {
            ForceRows<Scalar> K;
            K.load(frames.K[oscm_slot(frames, a2, w)]);
            oscm_transpose_times_rows(frames.Omega[static_cast<std::size_t>(w)], K, OmegaK);  // Ω_wᵀ = Ω_w
            OmegaK_at = w;
          }
          ForceRows<Scalar> KtOmegaK;
          oscm_transpose_times_rows(frames.K[oscm_slot(frames, a, w)], OmegaK, KtOmegaK);
          KtOmegaK.store(B);
        }
        for (int k = c; k != w; k = model.parent(k)) {
          const Matrix6<Scalar>& SKa = frames.SK[oscm_slot(frames, a, k)];
          const Matrix6<Scalar>& SKb = frames.SK[oscm_slot(frames, a2, k)];
          with_joint_width(model.motion_subspaces()[k].cols(),
                           [&](auto width) { oscm_add_joint_term<decltype(width)::value>(model, frames, k, SKa, SKb, B); });
        }
        if (a == a2) B = Scalar(0.5) * (B + B.transpose()).eval();
      }
      oscm_store_block(frames, a, a2, B);
    }
  }
  return frames.compliance;
}

}  // namespace detail

/// Λ⁻¹ = J M(q)⁻¹ Jᵀ for the frames (reduced Ω, see oscm_impl); status in frames.status. Returns frames.compliance.
template <class Scalar, int N, class Dq>
const typename OperationalFrames<Scalar>::MatrixX& oscm(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                        OperationalFrames<Scalar>& frames,
                                                        const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  return detail::oscm_impl<false>(model, data, frames, &q);
}

/// The same Λ⁻¹ at the q of the last call that formed data.Xup (compute_all_terms, crba,
/// forward_kinematics, …): O1 reuses those joint transforms instead of forming them again
/// (docs/operational-space.md#after-a-controller-tick). If that call failed, frames.status is its
/// data.config_status and Λ⁻¹ is NaN.
template <class Scalar, int N>
const typename OperationalFrames<Scalar>::MatrixX& oscm(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                        OperationalFrames<Scalar>& frames) noexcept {
  return detail::oscm_impl<false>(model, data, frames, static_cast<const Eigen::MatrixBase<VectorN<Scalar, N>>*>(nullptr));
}

/// The same Λ⁻¹ by the pseudo-code as written (Ω_i on every path body); the reference for oscm.
template <class Scalar, int N, class Dq>
const typename OperationalFrames<Scalar>::MatrixX& oscm_faithful(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                                                 OperationalFrames<Scalar>& frames,
                                                                 const Eigen::MatrixBase<Dq>& q) noexcept {
  return detail::oscm_impl<true>(model, data, frames, &q);
}

}  // namespace treedyn
