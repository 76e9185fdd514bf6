// crba: the joint-space inertia matrix H(q) by the composite-rigid-body algorithm, touching only nonzeros.
//
// Reference: Featherstone (2005) §5 (docs/references.md; the CRBA listing before eq. 17), extended to
// multi-DoF joints over the expanded parent array (below); Featherstone, Rigid Body Dynamics
// Algorithms, 2008, Table 6.2. The paper's loop order is kept (backward over i, the composite inertia
// accumulated into the parent, then a walk up the ancestors writing H_ij), but every quantity is expressed
// in ROOT-BODY coordinates: r(i) is the root of i's subtree (the body above i whose parent is the fixed
// base), ^i X_r = ^i X_λ(i) · ^λ(i) X_r, and for a root ^r X_r = 1.
//   C1  for i = 1..N:  ^i X_r;  S_i^r = (^i X_r)⁻¹ S_i;  Ic_i = (^i X_r)ᵀ I_i ^i X_r     (root coordinates)
//   C2  for i = N..1:
//   C3     F = Ic_i S_i^r                              (6 × n_i)
//   C4     H[vi(i), vi(i)] = S_i^rᵀ F
//   C5     if λ(i) ≠ 0:  Ic_λ(i) += Ic_i                (same coordinates: no transform)
//   C6     j = i
//   C7     while λ(j) ≠ 0:
//   C8        j = λ(j)                                (F stays in root coordinates: no force transform)
//   C9        H[vi(i), vi(j)] = Fᵀ S_j^r;  H[vi(j), vi(i)] = its transpose
// Why these coordinates: the paper's C8 transforms F once per (body, ancestor) pair, D1 force transforms
// (24 multiplications each); with one common frame per subtree H_ij is a bare 6-term dot product, at the
// price of O(N) work in C1 (one composition, one motion transform per DoF, the inertia transform the
// local form spends in C5 anyway). Chains and deep trees gain most (D1 = O(N²) for a chain). The subtree's
// root body, not the world: H does not depend on where the root sits, so neither does the rounding (a
// free-flyer far from the origin costs no accuracy), roots need no transform at all and their children
// only ^i X_λ(i). Bodies in different subtrees never share a composite inertia or an H entry.
// C3–C9 run per DoF over the expanded parent array μ (docs/notation.md): for DoF k of body i,
// f = Ic_i s_k and H_kl = fᵀ s_l for l = k, μ(k), μ(μ(k)), …; inside one body μ(k) = k − 1, so that walk
// yields the n_i × n_i block of C4 (lower triangle, mirrored) and then every ancestor column of C9, for
// 1-DoF and multi-DoF joints alike, with fixed-size 6-vectors only.
// Indexing: paper body i ↔ code i−1; "λ(j) ≠ 0" ↔ "parent != no_parent".
// Contract: q has model.nq() entries. Writes the branch-induced nonzeros of data.H (both triangles) and
// nothing else: the zeros were set once when Data was built (the paper's §5: "the zero elements must be
// initialized to zero at least once"). Also fills data.Xup, data.X_root, data.S_root and data.IC (root-body
// coordinates). Returns data.H.
// Cost for 1-DoF joints: D0 (ra + rx + vx) + N' compositions + D1 6-term dot products
// (N' = bodies of depth ≥ 3), against the paper's eq. 14, D0 (ra + rx) + D1·vx (ra, rx, vx: rigid-body add,
// rigid-body transform, vector transform). Faster than the local form on every robot benchmarked, in
// float and double, most on chains (see the README's benchmark section).
// noexcept; never allocates.
// Accuracy: moment terms of S_j^r and Ic_i grow with the distance from the root body, so cancellation in
// H_ij grows with the robot's reach (not with its position in the world). C1 maps S_i with Eᵀ, which is
// E⁻¹ to working precision: the builder's rotations are orthonormal in the scalar they were built in, and
// Model::cast re-orthonormalises them when it widens (a Model<long double> cast from Model<double> would
// otherwise carry 1e-16 non-orthogonality, and H would disagree with RNEA's transforms at that level).
#pragma once

#include "treedyn/algorithms/detail/outward_pass.hpp"

namespace treedyn {

template <class Scalar, int N, class Dq>
const MatrixN<Scalar, N>& crba(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                               const Eigen::MatrixBase<Dq>& q) noexcept {
  detail::joint_transforms(model, data, q);
  for (int i = 0; i < model.nbodies(); ++i) {                                       // C1
    const MotionSubspace<Scalar>& S_i = model.motion_subspace(i);
    const int p = model.parent(i), vi = model.v_offset(i);
    if (p == no_parent) {                                                           // a root: ^r X_r = 1
      data.IC[i] = model.inertia(i);
      data.S_root.middleCols(vi, S_i.cols()) = S_i;
      continue;
    }
    Transform<Scalar>& X = data.X_root[i];
    X = (model.parent(p) == no_parent) ? data.Xup[i] : data.Xup[i] * data.X_root[p];  // ^i X_r
    data.IC[i] = apply_transpose_inertia(X, model.inertia(i));
    // S_i^r = (^i X_r)⁻¹ S_i = [Eᵀ w; Eᵀ v + r × Eᵀ w], written half by half into S_root (a 6-vector
    // temporary copied in would be reloaded as straddling SIMD packets: a store-forwarding stall, see rnea.hpp)
    for (int c = 0; c < S_i.cols(); ++c) {
      const Vector3<Scalar> w = X.E.transpose() * S_i.col(c).template head<3>();
      data.S_root.col(vi + c).template head<3>() = w;
      data.S_root.col(vi + c).template tail<3>() = X.E.transpose() * S_i.col(c).template tail<3>() + X.r.cross(w);
    }
  }
  const auto& mu = model.dof_parents();
  for (int i = model.nbodies() - 1; i >= 0; --i) {                                  // C2
    const int vi = model.v_offset(i), ni = static_cast<int>(model.motion_subspace(i).cols());
    for (int k = vi; k < vi + ni; ++k) {                                            // DoF k: column k of S_i^r
      const Force<Scalar> F = data.IC[i].apply(data.S_root.col(k));                 // C3, one column
      for (int l = k; l != no_parent; l = mu[l])                                    // C4, C6–C8
        data.H(k, l) = data.H(l, k) = F.dot(data.S_root.col(l));                    // C9
    }
    const int p = model.parent(i);
    if (p != no_parent) data.IC[p] += data.IC[i];                                   // C5
  }
  return data.H;
}

}  // namespace treedyn
