// The Coriolis matrix C(q, q̇) (coriolis_matrix.hpp, issue 42) on every built-in robot, random trees with every
// joint type (free flyers and spherical joints included) and two ill-conditioned chains of seed 004 (Table 1's
// two-link chain at r = 1e-3, Example 2's collinear masses at m1 = 1e-4), in float and double, against
// references computed in boost cpp_bin_float_50 on the same (rounded) model and state:
//   - C q̇ = rnea(q, q̇, 0) − gravity_torques(q), the RNEA's velocity terms;
//   - C + Cᵀ = Ḣ (equivalently Ḣ − 2C skew-symmetric), Ḣ by central differences of crba's H along q̇,
//     q(t) = integrate(q, t q̇), h = 1e-15 (truncation ~h², rounding ~1e-50/h: far below double's ε).
// The same identities are checked on the 50-digit C itself (to 1e-25), so they hold of the formula and not
// only of its rounding. Also: a non-finite q̇ or a zero quaternion gives NaN and a status.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "support/robot_cases.hpp"
#include "support/seed004_cases.hpp"
#include "support/tolerance.hpp"
#include "support/unit_quaternions.hpp"
#include "treedyn/algorithms/coriolis_matrix.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/gravity_torques.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/model/configuration.hpp"

using namespace treedyn;
using namespace treedyn::test;

namespace {

using B = boost::multiprecision::cpp_bin_float_50;
using VecB = Eigen::Matrix<B, Eigen::Dynamic, 1>;
using MatB = Eigen::Matrix<B, Eigen::Dynamic, Eigen::Dynamic>;

/// The 50-digit references at one state: Ḣ, C q̇, C (coriolis_matrix in 50 digits) and the scale of C's terms.
struct Reference {
  MatB dH, C;
  VecB Cqd;
  double scale = 1;
};

/// max |a − b| over the entries, as a double.
template <class D1, class D2>
double err(const Eigen::MatrixBase<D1>& a, const Eigen::MatrixBase<D2>& b) {
  return static_cast<double>((a.template cast<B>() - b.template cast<B>()).cwiseAbs().maxCoeff());
}

MatB H_at(const Model<B>& m, Data<B>& d, const VecB& q) {
  crba(m, d, q);
  return dense_H(m, d);
}

template <class T>
Reference reference(const Model<T>& model_t, const State<T>& s) {
  const Model<B> m = model_t.template cast<B>();
  const VecB q = unit_quaternions(m, VecB(s.q.template cast<B>()));  // support/unit_quaternions.hpp says why
  const VecB qd = s.qd.template cast<B>();
  const B h("1e-15");
  VecB qp(m.nq()), qm(m.nq());
  integrate(m, q, qd, h, qp);
  integrate(m, q, qd, B(-h), qm);
  Data<B> d(m);
  Reference r;
  r.dH = (H_at(m, d, qp) - H_at(m, d, qm)) / (2 * h);
  const MatB H = H_at(m, d, q);
  rnea(m, d, q, qd, VecB::Zero(m.nv()));
  const VecB tau = d.tau;
  gravity_torques(m, d, q);
  r.Cqd = tau - d.g;
  CoriolisMatrixWorkspace<B> ws(m);
  REQUIRE(coriolis_matrix(m, d, ws, q, qd).ok());
  r.C = ws.C;
  // C's entries are sums of inertia × velocity terms: |H| times the largest body speed bound Σ|q̇| (1 + D),
  // D the largest distance of a body origin from body 0's (the moment arm a joint's rotation carries)
  B D = 0;
  for (int i = 0; i < m.nbodies(); ++i) D = std::max(D, B((d.X_world[i].r - d.X_world[0].r).norm()));
  r.scale = static_cast<double>(H.cwiseAbs().maxCoeff() * (1 + qd.cwiseAbs().sum()) * (1 + D));
  return r;
}

}  // namespace

TEMPLATE_TEST_CASE("coriolis_matrix: C q̇ is the RNEA's velocity terms and Ḣ − 2C is skew, against 50 digits",
                   "[coriolis]", float, double) {
  using T = TestType;
  double worst_Cqd = 0, worst_skew = 0, worst_C = 0;
  std::vector<RobotCase<T>> typed;
  for (const RobotCase<double>& c : robot_cases_and_seed004(16)) typed.push_back({c.name, c.model.template cast<T>()});
  for_each_robot_state(typed, 4242, [&](const RobotCase<T>& c, const State<T>& s) {
    const Model<T>& model = c.model;
    Data<T> data(model);
    CoriolisMatrixWorkspace<T> ws(model);
    REQUIRE(coriolis_matrix(model, data, ws, s.q, s.qd).ok());
    const Reference r = reference(model, s);
    const int n = model.nv();
    // the formula in 50 digits
    CHECK(err(MatB(r.C + r.C.transpose()), r.dH) <= 1e-25 * r.scale);
    CHECK(err(VecB(r.C * s.qd.template cast<B>()), r.Cqd) <= 1e-25 * r.scale);
    // the scalar T: C q̇ sums n entries of C times q̇, one more factor Σ|q̇| on the scale
    const double tol = tolerance<T>(16, model.nbodies(), r.scale);
    const double qd1 = 1 + static_cast<double>(s.qd.cwiseAbs().sum());
    const double e_Cqd = err(Eigen::Matrix<T, Eigen::Dynamic, 1>(ws.C * s.qd), r.Cqd) / (tol * qd1);
    const double e_skew = err(MatrixN<T, Dynamic>(ws.C + ws.C.transpose()), r.dH) / tol;
    const double e_C = err(ws.C, r.C) / tol;
    INFO("n " << n << ": C q̇ " << e_Cqd << ", C + Cᵀ − Ḣ " << e_skew << ", C " << e_C << " of the bound");
    CHECK(e_Cqd <= 1.0);
    CHECK(e_skew <= 1.0);
    CHECK(e_C <= 1.0);
    worst_Cqd = std::max(worst_Cqd, e_Cqd);
    worst_skew = std::max(worst_skew, e_skew);
    worst_C = std::max(worst_C, e_C);
  });
  std::printf("coriolis_matrix in %s: worst ratio to 16·nb·ε·scale: C q̇ %.3g, C + Cᵀ − Ḣ %.3g, C %.3g\n",
              sizeof(T) == 4 ? "float" : "double", worst_Cqd, worst_skew, worst_C);
}

TEST_CASE("coriolis_matrix: a non-finite q̇ or a zero quaternion gives NaN and a status", "[coriolis][checks]") {
  const Model<double> model = robots::humanoid30<double>();
  Data<double> data(model);
  CoriolisMatrixWorkspace<double> ws(model);
  Eigen::VectorXd q = random_configuration(model, 7);
  Eigen::VectorXd qd = Eigen::VectorXd::Ones(model.nv());
  REQUIRE(coriolis_matrix(model, data, ws, q, qd).ok());
  CHECK(ws.C.allFinite());
  qd(4) = std::nan("");
  const Status s = coriolis_matrix(model, data, ws, q, qd);
  CHECK(s.code == Status::Code::non_finite_input);
  CHECK(std::string(s.argument) == "qd");
  CHECK(s.row == 4);
  CHECK(ws.C.array().isNaN().all());
  qd(4) = 1;
  q.segment<4>(3).setZero();  // the torso's quaternion
  CHECK(coriolis_matrix(model, data, ws, q, qd).code == Status::Code::invalid_configuration);
  CHECK(ws.C.array().isNaN().all());
  CHECK(ws.status.code == Status::Code::invalid_configuration);
}
