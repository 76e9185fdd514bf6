// bench_lanes, the dynamics: the kernels over treedyn::Lanes (include/treedyn/lanes/lanes.hpp,
// docs/lanes.md#speed), W states per call in SIMD lanes, against the scalar float and double kernel, one state
// per call, in the same run: RNEA, CRBA, ABA, FDCRBA (forward_dynamics_crba), FactorSolveH (factor_H, then
// solve_H of a copy of q̇, on the H of a crba run before the loop) and FrameJacobian (world-aligned, last body,
// after a forward_kinematics run before the loop). Models, states, scalars and names: support/lanes.hpp.
#include <type_traits>

#include "support/lanes.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/factor_h.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/rnea.hpp"

namespace {

/// The kernels timed (no workspace); x is q̈ or τ, and a scratch vector for solve_H.
const auto kernels = [](auto&& each) {
  each("RNEA", [](const auto& m, auto& d, auto&, const auto& q, const auto& qd, auto& x) { return treedyn::rnea(m, d, q, qd, x).data(); });
  each("CRBA", [](const auto& m, auto& d, auto&, const auto& q, const auto&, auto&) { return treedyn::crba(m, d, q).data(); });
  each("ABA", [](const auto& m, auto& d, auto&, const auto& q, const auto& qd, auto& x) { return treedyn::aba(m, d, q, qd, x).data(); });
  each("FDCRBA", [](const auto& m, auto& d, auto&, const auto& q, const auto& qd, auto& x) {
    return treedyn::forward_dynamics_crba(m, d, q, qd, x).data();
  });
  each("FactorSolveH", [](const auto& m, auto& d, auto&, const auto&, const auto& qd, auto& x) {
    treedyn::factor_H(m, d);
    x = qd;  // the right-hand side afresh (an nv-vector copy, in the time): x ← H⁻¹ⁿ x would drift to denormals
    treedyn::solve_H(m, d, x);
    return x.data();
  });
  each("FrameJacobian", [](const auto& m, auto& d, auto&, const auto&, const auto&, auto&) {
    return treedyn::frame_jacobian(m, d, m.nbodies() - 1, std::decay_t<decltype(m.tree_transform(0))>::identity(),
                                   treedyn::ReferenceFrame::world_aligned)
        .data();
  });
};

const bool registered = treedyn::bench::register_every_scalar<treedyn::bench::NoWorkspace>(kernels);

}  // namespace
