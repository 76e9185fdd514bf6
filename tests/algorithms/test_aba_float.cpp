// aba and modified_aba in float stay within c·n·ε·κ(H) of a long double run on the same model.
#include <catch2/catch.hpp>

#include "algorithms/aba_methods.hpp"
#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/crba.hpp"

using namespace treedyn;
using namespace treedyn::test;

TEST_CASE("float aba and modified_aba stay within c·n·ε·κ(H) of a long double run", "[aba][float]") {
  int index = 0;
  for (auto& c : robot_cases<long double>(20)) {
    INFO(c.name);
    const int n = c.model.nv();
    const Model<float> mf = c.model.template cast<float>();
    const Model<long double> ml = mf.template cast<long double>();
    Data<float> df(mf);
    Data<long double> dl(ml);
    const State<float> s = random_state(mf, 4500u + static_cast<unsigned>(index++));
    const Eigen::VectorXf tau = Eigen::VectorXf::LinSpaced(n, -1.0f, 1.0f);
    const Eigen::Matrix<long double, Eigen::Dynamic, 1> ql =
        aba(ml, dl, s.q.cast<long double>(), s.qd.cast<long double>(), tau.cast<long double>());
    crba(ml, dl, s.q.cast<long double>());
    const double kappa = spd_condition(dense_H(ml, dl));
    for (Method m : {Method::aba, Method::modified_aba}) {
      INFO(name(m));
      const Eigen::VectorXf qf = run(m, mf, df, s.q, s.qd, tau);
      REQUIRE(df.aba_status.ok());
      const double rel = static_cast<double>((qf.cast<long double>() - ql).norm() / (ql.norm() + 1));
      INFO("relative error " << rel << ", κ(H) = " << kappa);
      REQUIRE(rel <= 64.0 * (n + 1) * eps<float>() * kappa);
    }
  }
}
