// crba: the joint-space inertia matrix H(q) by the composite-rigid-body algorithm, touching only nonzeros.
//
// Reference: Featherstone (2005) §5 (docs/references.md; the CRBA listing before eq. 17), extended to
// multi-DoF joints over the expanded parent array (below); Featherstone, Rigid Body Dynamics
// Algorithms, 2008, Table 6.2. The paper's loop order is kept (backward over i, the composite inertia
// accumulated into the parent, then a walk up the ancestors writing H_ij). Every vector is taken ABOUT
// THE ORIGIN OF THE BODY IT BELONGS TO (as in the paper's body coordinates) but with the axes of the
// subtree's root body r(i) (the body above i whose parent is the fixed base), so moving a force from a
// body to its parent is a shift of its moment only, with no rotation:
//   R_i = ^i R_r (rotation, root axes → body axes);  o_i = i's origin minus λ(i)'s, in root axes
//   C1  for i = 1..N:  R_i = E_i R_λ(i);  o_i = R_λ(i)ᵀ r_i;  S_i^r = R_iᵀ S_i;  Ic_i = R_iᵀ I_i R_i
//                      ((E_i, r_i) = ^i X_λ(i); S_i^r and Ic_i about i's origin, root axes)
//   C2  for i = N..1:
//   C3     F = Ic_i S_i^r                                     (6 × n_i, about i's origin)
//   C4     H[vi(i), vi(i)] = S_i^rᵀ F
//   C5     if λ(i) ≠ 0:  Ic_λ(i) += Ic_i shifted from i's origin to λ(i)'s (origin shift by −o_i)
//   C6     j = i
//   C7     while λ(j) ≠ 0:
//   C8        F.n += o_j × F.f;  j = λ(j)                      (the moment now about λ(j)'s origin)
//   C9        H[vi(i), vi(j)] = Fᵀ S_j^r;  H[vi(j), vi(i)] = its transpose
// Why these coordinates. Accuracy first: H_ij is formed from moments about the origins of bodies i and
// j themselves, never about a far-away point, so a small, light link far from the root gives small
// entries of H without cancellation. The former subtree-root-origin form (Ic_i and S_i both about the
// root body's origin, C8 free) formed them as differences of O(m d²) terms, d the distance to the root:
// on a two-link chain with a 0.1 kg, 0.02 m link 1–2 m out (κ(H) = 1e6) its error scaled by the
// diagonal, max |ΔH_ij| / √(H_ii H_jj), was 3.5e-12 in double and 2.8e-3 in float; this form keeps it
// within a few ε (tests/accuracy). Speed second: the paper's C8 is a full force transform per (body,
// ancestor) pair (rotation and shift, 24 multiplications); with common axes it is one cross product
// (6), plus C9's 6-term dot product. The rotations are composed once per body in C1.
// C3–C9 run per DoF over the expanded parent array μ (docs/notation.md): for DoF k of body i,
// f = Ic_i s_k and H_kl = fᵀ s_l for l = k, μ(k), μ(μ(k)), …, shifting the moment whenever l enters
// the parent body (every body has at least one DoF: fixed joints are merged at build); inside one body
// μ(k) = k − 1, so that walk yields the n_i × n_i block of C4 (lower triangle, mirrored) and then every
// ancestor column of C9, for 1-DoF and multi-DoF joints alike, with fixed-size 3-vectors only.
// Indexing: paper body i ↔ code i−1; "λ(j) ≠ 0" ↔ "parent != no_parent".
// Storage. The walk l = k, μ(k), μ(μ(k)), … of DoF k is exactly packed row k of model.h_pattern()
// (kernels/ltdl_packed.hpp: [H_kk, H_k,μ(k), …]), so C4 and C9 write each entry once, in order, into
// data.H = the lower triangle of H on its structural (ancestor) entries, n + D1 numbers; the branch-induced
// zeros and the upper triangle are not stored (the paper's §5 keeps them in a dense H set to zero once).
// Contract: q has model.nq() entries. Writes data.H (packed, as above) and fills data.Xup, data.R_root,
// data.o_parent, data.S_root and data.IC (root axes, about each body's own origin). Returns data.H.
// dense_H(model, data[, out]) unpacks it into the full symmetric n×n H: the allocating form is a
// setup-time convenience, the form with a caller-sized `out` never allocates.
// Cost for 1-DoF joints: D0 (ra + rx + vx) + N' rotation compositions + D1 (cross product + 6-term dot
// product) (N' = bodies of depth ≥ 3), against the paper's eq. 14, D0 (ra + rx) + D1·vx (ra, rx, vx:
// rigid-body add, rigid-body transform, vector transform). Measured:
// docs/design-notes.md#the-crba-takes-moments-about-each-bodys-own-origin.
// noexcept; never allocates.
// Accuracy: C1 maps S_i with R_iᵀ, which is R_i⁻¹ to working precision: the builder's rotations are
// orthonormal in the scalar they were built in, and Model::cast re-orthonormalises them when it widens
// (a Model<long double> cast from Model<double> would otherwise carry 1e-16 non-orthogonality, and H
// would disagree with RNEA's transforms at that level).
// The inward loop visits i in Model::inward_order() (deepest first): the same sums, to the bit, as
// i = N..1, while the steps of different branches overlap in the processor (model.hpp).
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {

template <class Scalar, int N, class Dq>
const PackedVector<Scalar, N>& crba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                                    const Eigen::MatrixBase<Dq>& q) noexcept {
  TREEDYN_SAME_SCALAR(Scalar, Dq, "q");
  if (!detail::model_data_q_ok("crba", model, data, q)) return data.H;
  if (!detail::joint_transforms(model, data, q, "crba")) return detail::fill_nan(data.H);
  for (int i = 0; i < model.nbodies(); ++i) {                                       // C1
    const MotionSubspace<Scalar>& S_i = model.motion_subspaces()[i];
    const int p = model.parent(i), vi = model.v_offset(i);
    if (p == no_parent) {                                                           // a root: R_i = 1
      data.R_root[i].setIdentity();
      data.IC[i] = model.inertia(i);
      data.S_root.middleCols(vi, S_i.cols()) = S_i;
      continue;
    }
    const Transform<Scalar>& X = data.Xup[i];
    Matrix3<Scalar>& R = data.R_root[i];
    if (model.parent(p) == no_parent) {                                             // the root's axes are p's
      R = X.E;
      data.o_parent[i] = X.r;
    } else {
      R = detail::rotate<false>(X.E, data.R_root[p]);
      data.o_parent[i] = detail::rotate<true>(data.R_root[p], X.r);
    }
    detail::rotated_inertia_into<true>(R, model.inertia(i), data.IC[i]);
    // S_i^r = R_iᵀ S_i, written half by half into S_root (a 6-vector temporary copied in would be reloaded
    // as straddling SIMD packets: a store-forwarding stall, see rnea.hpp)
    for (int c = 0; c < S_i.cols(); ++c) {
      data.S_root.col(vi + c).template head<3>() = detail::rotate<true>(R, Vector3<Scalar>(S_i.col(c).template head<3>()));
      data.S_root.col(vi + c).template tail<3>() = detail::rotate<true>(R, Vector3<Scalar>(S_i.col(c).template tail<3>()));
    }
  }
  const auto& mu = model.dof_parents();
  for (const int i : model.inward_order()) {                                        // C2
    const int vi = model.v_offset(i), ni = static_cast<int>(model.motion_subspaces()[i].cols());
    const RigidInertia<Scalar>& Ic = data.IC[i];
    for (int k = vi; k < vi + ni; ++k) {                                            // DoF k: column k of S_i^r
      const auto s = data.S_root.col(k);
      const Vector3<Scalar> sw = s.template head<3>(), sv = s.template tail<3>();
      const Vector3<Scalar> f = Ic.m * sv - detail::cross(Ic.h, sw);                               // C3
      Vector3<Scalar> n = Ic.I * sw + detail::cross(Ic.h, sv);
      Scalar* H_k = data.H.data() + model.h_pattern().row_start(k);                 // packed row k
      int body = i;
      for (int l = k; l != no_parent; l = mu[l]) {                                  // C4, C6–C8
        if (model.dof_body(l) != body) {                                            // l is in λ(body): C8
          n += detail::cross(data.o_parent[body], f);
          body = model.dof_body(l);
        }
        const auto sl = data.S_root.col(l);
        *H_k++ = n.dot(sl.template head<3>()) + f.dot(sl.template tail<3>());       // C9: H_kl
      }
    }
    const int p = model.parent(i);
    if (p != no_parent)                                                             // C5: about λ(i)'s origin
      data.IC[p] += detail::shift_origin(Ic.m, Ic.h, Ic.I, Vector3<Scalar>(-data.o_parent[i]));
  }
  return data.H;
}

/// out ← H, full symmetric n×n, from the packed data.H of the last crba: the structural entries and
/// their mirror images, 0 elsewhere. out must be model.nv() × model.nv(); never allocates.
template <class Scalar, int N, class Dout>
void dense_H(const Model<Scalar, N>& model, const Data<Scalar, N>& data, Eigen::MatrixBase<Dout>& out) noexcept {
  TREEDYN_ASSERT(out.rows() == model.nv() && out.cols() == model.nv(), "dense_H: out must be nv × nv");
  out.setZero();
  model.h_pattern().unpack(data.H, out);                                            // lower triangle
  for (Eigen::Index j = 1; j < out.cols(); ++j)
    for (Eigen::Index i = 0; i < j; ++i) out(i, j) = out(j, i);                      // mirrored
}
template <class Scalar, int N, class Dout>
void dense_H(const Model<Scalar, N>& model, const Data<Scalar, N>& data, Eigen::MatrixBase<Dout>&& out) noexcept {
  dense_H(model, data, out);
}

/// H, full symmetric n×n, from the packed data.H of the last crba, as a new matrix (allocates for N =
/// Dynamic: a setup-time convenience).
template <class Scalar, int N>
MatrixN<Scalar, N> dense_H(const Model<Scalar, N>& model, const Data<Scalar, N>& data) {
  MatrixN<Scalar, N> out(model.nv(), model.nv());
  dense_H(model, data, out);
  return out;
}

}  // namespace treedyn
