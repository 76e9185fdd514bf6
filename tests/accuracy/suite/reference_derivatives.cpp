// 50-digit derivatives of the dynamics (issue 41) by central differences in cpp_bin_float_50 along the tangent
// increments of q (q ⊕ h e_c = integrate(model, q, e_c, h), docs/derivatives.md#tangent-convention) and the
// entries of q̇: of τ = rnea(q, q̇, q̈) with q̈ the state's τ vector (as measure_dynamics' rnea row), and of
// q̈ = aba(q, q̇, τ). Step 1e-17: truncation ~h² ≈ 1e-34, rounding ~1e-50 / h ≈ 1e-33 relative, far below
// long double's ε. Independent of rnea_derivatives and aba_derivatives (only rnea, aba and integrate).
#include "accuracy/suite/reference_common.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"

namespace treedyn::accuracy {

namespace {

/// Central differences of fn(q, q̇) along every tangent increment of q (into dq) and entry of q̇ (into dv).
template <class Fn>
void central_differences(const Model<Real>& model, const VectorR& q, const VectorR& qd, Fn&& fn, MatrixL& dq,
                         MatrixL& dv) {
  const int n = model.nv();
  const Real h("1e-17");
  MatrixR Dq(n, n), Dv(n, n);
  VectorR qp(model.nq()), qm(model.nq());
  for (int c = 0; c < n; ++c) {
    const VectorR e = VectorR::Unit(n, c);
    integrate(model, q, e, h, qp);
    integrate(model, q, e, Real(-h), qm);
    Dq.col(c) = (fn(qp, qd) - fn(qm, qd)) / (2 * h);
    Dv.col(c) = (fn(q, VectorR(qd + h * e)) - fn(q, VectorR(qd - h * e))) / (2 * h);
  }
  dq = to_long_double(Dq);
  dv = to_long_double(Dv);
}

}  // namespace

DerivativeReference reference_derivatives(const Model<double>& model_d, const State& s) {
  const Model<Real> model = model_d.cast<Real>();
  Data<Real> data(model);
  const VectorR q = to_real(s.q), qd = to_real(s.qd), tau = to_real(s.tau);
  DerivativeReference ref;
  central_differences(
      model, q, qd, [&](const VectorR& x, const VectorR& xd) { return VectorR(rnea(model, data, x, xd, tau)); },
      ref.dtau_dq, ref.dtau_dv);
  central_differences(
      model, q, qd, [&](const VectorR& x, const VectorR& xd) { return VectorR(aba(model, data, x, xd, tau)); },
      ref.ddq_dq, ref.ddq_dv);
  return ref;
}

}  // namespace treedyn::accuracy
