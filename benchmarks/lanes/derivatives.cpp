// bench_lanes, the derivatives (docs/lanes.md#speed, docs/derivatives.md): RNEADerivatives (rnea_derivatives:
// ∂τ/∂q, ∂τ/∂q̇ at (q, q̇, q̈)) and ABADerivatives (aba_derivatives: ∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ at (q, q̇, τ = x)) over
// treedyn::Lanes against the scalar float and double calls, in the same run; each with its workspace built
// before the loop. In a unit of their own: beside the dynamics' kernels in one unit they changed how GCC
// inlined those (RNEA on lanes-float8 was 1.4× slower per state). Models, states, scalars and names:
// support/lanes.hpp.
#include "support/lanes.hpp"
#include "treedyn/algorithms/aba_derivatives.hpp"
#include "treedyn/algorithms/rnea_derivatives.hpp"

namespace {

/// Both calls' workspaces, built once per benchmark.
template <class S>
struct Workspaces {
  explicit Workspaces(const treedyn::Model<S>& model) : rnea(model), aba(model) {}
  treedyn::RneaDerivativesWorkspace<S> rnea;
  treedyn::AbaDerivativesWorkspace<S> aba;
};

const auto kernels = [](auto&& each) {
  each("RNEADerivatives", [](const auto& m, auto& d, auto& ws, const auto& q, const auto& qd, auto& x) {
    treedyn::rnea_derivatives(m, d, ws.rnea, q, qd, x);
    return ws.rnea.dtau_dq.data();
  });
  each("ABADerivatives", [](const auto& m, auto& d, auto& ws, const auto& q, const auto& qd, auto& x) {
    treedyn::aba_derivatives(m, d, ws.aba, q, qd, x);
    return ws.aba.ddq_dq.data();
  });
};

const bool registered = treedyn::bench::register_every_scalar<Workspaces>(kernels);

}  // namespace
