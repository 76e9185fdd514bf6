// The compiled component (treedyn/compiled.hpp, treedyn::compiled): this unit declares every instantiation
// extern and links them from the library, so it compiles and links only if each line of
// detail/instantiations.hpp names a real template and the library defines it. Then the linked code is
// checked: the three forward-dynamics routes agree, rnea inverts them, the strided-map forms equal the dense
// forms to rounding (the same templates on the same numbers; Eigen may sum a contiguous vector in packets and a
// strided one in order), the two external-force types give the same torques to rounding, and the tick's
// factor solves as forward_dynamics_crba does.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <treedyn/compiled.hpp>

#include "treedyn/robots/robots.hpp"

namespace {

using namespace treedyn;

template <class S>
using VectorX = Eigen::Matrix<S, Eigen::Dynamic, 1>;

template <class S>
StridedVectorMap<S> mapped(const VectorX<S>& v) {
  return StridedVectorMap<S>(v.data(), v.size(), Eigen::InnerStride<>(1));
}

/// a and b equal up to a few roundings of their largest entry.
template <class A, class B>
bool same(const A& a, const B& b) {
  using S = typename A::Scalar;
  const S scale = S(1) + a.cwiseAbs().maxCoeff();
  return (a - b).cwiseAbs().maxCoeff() <= S(16) * std::numeric_limits<S>::epsilon() * scale;
}

template <class S>
S tolerance(int n) {
  return S(1e3) * S(n) * std::numeric_limits<S>::epsilon();
}

}  // namespace

TEMPLATE_TEST_CASE("compiled: the linked instantiations run and agree", "[compiled]", float, double) {
  using S = TestType;
  const Model<S> model = robots::humanoid30<double>().template cast<S>();
  Data<S> data(model);
  const int nv = model.nv();
  VectorX<S> q = neutral(model);
  const VectorX<S> v = VectorX<S>::LinSpaced(nv, S(-0.5), S(0.5));
  const VectorX<S> tau = VectorX<S>::LinSpaced(nv, S(1), S(-1));
  VectorX<S> q1(model.nq());
  integrate(model, q, v, S(0.1), q1);
  q = q1;

  const VectorX<S> qdd_aba = aba(model, data, q, v, tau);
  REQUIRE(data.aba_status.ok());
  const VectorX<S> qdd_mod = modified_aba(model, data, q, v, tau);
  const VectorX<S> qdd_crba = forward_dynamics_crba(model, data, q, v, tau);
  const S scale = S(1) + qdd_aba.cwiseAbs().maxCoeff();
  CHECK((qdd_mod - qdd_aba).cwiseAbs().maxCoeff() <= tolerance<S>(nv) * scale);
  CHECK((qdd_crba - qdd_aba).cwiseAbs().maxCoeff() <= tolerance<S>(nv) * scale);
  const VectorX<S> tau_back = rnea(model, data, q, v, qdd_aba);
  CHECK((tau_back - tau).cwiseAbs().maxCoeff() <= tolerance<S>(nv) * (S(1) + tau.cwiseAbs().maxCoeff()) * scale);

  // H from crba (dense_H) against H⁻¹ from both inverses: H H⁻¹ = 1.
  crba(model, data, q);
  const MatrixN<S, Dynamic> H = dense_H(model, data);
  MinverseLtdlWorkspace<S> ltdl_ws(model);
  MinverseAbaWorkspace<S> aba_ws(model);
  const MatrixN<S, Dynamic> Hinv_ltdl = minverse_ltdl(model, data, ltdl_ws, q);
  const MatrixN<S, Dynamic> Hinv_aba = minverse_aba(model, data, aba_ws, q);
  const MatrixN<S, Dynamic> I = MatrixN<S, Dynamic>::Identity(nv, nv);
  CHECK((H * Hinv_ltdl - I).cwiseAbs().maxCoeff() <= S(100) * tolerance<S>(nv));
  CHECK((H * Hinv_aba - I).cwiseAbs().maxCoeff() <= S(100) * tolerance<S>(nv));

  // The operational-space routes on two frames.
  OperationalFrames<S> frames(model);
  frames.add(model.nbodies() - 1, Transform<S>::identity());
  frames.add(model.nbodies() / 2, Transform<S>::identity());
  const auto C_rec = oscm(model, data, frames, q).eval();
  const auto C_faithful = oscm_faithful(model, data, frames, q).eval();
  const auto C_dense = oscm_dense(model, data, frames, q).eval();
  const S c_scale = C_dense.cwiseAbs().maxCoeff();
  CHECK((C_rec - C_dense).cwiseAbs().maxCoeff() <= S(10) * tolerance<S>(nv) * c_scale);
  CHECK((C_faithful - C_dense).cwiseAbs().maxCoeff() <= S(10) * tolerance<S>(nv) * c_scale);
  const auto L = osim(model, data, frames, q).eval();
  REQUIRE(frames.status.ok());
  CHECK((L * C_dense - MatrixN<S, Dynamic>::Identity(12, 12)).cwiseAbs().maxCoeff() <=
        S(1e3) * tolerance<S>(nv));

  // The strided-map forms: the same templates on the same numbers.
  CHECK(same(qdd_aba, aba(model, data, mapped(q), mapped(v), mapped(tau))));
  CHECK(same(qdd_crba, forward_dynamics_crba(model, data, mapped(q), mapped(v), mapped(tau))));
  CHECK(same(qdd_mod, modified_aba(model, data, mapped(q), mapped(v), mapped(tau))));
  CHECK(same(tau_back, rnea(model, data, mapped(q), mapped(v), mapped(qdd_aba))));
  CHECK(same(Hinv_aba, minverse_aba(model, data, aba_ws, mapped(q))));
  CHECK(same(C_rec, oscm(model, data, frames, mapped(q))));

  // External forces: a std::vector<Force> and ForceRows over the same numbers.
  std::vector<Force<S>> f(static_cast<std::size_t>(model.nbodies()));
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = Force<S>::Constant(S(0.01) * S(i + 1));
  Eigen::Matrix<S, Eigen::Dynamic, 6, Eigen::RowMajor> rows(model.nbodies(), 6);
  for (int i = 0; i < model.nbodies(); ++i) rows.row(i) = f[static_cast<std::size_t>(i)].transpose();
  const ForceRows<S> f_rows{rows.data(), 6, 1, model.nbodies()};
  const VectorX<S> tau_f = rnea(model, data, q, v, qdd_aba, f);
  CHECK(same(tau_f, rnea(model, data, mapped(q), mapped(v), mapped(qdd_aba), f_rows)));
  CHECK((tau_f - tau_back).cwiseAbs().maxCoeff() > 0);  // the forces act
  const VectorX<S> qdd_f = aba(model, data, q, v, tau_f, f);
  CHECK((qdd_f - qdd_aba).cwiseAbs().maxCoeff() <= tolerance<S>(nv) * scale);
  CHECK(same(qdd_f, aba(model, data, mapped(q), mapped(v), mapped(tau_f), f_rows)));

  // Frames and Jacobians.
  forward_kinematics(model, data, q);
  const auto J = frame_jacobian(model, data, model.nbodies() - 1, Transform<S>::identity(), ReferenceFrame::world_aligned).eval();
  CHECK(J.cols() == nv);
  VectorX<S> dq(nv);
  difference(model, q, q1, dq);
  CHECK(dq.cwiseAbs().maxCoeff() == S(0));

  // The tick and its parts: q̈ = H⁻¹ (τ − C) from the tick's factor is forward_dynamics_crba's.
  REQUIRE(compute_all_terms(model, data, q, v).ok());
  const VectorX<S> g = data.g;
  VectorX<S> x = tau - data.C;
  REQUIRE(solve_H(model, data, x).ok());
  CHECK((x - qdd_crba).cwiseAbs().maxCoeff() <= tolerance<S>(nv) * scale);
  const int last = static_cast<int>(model.frames().size()) - 1;
  const Transform<S> X_last = frame_placement(model, data, last);
  CHECK(X_last.r == data.X_frame[last].r);
  CHECK(frame_placement(model, data, model.frames().back()).E == data.X_frame[last].E);
  CHECK(frame_placements(model, data).size() == last + 1);
  REQUIRE(factor_H(model, data).ok());
  CHECK(g == gravity_torques(model, data, q));
  CHECK(same(g, gravity_torques(model, data, mapped(q))));
  REQUIRE(compute_all_terms(model, data, mapped(q), mapped(v)).ok());
  CHECK(same(g, data.g));
}

TEMPLATE_TEST_CASE("compiled: the Schur and Fixman routes run from the library", "[compiled]", float, double) {
  using S = TestType;
  const Model<S> model = robots::puma560<double>().template cast<S>();
  Data<S> data(model);
  const VectorX<S> q = VectorX<S>::LinSpaced(model.nq(), S(0.1), S(0.7));
  const VectorX<S> b = VectorX<S>::LinSpaced(model.nv(), S(1), S(2));
  MinverseLtdlWorkspace<S> ltdl_ws(model);
  const VectorX<S> x_ref = minverse_ltdl(model, data, ltdl_ws, q) * b;
  SchurWorkspace<S> schur(model);
  const VectorX<S> x_schur = minverse_apply_schur(model, data, schur, q, b);
  const auto Minv_schur = minverse_schur(model, data, schur, q).eval();
  FixmanWorkspace<S> fixman(model);
  const VectorX<S> x_fixman = minverse_apply_fixman(model, data, fixman, q, b);
  const S scale = x_ref.cwiseAbs().maxCoeff();
  const S tol = S(1e5) * std::numeric_limits<S>::epsilon() * scale;  // κ(H) of the PUMA is about 1e2–1e3
  CHECK((x_schur - x_ref).cwiseAbs().maxCoeff() <= tol);
  CHECK((Minv_schur * b - x_ref).cwiseAbs().maxCoeff() <= tol);
  CHECK((x_fixman - x_ref).cwiseAbs().maxCoeff() <= tol);
}
