// contact_lcp: the operational-space mixed LCP of Jain (n.d.), eq. 53 (docs/references.md), for n_u
// unilateral frictional contacts and n_b bilateral rows, its equality rows eliminated by a Schur
// complement and the rest solved by Lemke's method (contact/lemke.hpp).
//
// Inputs, all in one world frame (the caller computes them from the OSCM, e.g. `oscm` on the contact
// nodes, and from the contact-free motion):
//   G_uu = Q_u Λ Q_uᵀ (3n_u × 3n_u): how a linear impulse pair at contact j (+ on A, − on B) changes the
//          relative linear velocity of A with respect to B at contact i (block (i, j));
//   v_u  (3n_u): the relative velocities the step gives without contact impulses (v_u⁻ + Q_u α^f Δt for a
//          time step, v_u⁻ for a collision);
//   and, when there are bilateral rows, G_bu = Q_b Λ Q_uᵀ (n_b × 3n_u), G_bb = Q_b Λ Q_bᵀ (n_b × n_b) and
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
//   C4  Lemke's method on it.
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
#include "treedyn/contact/lemke.hpp"
#include "treedyn/detail/check.hpp"
#include "treedyn/detail/joint_pivot.hpp"

namespace treedyn {

/// How contact_lcp ended.
template <class Scalar>
struct ContactLcpStatus {
  /// solved and the failures of lemke (ray_termination, pivot_cap, non_finite_input), invalid_argument (a
  /// size check failed and the handler returned) and bilateral_not_positive_definite (G_bb, at `row`).
  enum class Code { solved, ray_termination, pivot_cap, non_finite_input, invalid_argument, bilateral_not_positive_definite };
  Code code = Code::solved;
  int row = -1;                   ///< the bilateral row whose pivot failed
  int pivots = 0;                 ///< Lemke's pivots
  Scalar residual = Scalar(0);    ///< Lemke's residual max |min(w, z)| on the reduced LCP
  [[nodiscard]] bool ok() const noexcept { return code == Code::solved; }
};

template <class Scalar>
class ContactLcpWorkspace {
 public:
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  ContactLcpWorkspace(int max_contacts, int max_friction_directions = 4, int max_bilateral = 0)
      : max_contacts_(max_contacts), max_nf_(max_friction_directions), max_bilateral_(max_bilateral),
        D_(3, max_contacts * (max_friction_directions + 1)),
        GD_(3, max_friction_directions + 1),
        G_(3 * max_contacts, 3 * max_contacts),
        v_(3 * max_contacts),
        L_bb_(max_bilateral, max_bilateral),
        X_(max_bilateral, 3 * max_contacts + 1),
        M_(max_contacts * (max_friction_directions + 2), max_contacts * (max_friction_directions + 2)),
        q_(max_contacts * (max_friction_directions + 2)),
        lemke_(max_contacts * (max_friction_directions + 2)),
        impulse_(Vector::Zero(3 * max_contacts)),
        p_b_(Vector::Zero(max_bilateral)),
        velocity_(Vector::Zero(3 * max_contacts)),
        beta_(Vector::Zero(max_contacts * (max_friction_directions + 1))),
        sigma_(Vector::Zero(max_contacts)),
        offset_(static_cast<std::size_t>(max_contacts) + 1, 0) {}

  [[nodiscard]] int contacts() const noexcept { return n_u_; }
  [[nodiscard]] int bilateral() const noexcept { return n_b_; }
  /// n_b + n_u (n_f + 2): the size of eq. 53 (the LCP solved is n_u (n_f + 2) after eliminating p_b).
  [[nodiscard]] int lcp_size() const noexcept { return n_b_ + nz_; }
  /// F_u = D̄ β: the linear impulse on body A at each contact (−F_u on B), 3 per contact, world frame.
  [[nodiscard]] auto impulse() const noexcept { return impulse_.head(3 * n_u_); }
  /// F_n,i: the normal impulse of contact i.
  [[nodiscard]] Scalar normal_impulse(int i) const noexcept { return beta_(offset_[idx(i)]); }
  /// β_i: the normal impulse followed by the n_f friction coefficients of contact i.
  [[nodiscard]] auto beta(int i) const noexcept {
    return beta_.segment(offset_[idx(i)], offset_[idx(i) + 1] - offset_[idx(i)]);
  }
  /// σ_i: the sliding speed of contact i (0 when it sticks).
  [[nodiscard]] Scalar sliding_speed(int i) const noexcept { return sigma_(i); }
  /// p_b: the bilateral impulses.
  [[nodiscard]] auto bilateral_impulse() const noexcept { return p_b_.head(n_b_); }
  /// v_u⁺: the relative contact velocities after the impulses.
  [[nodiscard]] auto velocity() const noexcept { return velocity_.head(3 * n_u_); }
  [[nodiscard]] const ContactLcpStatus<Scalar>& status() const noexcept { return status_; }
  /// Lemke's workspace (its cap and tie rule may be set).
  LemkeWorkspace<Scalar>& lemke_workspace() noexcept { return lemke_; }

 private:
  static std::size_t idx(int i) noexcept { return static_cast<std::size_t>(i); }

  template <class S, class DG, class DV, class DGbu, class DGbb, class DVb>
  friend const ContactLcpStatus<S>& contact_lcp(ContactLcpWorkspace<S>&, const std::vector<Contact<S>>&,
                                                const Eigen::MatrixBase<DG>&, const Eigen::MatrixBase<DV>&,
                                                const Eigen::MatrixBase<DGbu>&, const Eigen::MatrixBase<DGbb>&,
                                                const Eigen::MatrixBase<DVb>&) noexcept;

  int max_contacts_, max_nf_, max_bilateral_;
  Matrix D_;          // C1: the D̄_i side by side, 3 × Σ (n_f,i + 1)
  Matrix GD_;         // C3: G_ij D̄_j
  Matrix G_;          // C2: the Schur complement G
  Vector v_;          // C2: v
  Matrix L_bb_;       // C2: the Cholesky factor of G_bb
  Matrix X_;          // C2: G_bb⁻¹ [G_bu, v_b]
  Matrix M_;          // C3
  Vector q_;          // C3
  LemkeWorkspace<Scalar> lemke_;
  Vector impulse_, p_b_, velocity_, beta_, sigma_;
  std::vector<int> offset_;  // first β entry of each contact
  int n_u_ = 0, n_b_ = 0, nz_ = 0;
  ContactLcpStatus<Scalar> status_;
};

/// Solves eq. 53 with bilateral rows (labels C1–C5 of the file comment); returns ws.status().
template <class Scalar, class DG, class DV, class DGbu, class DGbb, class DVb>
const ContactLcpStatus<Scalar>& contact_lcp(ContactLcpWorkspace<Scalar>& ws, const std::vector<Contact<Scalar>>& contacts,
                                            const Eigen::MatrixBase<DG>& G_uu, const Eigen::MatrixBase<DV>& v_u,
                                            const Eigen::MatrixBase<DGbu>& G_bu, const Eigen::MatrixBase<DGbb>& G_bb,
                                            const Eigen::MatrixBase<DVb>& v_b) noexcept {
  using Status = ContactLcpStatus<Scalar>;
  const int n_u = static_cast<int>(contacts.size()), n_b = static_cast<int>(v_b.size());
  const auto invalid = [&ws]() -> const Status& {
    ws.status_ = Status{};
    ws.status_.code = Status::Code::invalid_argument;
    return ws.status_;
  };
  TREEDYN_CHECK(n_u <= ws.max_contacts_, "contact_lcp", "contacts", "at most the workspace's max_contacts",
                ws.max_contacts_, n_u, return invalid());
  TREEDYN_CHECK(n_b <= ws.max_bilateral_, "contact_lcp", "v_b", "at most the workspace's max_bilateral",
                ws.max_bilateral_, n_b, return invalid());
  TREEDYN_CHECK(G_uu.rows() == 3 * n_u && G_uu.cols() == 3 * n_u, "contact_lcp", "G_uu", "3 contacts.size() square",
                3 * n_u, G_uu.rows(), return invalid());
  TREEDYN_CHECK(v_u.size() == 3 * n_u, "contact_lcp", "v_u", "3 contacts.size()", 3 * n_u, v_u.size(), return invalid());
  TREEDYN_CHECK(G_bu.rows() == n_b && G_bu.cols() == 3 * n_u, "contact_lcp", "G_bu", "v_b.size() x 3 contacts.size()",
                n_b, G_bu.rows(), return invalid());
  TREEDYN_CHECK(G_bb.rows() == n_b && G_bb.cols() == n_b, "contact_lcp", "G_bb", "v_b.size() square", n_b, G_bb.rows(),
                return invalid());
  int nbeta = 0;
  for (int i = 0; i < n_u; ++i) {                                   // C1
    const int nf = contacts[static_cast<std::size_t>(i)].friction_directions;
    TREEDYN_CHECK(nf >= 2 && nf % 2 == 0 && nf <= ws.max_nf_, "contact_lcp", "contacts",
                  "friction_directions even, >= 2 and at most the workspace's maximum", ws.max_nf_, nf, return invalid());
    ws.offset_[static_cast<std::size_t>(i)] = nbeta;
    auto D_i = ws.D_.middleCols(nbeta, nf + 1);
    friction_directions(contacts[static_cast<std::size_t>(i)], D_i);
    nbeta += nf + 1;
  }
  ws.offset_[static_cast<std::size_t>(n_u)] = nbeta;
  ws.n_u_ = n_u;
  ws.n_b_ = n_b;
  ws.nz_ = nbeta + n_u;
  ws.status_ = Status{};

  auto G = ws.G_.topLeftCorner(3 * n_u, 3 * n_u);                   // C2
  auto v = ws.v_.head(3 * n_u);
  G = G_uu;
  v = v_u;
  auto L = ws.L_bb_.topLeftCorner(n_b, n_b);
  auto X = ws.X_.topLeftCorner(n_b, 3 * n_u + 1);
  if (n_b > 0) {
    L = G_bb;
    // a pivot below n_b·1e2·ε of its diagonal entry: G_bb is singular up to round-off (redundant rows)
    const Scalar relative = Scalar(100 * n_b) * detail::epsilon<Scalar>();
    const Eigen::Index failed = detail::cholesky_failed_row<true>(L, relative);
    if (failed >= 0) {
      ws.status_.code = Status::Code::bilateral_not_positive_definite;
      ws.status_.row = static_cast<int>(failed);
      return ws.status_;
    }
    X.leftCols(3 * n_u) = G_bu;
    X.col(3 * n_u) = v_b;
    detail::solve_joint_pivot(L, X);                               // G_bb⁻¹ [G_bu, v_b]
    G.noalias() -= G_bu.transpose().lazyProduct(X.leftCols(3 * n_u));
    v.noalias() -= G_bu.transpose().lazyProduct(X.col(3 * n_u));
  }

  const int nz = ws.nz_;                                            // C3
  auto M = ws.M_.topLeftCorner(nz, nz);
  auto q = ws.q_.head(nz);
  M.setZero();
  q.setZero();
  for (int i = 0; i < n_u; ++i) {
    const int oi = ws.offset_[static_cast<std::size_t>(i)], ni = ws.offset_[static_cast<std::size_t>(i) + 1] - oi;
    const auto D_i = ws.D_.middleCols(oi, ni);
    for (int j = 0; j < n_u; ++j) {
      const int oj = ws.offset_[static_cast<std::size_t>(j)], nj = ws.offset_[static_cast<std::size_t>(j) + 1] - oj;
      auto GD = ws.GD_.leftCols(nj);                                // G_ij D̄_j, then D̄_iᵀ (G_ij D̄_j)
      GD.noalias() = G.block(3 * i, 3 * j, 3, 3).lazyProduct(ws.D_.middleCols(oj, nj));
      M.block(oi, oj, ni, nj).noalias() = D_i.transpose().lazyProduct(GD);
    }
    q.segment(oi, ni).noalias() = D_i.transpose().lazyProduct(v.segment(3 * i, 3));
    M.block(oi + 1, nbeta + i, ni - 1, 1).setOnes();                // Ê_i = [0; e]
    M(nbeta + i, oi) = contacts[static_cast<std::size_t>(i)].mu;    // Ē_i = [μ_i, −eᵀ]
    M.block(nbeta + i, oi + 1, 1, ni - 1).setConstant(Scalar(-1));
  }

  const LcpStatus<Scalar>& s = lemke(ws.lemke_, M, q);              // C4
  ws.status_.pivots = s.pivots;
  ws.status_.residual = s.residual;
  switch (s.code) {
    case LcpStatus<Scalar>::Code::solved: break;
    case LcpStatus<Scalar>::Code::ray_termination: ws.status_.code = Status::Code::ray_termination; break;
    case LcpStatus<Scalar>::Code::pivot_cap: ws.status_.code = Status::Code::pivot_cap; break;
    case LcpStatus<Scalar>::Code::non_finite_input: ws.status_.code = Status::Code::non_finite_input; break;
    case LcpStatus<Scalar>::Code::invalid_argument: ws.status_.code = Status::Code::invalid_argument; break;
  }
  if (!ws.status_.ok()) return ws.status_;

  const auto z = ws.lemke_.z();                                     // C5
  ws.beta_.head(nbeta) = z.head(nbeta);
  ws.sigma_.head(n_u) = z.segment(nbeta, n_u);
  auto F = ws.impulse_.head(3 * n_u);
  for (int i = 0; i < n_u; ++i) {
    const int oi = ws.offset_[static_cast<std::size_t>(i)], ni = ws.offset_[static_cast<std::size_t>(i) + 1] - oi;
    F.segment(3 * i, 3).noalias() = ws.D_.middleCols(oi, ni).lazyProduct(z.segment(oi, ni));
  }
  auto vplus = ws.velocity_.head(3 * n_u);
  vplus = v_u;
  vplus.noalias() += G_uu.lazyProduct(F);
  if (n_b > 0) {
    auto p_b = ws.p_b_.head(n_b);
    p_b = -X.col(3 * n_u);                                          // −G_bb⁻¹ (G_bu F + v_b)
    p_b.noalias() -= X.leftCols(3 * n_u).lazyProduct(F);
    vplus.noalias() += G_bu.transpose().lazyProduct(p_b);
  }
  return ws.status_;
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
