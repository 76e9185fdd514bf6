// The row groups of contact_step (contact/contact_step.hpp) as operational frames: their relative velocities,
// their block of the compliance G = Q Λ⁻¹ Qᵀ, and an impulse on them applied to the joint velocities.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "treedyn/algorithms/detail/outward_pass.hpp"
#include "treedyn/algorithms/impulse_aba.hpp"
#include "treedyn/algorithms/operational_frames.hpp"

namespace treedyn::detail {

/// The relative velocities of the row groups at joint velocities v (one velocity pass) into out.
template <class Scalar, int N, class Groups, class Dv, class Dout>
void constraint_velocities(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                           const OperationalFrames<Scalar>& frames, const Groups& groups,
                           const Eigen::MatrixBase<Dv>& v, Eigen::MatrixBase<Dout>& out) noexcept {
  for (int i = 0; i < model.nbodies(); ++i) body_velocity(model, data, v, i);
  const auto frame_velocity = [&](int f) -> Motion<Scalar> {
    return frames.placement(f).apply_motion(data.v[frames.body(f)]);
  };
  for (const auto& g : groups) {
    const Motion<Scalar> va = frame_velocity(g.frame_a);
    const Motion<Scalar> vb = g.frame_b < 0 ? Motion<Scalar>::Zero().eval() : frame_velocity(g.frame_b);
    for (int k = 0; k < g.count; ++k) {
      const int r = frames.row_index(g.frame_a, k);
      out(g.row + k) = va(r) - vb(r);
    }
  }
}

/// G_cd = Λ⁻¹(a_c, a_d) − Λ⁻¹(a_c, b_d) − Λ⁻¹(b_c, a_d) + Λ⁻¹(b_c, b_d) for every pair of row groups (T2).
template <class Scalar, class Groups, class DG>
void assemble_constraint_compliance(const OperationalFrames<Scalar>& frames, const Groups& groups,
                                    Eigen::MatrixBase<DG>& G) noexcept {
  const auto& L = frames.compliance;
  for (const auto& c : groups)
    for (const auto& d : groups) {
      auto block = G.block(c.row, d.row, c.count, d.count);
      block = L.block(frames.row_offset(c.frame_a), frames.row_offset(d.frame_a), c.count, d.count);
      if (d.frame_b >= 0) block -= L.block(frames.row_offset(c.frame_a), frames.row_offset(d.frame_b), c.count, d.count);
      if (c.frame_b >= 0) {
        block -= L.block(frames.row_offset(c.frame_b), frames.row_offset(d.frame_a), c.count, d.count);
        if (d.frame_b >= 0) block += L.block(frames.row_offset(c.frame_b), frames.row_offset(d.frame_b), c.count, d.count);
      }
    }
}

/// The body impulses of row-group impulses: linear impulse F (world, 3 per contact group) or the bilateral
/// rows' impulse, + on A's frame and − on B's, carried to body coordinates; then Δq̇ = M⁻¹ J* p by impulse_aba.
template <class Scalar, int N, class Groups, class Dp>
void apply_constraint_impulses(const Model<Scalar, N>& model, Data<Scalar, N>& data,
                               const OperationalFrames<Scalar>& frames, const Groups& groups,
                               std::vector<Force<Scalar>>& body_impulse, const Eigen::MatrixBase<Dp>& p,
                               Eigen::Matrix<Scalar, Eigen::Dynamic, 1>& dqd) noexcept {
  for (Force<Scalar>& f : body_impulse) f.setZero();
  for (const auto& g : groups) {
    Force<Scalar> phi = Force<Scalar>::Zero();
    for (int k = 0; k < g.count; ++k) phi(frames.row_index(g.frame_a, k)) = p(g.row + k);
    body_impulse[static_cast<std::size_t>(frames.body(g.frame_a))] += frames.placement(g.frame_a).apply_inverse_force(phi);
    if (g.frame_b >= 0)
      body_impulse[static_cast<std::size_t>(frames.body(g.frame_b))] -= frames.placement(g.frame_b).apply_inverse_force(phi);
  }
  impulse_aba(model, data, body_impulse, dqd);
}

}  // namespace treedyn::detail
