// contact_lcp: the operational-space mixed LCP of Jain (n.d.), eq. 53 (docs/references.md), for n_u
// unilateral frictional contacts and n_b bilateral rows, its equality rows eliminated by a Schur
// complement and the rest solved by Lemke's method (kernels/lemke.hpp).
//
// Inputs, all in one world frame (the caller computes them from the OSCM, e.g. `oscm` on the contact
// nodes, and from the contact-free motion):
//   G_uu = Q_u Λ⁻¹ Q_uᵀ (3n_u × 3n_u): how a linear impulse pair at contact j (+ on A, − on B) changes the
//          relative linear velocity of A with respect to B at contact i (block (i, j));
//   v_u  (3n_u): the relative velocities the step gives without contact impulses (v_u⁻ + Q_u α^f Δt for a
//          time step, v_u⁻ for a collision);
//   and, when there are bilateral rows, G_bu = Q_b Λ⁻¹ Q_uᵀ (n_b × 3n_u), G_bb = Q_b Λ⁻¹ Q_bᵀ (n_b × n_b) and
//   v_b (n_b), the velocity of those rows without impulses (Jain's Q_b α^f Δt − U̇ Δt), which must come
//   out zero.
// Unknowns: p_b (free), β = col(β_i) with β_i = (F_n,i, β_i1 … β_i,n_f) ≥ 0 and σ = col(σ_i) ≥ 0.
//   C1  D̄ = diag(D̄_i), D̄_i = [n̂_i, d̂_i1 … d̂_i,n_f] (contact/contact.hpp; Jain's D(i), eq. 7).
//   C2  n_b > 0: G_bb = L Lᵀ (a pivot not above 100·n_b·ε times its diagonal entry: status
//       bilateral_not_positive_definite naming the row, e.g. a row that repeats another);
//       row block 1 of eq. 53, 0 = G_bb p_b + G_bu D̄ β + v_b, gives p_b = −G_bb⁻¹ (G_bu D̄ β + v_b), and
//       with it the Schur complements  G = G_uu − G_ub G_bb⁻¹ G_bu,  v = v_u − G_ub G_bb⁻¹ v_b
//       (n_b = 0: G = G_uu, v = v_u).
//   C3  the LCP of eqs. 12–16 in (β, σ), size n_u (n_f + 2):
//           [ D̄ᵀ G D̄   Ê ] [β]   [ D̄ᵀ v ]              Ê = diag(Ê_i), Ê_i = [0; e] ((n_f + 1) × 1),
//       w = [ Ē        0 ] [σ] + [ 0    ],  0 ≤ w ⊥ z ≥ 0,  Ē = diag(Ē_i), Ē_i = [μ_i, −eᵀ]
//       rows β: Ê σ + D̄ᵀ v⁺ ⊥ β (normal velocity ≥ 0; friction opposes sliding); rows σ: μ F_n − Σ β ⊥ σ.
//   C4  Lemke's method on it. With ws.cone = FrictionCone::exact, C3–C4 are instead the contact problem on the
//       Coulomb cone itself for (G, v) by coulomb_gauss_seidel (contact/coulomb_gauss_seidel.hpp,
//       docs/contact.md#exact-friction-cone), and C5 takes its impulses.
//   C5  F_u = D̄ β (the linear impulses on the A sides), p_b as in C2, and the velocities after the impulse
//       v_u⁺ = v_u + G_uu F_u + G_ub p_b.
// The LCP matrix is not symmetric and its σ block is zero; Lemke's method solves it (Stewart and Trinkle
// 1996 show the LCP has a solution for G positive semi-definite and μ ≥ 0). lcp_size() reports
// n_b + n_u (n_f + 2), the size of eq. 53 that Jain's Table 2 counts.
//
// Contract: ContactLcpWorkspace(max_contacts, max_friction_directions, max_bilateral) allocates once;
// contact_lcp(ws, contacts, G_uu, v_u[, G_bu, G_bb, v_b]) is noexcept and never allocates. Sizes are
// checked (the check handler of detail/check.hpp; status invalid_argument); the contacts' values are
// checked once at setup by validate_contacts.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "treedyn/contact/contact.hpp"
#include "treedyn/contact/coulomb_gauss_seidel.hpp"
#include "treedyn/kernels/lemke.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/detail/joint_pivot.hpp"

namespace treedyn {

/// How contact_lcp ended: an LcpStatus (lemke's codes, its pivots and residual on the reduced LCP), with
/// non_positive_pivot at `row` when the bilateral block G_bb is not positive definite (C2).
template <class Scalar>
using ContactLcpStatus = LcpStatus<Scalar>;

/// Everything contact_lcp writes, sized once for up to max_contacts contacts of up to
/// max_friction_directions directions and max_bilateral bilateral rows. A plain struct like every workspace
/// of the library: the steps C1–C5 write its fields; the member functions read the last problem's part of
/// the capacity-sized buffers (n_u contacts, n_b rows).
template <class Scalar>
struct ContactLcpWorkspace {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  ContactLcpWorkspace(int contact_capacity, int direction_capacity = 4, int bilateral_capacity = 0)
      : max_contacts(contact_capacity), max_friction_directions(direction_capacity), max_bilateral(bilateral_capacity),
        directions(3, contact_capacity * (direction_capacity + 1)),
        directions_product(3, direction_capacity + 1),
        schur(3 * contact_capacity, 3 * contact_capacity),
        schur_velocity(3 * contact_capacity),
        bilateral_factor(bilateral_capacity, bilateral_capacity),
        bilateral_solve(bilateral_capacity, 3 * contact_capacity + 1),
        lcp_matrix(contact_capacity * (direction_capacity + 2), contact_capacity * (direction_capacity + 2)),
        lcp_vector(contact_capacity * (direction_capacity + 2)),
        lemke(contact_capacity * (direction_capacity + 2)),
        impulses(Vector::Zero(3 * contact_capacity)),
        bilateral_impulses(Vector::Zero(bilateral_capacity)),
        velocities(Vector::Zero(3 * contact_capacity)),
        betas(Vector::Zero(contact_capacity * (direction_capacity + 1))),
        sliding_speeds(Vector::Zero(contact_capacity)),
        beta_offset(static_cast<std::size_t>(contact_capacity) + 1, 0), exact(contact_capacity) {}

  [[nodiscard]] int contacts() const noexcept { return n_u; }
  [[nodiscard]] int bilateral() const noexcept { return n_b; }
  /// n_b + n_u (n_f + 2): the size of eq. 53 (the LCP solved is n_u (n_f + 2) after eliminating p_b); on the
  /// exact cone n_b + 3 n_u, the unknowns of its problem.
  [[nodiscard]] int lcp_size() const noexcept { return n_b + nz; }
  /// F_u = D̄ β: the linear impulse on body A at each contact (−F_u on B), 3 per contact, world frame.
  [[nodiscard]] auto impulse() const noexcept { return impulses.head(3 * n_u); }
  /// F_n,i: the normal impulse of contact i.
  [[nodiscard]] Scalar normal_impulse(int i) const noexcept { return betas(beta_offset[idx(i)]); }
  /// β_i: the normal impulse followed by the n_f friction coefficients of contact i.
  [[nodiscard]] auto beta(int i) const noexcept {
    return betas.segment(beta_offset[idx(i)], beta_offset[idx(i) + 1] - beta_offset[idx(i)]);
  }
  /// σ_i: the sliding speed of contact i (0 when it sticks; on the exact cone ‖w_t‖ after the impulse).
  [[nodiscard]] Scalar sliding_speed(int i) const noexcept { return sliding_speeds(i); }
  /// p_b: the bilateral impulses.
  [[nodiscard]] auto bilateral_impulse() const noexcept { return bilateral_impulses.head(n_b); }
  /// v_u⁺: the relative contact velocities after the impulses.
  [[nodiscard]] auto velocity() const noexcept { return velocities.head(3 * n_u); }
  [[nodiscard]] const ContactLcpStatus<Scalar>& status() const noexcept { return last_status; }
  /// Lemke's workspace (its cap and tie rule may be set).
  LemkeWorkspace<Scalar>& lemke_workspace() noexcept { return lemke; }

  int max_contacts, max_friction_directions, max_bilateral;  ///< the capacity
  Matrix directions;           ///< C1: the D̄_i side by side, 3 × Σ (n_f,i + 1)
  Matrix directions_product;   ///< C3: G_ij D̄_j
  Matrix schur;                ///< C2: the Schur complement G (G_uu when n_b = 0)
  Vector schur_velocity;       ///< C2: v
  Matrix bilateral_factor;     ///< C2: the Cholesky factor of G_bb
  Matrix bilateral_solve;      ///< C2: G_bb⁻¹ [G_bu, v_b]
  Matrix lcp_matrix;           ///< C3: the LCP's matrix
  Vector lcp_vector;           ///< C3: the LCP's vector
  LemkeWorkspace<Scalar> lemke;  ///< C4
  Vector impulses;             ///< C5: F_u (impulse())
  Vector bilateral_impulses;   ///< C5: p_b (bilateral_impulse())
  Vector velocities;           ///< C5: v_u⁺ (velocity())
  Vector betas;                ///< C5: β (beta(i))
  Vector sliding_speeds;       ///< C5: σ (sliding_speed(i))
  std::vector<int> beta_offset;  ///< C1: the first β entry of each contact, then Σ (n_f,i + 1)
  int n_u = 0, n_b = 0, nz = 0;  ///< the last problem: contacts, bilateral rows, unknowns of the reduced LCP
  ContactLcpStatus<Scalar> last_status;  ///< status()
  /// C3–C4 on the pyramid (Lemke's method) or on the exact Coulomb cone (coulomb_gauss_seidel: then
  /// status() reports its sweeps as pivots and its natural-map residual, and β_i holds F_n,i and zeros).
  FrictionCone cone = FrictionCone::pyramid;
  CoulombGaussSeidelWorkspace<Scalar> exact;  ///< the exact cone's solver (its max_sweeps and tolerance may be set)

 private:
  static std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }
};

namespace detail {

/// The entry checks of contact_lcp: sizes fit the workspace and one another, friction directions even and
/// within the workspace. False (ws.last_status invalid_argument) when one fails and the handler returns.
template <class Scalar, class DG, class DV, class DGbu, class DGbb, class DVb>
bool contact_lcp_arguments_ok(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts,
                              const Eigen::MatrixBase<DG>& G_uu, const Eigen::MatrixBase<DV>& v_u,
                              const Eigen::MatrixBase<DGbu>& G_bu, const Eigen::MatrixBase<DGbb>& G_bb,
                              const Eigen::MatrixBase<DVb>& v_b) noexcept {
  using Result = ContactLcpStatus<Scalar>;
  const int n_u = static_cast<int>(contacts.size()), n_b = static_cast<int>(v_b.size());
  const auto invalid = [&ws] {
    ws.last_status = Result::ended(Result::Code::invalid_argument, "contact_lcp");
    return false;
  };
  TREEDYN_CHECK(n_u <= ws.max_contacts, "contact_lcp", "contacts", "at most the workspace's max_contacts",
                ws.max_contacts, n_u, return invalid());
  TREEDYN_CHECK(n_b <= ws.max_bilateral, "contact_lcp", "v_b", "at most the workspace's max_bilateral",
                ws.max_bilateral, n_b, return invalid());
  TREEDYN_CHECK(G_uu.rows() == 3 * n_u && G_uu.cols() == 3 * n_u, "contact_lcp", "G_uu", "3 contacts.size() square",
                3 * n_u, G_uu.rows(), return invalid());
  TREEDYN_CHECK(v_u.size() == 3 * n_u, "contact_lcp", "v_u", "3 contacts.size()", 3 * n_u, v_u.size(), return invalid());
  TREEDYN_CHECK(G_bu.rows() == n_b && G_bu.cols() == 3 * n_u, "contact_lcp", "G_bu", "v_b.size() x 3 contacts.size()",
                n_b, G_bu.rows(), return invalid());
  TREEDYN_CHECK(G_bb.rows() == n_b && G_bb.cols() == n_b, "contact_lcp", "G_bb", "v_b.size() square", n_b, G_bb.rows(),
                return invalid());
  for (const Contact<Scalar>& c : contacts) {
    const int nf = c.friction_directions;
    TREEDYN_CHECK(nf >= 2 && nf % 2 == 0 && nf <= ws.max_friction_directions, "contact_lcp", "contacts",
                  "friction_directions even, >= 2 and at most the workspace's maximum", ws.max_friction_directions, nf,
                  return invalid());
  }
  return true;
}

/// C1: D̄_i of every contact side by side in ws.directions, their offsets in ws.beta_offset; sets n_u, n_b, nz.
template <class Scalar>
void contact_lcp_directions(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts,
                            int n_b) noexcept {
  const int n_u = static_cast<int>(contacts.size());
  int nbeta = 0;
  for (int i = 0; i < n_u; ++i) {
    const int nf = contacts[static_cast<std::size_t>(i)].friction_directions;
    ws.beta_offset[static_cast<std::size_t>(i)] = nbeta;
    auto D_i = ws.directions.middleCols(nbeta, nf + 1);
    friction_directions(contacts[static_cast<std::size_t>(i)], D_i);
    nbeta += nf + 1;
  }
  ws.beta_offset[static_cast<std::size_t>(n_u)] = nbeta;
  ws.n_u = n_u;
  ws.n_b = n_b;
  ws.nz = nbeta + n_u;
}

/// C2: G = G_uu − G_ub G_bb⁻¹ G_bu and v = v_u − G_ub G_bb⁻¹ v_b into ws.schur, ws.schur_velocity, with
/// G_bb⁻¹ [G_bu, v_b] kept for C5. False (ws.last_status non_positive_pivot at the row) when G_bb has a
/// pivot not above 100·n_b·ε times its diagonal entry: singular up to round-off (e.g. a repeated row).
template <class Scalar, class DG, class DV, class DGbu, class DGbb, class DVb>
bool contact_lcp_eliminate_bilateral(ContactLcpWorkspace<Scalar>& ws, const Eigen::MatrixBase<DG>& G_uu,
                                     const Eigen::MatrixBase<DV>& v_u, const Eigen::MatrixBase<DGbu>& G_bu,
                                     const Eigen::MatrixBase<DGbb>& G_bb, const Eigen::MatrixBase<DVb>& v_b) noexcept {
  const int n_u = ws.n_u, n_b = ws.n_b;
  auto G = ws.schur.topLeftCorner(3 * n_u, 3 * n_u);
  auto v = ws.schur_velocity.head(3 * n_u);
  G = G_uu;
  v = v_u;
  if (n_b == 0) return true;
  auto L = ws.bilateral_factor.topLeftCorner(n_b, n_b);
  auto X = ws.bilateral_solve.topLeftCorner(n_b, 3 * n_u + 1);
  L = G_bb;
  const Scalar relative = Scalar(100 * n_b) * detail::epsilon<Scalar>();
  const Eigen::Index failed = detail::cholesky_failed_row<true>(L, relative);
  if (failed >= 0) {
    static_cast<Status&>(ws.last_status) = Status::non_positive_pivot(static_cast<int>(failed), "contact_lcp");
    return false;
  }
  X.leftCols(3 * n_u) = G_bu;
  X.col(3 * n_u) = v_b;
  detail::solve_joint_pivot(L, X);                                  // G_bb⁻¹ [G_bu, v_b]
  G.noalias() -= G_bu.transpose().lazyProduct(X.leftCols(3 * n_u));
  v.noalias() -= G_bu.transpose().lazyProduct(X.col(3 * n_u));
  return true;
}

/// C3: the LCP of eqs. 12–16 in (β, σ) into ws.lcp_matrix, ws.lcp_vector (the file comment's block form).
template <class Scalar>
void contact_lcp_assemble(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts) noexcept {
  const int n_u = ws.n_u, nz = ws.nz, nbeta = nz - n_u;
  const auto G = ws.schur.topLeftCorner(3 * n_u, 3 * n_u);
  const auto v = ws.schur_velocity.head(3 * n_u);
  auto M = ws.lcp_matrix.topLeftCorner(nz, nz);
  auto q = ws.lcp_vector.head(nz);
  M.setZero();
  q.setZero();
  const auto offset = [&ws](int i) { return ws.beta_offset[static_cast<std::size_t>(i)]; };
  for (int i = 0; i < n_u; ++i) {
    const int oi = offset(i), ni = offset(i + 1) - oi;
    const auto D_i = ws.directions.middleCols(oi, ni);
    for (int j = 0; j < n_u; ++j) {
      const int oj = offset(j), nj = offset(j + 1) - oj;
      auto GD = ws.directions_product.leftCols(nj);                 // G_ij D̄_j, then D̄_iᵀ (G_ij D̄_j)
      GD.noalias() = G.block(3 * i, 3 * j, 3, 3).lazyProduct(ws.directions.middleCols(oj, nj));
      M.block(oi, oj, ni, nj).noalias() = D_i.transpose().lazyProduct(GD);
    }
    q.segment(oi, ni).noalias() = D_i.transpose().lazyProduct(v.segment(3 * i, 3));
    M.block(oi + 1, nbeta + i, ni - 1, 1).setOnes();                // Ê_i = [0; e]
    M(nbeta + i, oi) = contacts[static_cast<std::size_t>(i)].mu;    // Ē_i = [μ_i, −eᵀ]
    M.block(nbeta + i, oi + 1, 1, ni - 1).setConstant(Scalar(-1));
  }
}

/// C5 on the pyramid: β, σ from Lemke's z; F_u = D̄ β.
template <class Scalar>
void contact_lcp_pyramid_impulses(ContactLcpWorkspace<Scalar>& ws) noexcept {
  const int n_u = ws.n_u, nbeta = ws.nz - n_u;
  const auto z = ws.lemke.z();
  ws.betas.head(nbeta) = z.head(nbeta);
  ws.sliding_speeds.head(n_u) = z.segment(nbeta, n_u);
  auto F = ws.impulses.head(3 * n_u);
  for (int i = 0; i < n_u; ++i) {
    const int oi = ws.beta_offset[static_cast<std::size_t>(i)], ni = ws.beta_offset[static_cast<std::size_t>(i) + 1] - oi;
    F.segment(3 * i, 3).noalias() = ws.directions.middleCols(oi, ni).lazyProduct(z.segment(oi, ni));
  }
}

/// C3–C5 on the exact cone: coulomb_gauss_seidel on the Schur complement (G, v) of C2, each contact's frame
/// [n̂, t̂_1] from C1's D̄_i; F_u = λ, β_i = (F_n,i, 0 …), σ_i = ‖w_t,i‖.
template <class Scalar>
const ContactLcpStatus<Scalar>& contact_lcp_exact_cone(ContactLcpWorkspace<Scalar>& ws,
                                                       const std::vector<Contact<Scalar>>& contacts) noexcept {
  const int n_u = ws.n_u;
  ws.nz = 3 * n_u;
  for (int i = 0; i < n_u; ++i) {
    const int oi = ws.beta_offset[static_cast<std::size_t>(i)];
    ws.exact.frames.template middleCols<2>(3 * i) = ws.directions.template middleCols<2>(oi);
    ws.exact.friction(i) = contacts[static_cast<std::size_t>(i)].mu;
  }
  ws.last_status = coulomb_gauss_seidel(ws.exact, n_u, ws.schur.topLeftCorner(3 * n_u, 3 * n_u), ws.schur_velocity.head(3 * n_u));
  ws.impulses.head(3 * n_u) = ws.exact.impulses();
  ws.betas.head(ws.beta_offset[static_cast<std::size_t>(n_u)]).setZero();
  for (int i = 0; i < n_u; ++i) {
    const Vector3<Scalar> n = ws.directions.col(ws.beta_offset[static_cast<std::size_t>(i)]);
    const Vector3<Scalar> w = ws.exact.velocities().template segment<3>(3 * i);
    ws.betas(ws.beta_offset[static_cast<std::size_t>(i)]) = n.dot(ws.exact.impulses().template segment<3>(3 * i));
    ws.sliding_speeds(i) = (w - n * n.dot(w)).norm();
  }
  return ws.last_status;
}

/// C5, both cones: p_b = −G_bb⁻¹ (G_bu F_u + v_b); v_u⁺ = v_u + G_uu F_u + G_ub p_b.
template <class Scalar, class DG, class DV, class DGbu>
void contact_lcp_impulses(ContactLcpWorkspace<Scalar>& ws, const Eigen::MatrixBase<DG>& G_uu,
                          const Eigen::MatrixBase<DV>& v_u, const Eigen::MatrixBase<DGbu>& G_bu) noexcept {
  const int n_u = ws.n_u, n_b = ws.n_b;
  const auto F = ws.impulses.head(3 * n_u);
  auto vplus = ws.velocities.head(3 * n_u);
  vplus = v_u;
  vplus.noalias() += G_uu.lazyProduct(F);
  if (n_b == 0) return;
  const auto X = ws.bilateral_solve.topLeftCorner(n_b, 3 * n_u + 1);
  auto p_b = ws.bilateral_impulses.head(n_b);
  p_b = -X.col(3 * n_u);
  p_b.noalias() -= X.leftCols(3 * n_u).lazyProduct(F);
  vplus.noalias() += G_bu.transpose().lazyProduct(p_b);
}

}  // namespace detail

/// Solves eq. 53 with bilateral rows (labels C1–C5 of the file comment); returns ws.status().
template <class Scalar, class DG, class DV, class DGbu, class DGbb, class DVb>
const ContactLcpStatus<Scalar>& contact_lcp(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts,
                                            const Eigen::MatrixBase<DG>& G_uu, const Eigen::MatrixBase<DV>& v_u,
                                            const Eigen::MatrixBase<DGbu>& G_bu, const Eigen::MatrixBase<DGbb>& G_bb,
                                            const Eigen::MatrixBase<DVb>& v_b) noexcept {
  if (!detail::contact_lcp_arguments_ok(ws, contacts, G_uu, v_u, G_bu, G_bb, v_b)) return ws.last_status;
  detail::contact_lcp_directions(ws, contacts, static_cast<int>(v_b.size()));               // C1
  ws.last_status = ContactLcpStatus<Scalar>{};
  if (!detail::contact_lcp_eliminate_bilateral(ws, G_uu, v_u, G_bu, G_bb, v_b)) return ws.last_status;  // C2
  if (ws.cone == FrictionCone::exact) {
    if (detail::contact_lcp_exact_cone(ws, contacts).ok()) detail::contact_lcp_impulses(ws, G_uu, v_u, G_bu);
    return ws.last_status;
  }
  detail::contact_lcp_assemble(ws, contacts);                                               // C3
  ws.last_status = lemke(ws.lemke, ws.lcp_matrix.topLeftCorner(ws.nz, ws.nz), ws.lcp_vector.head(ws.nz));  // C4
  if (!ws.last_status.ok()) return ws.last_status;
  detail::contact_lcp_pyramid_impulses(ws);                                                 // C5
  detail::contact_lcp_impulses(ws, G_uu, v_u, G_bu);
  return ws.last_status;
}

/// Solves eq. 53 without bilateral rows.
template <class Scalar, class DG, class DV>
const ContactLcpStatus<Scalar>& contact_lcp(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts,
                                            const Eigen::MatrixBase<DG>& G_uu, const Eigen::MatrixBase<DV>& v_u) noexcept {
  using Matrix = typename ContactLcpWorkspace<Scalar>::Matrix;
  using Vector = typename ContactLcpWorkspace<Scalar>::Vector;
  const Eigen::Map<const Matrix> none(nullptr, 0, G_uu.rows());
  const Eigen::Map<const Matrix> none_bb(nullptr, 0, 0);
  const Eigen::Map<const Vector> none_b(nullptr, 0);
  return contact_lcp(ws, contacts, G_uu, v_u, none, none_bb, none_b);
}

}  // namespace treedyn
