// Ascher, Pai & Cloutier (1996) Examples 2–3 / Table 2: two collinear prismatic joints, base mass 1, tip mass
// m1 ∈ {1e6, 1e7, 1e8, 1e9}, τ = (9.81, 981), in float. Exact: base pivot D = 1, q̈_tip = 981/m1 + 971.19.
// What float must show: case 1 (s along e_z) — square-root-free CRBM elimination keeps the pivot at
// 1e7 (1e7 + 1 is a float) and loses it (0, singular) at 1e8 and 1e9; ABA and the modified ABA keep D = 1
// exactly (the projected entry is m − m·1 = 0). Case 2 (s = (e_y + e_z)/√2) — the modified ABA keeps D ≈ 1;
// the standard ABA and the CRBM are off by ≥ 1 % at 1e6 and singular or > 10 % wrong from 1e8.
// Caveat: in case 2 the modified ABA's correction term sᵀ M̃ s is a difference of
// O(m1) quantities; it comes out exactly 0 here because s has two equal components and the subtractions
// are Sterbenz-exact. Another operation order could leave an O(ε·m1) residue (64 at 1e9).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/kernels/kernels.hpp"
#include "treedyn/robots/collinear_masses.hpp"

using namespace treedyn;

namespace {

template <class T>
struct Outcome {
  T pivot;      ///< the base joint's pivot (the paper's D2)
  T qdd_tip;    ///< the tip acceleration (the paper's q̈1)
  bool ok;      ///< factorization / pivot status
};

template <class T>
Vector3<T> axis(int which) {
  return which == 1 ? Vector3<T>(T(0), T(0), T(1)) : Vector3<T>(T(0), T(1), T(1));
}

template <class T>
Eigen::Matrix<T, 2, 1> table2_tau() {
  return Eigen::Matrix<T, 2, 1>(T(9.81), T(981));
}

/// CRBM with square-root-free elimination (LDLᵀ): H from the CRBA, factored by the LTDL of Featherstone (2005).
template <class T>
Outcome<T> crbm_ldlt(T m1, int which) {
  const Model<T> model = robots::collinear_masses<T>(T(1), m1, axis<T>(which));
  Data<T> data(model);
  const Eigen::Matrix<T, 2, 1> zero = Eigen::Matrix<T, 2, 1>::Zero();
  crba(model, data, zero);
  Eigen::Matrix<T, 2, 2> A = dense_H(model, data);
  const FactorStatus status = ltdl(A, model.dof_parents());
  Eigen::Matrix<T, 2, 1> x = table2_tau<T>();
  if (status) ltdl_solve(A, model.dof_parents(), x);
  return {A(0, 0), x(1), status.ok()};
}

template <class T, class Method>
Outcome<T> articulated(T m1, int which, Method method) {
  const Model<T> model = robots::collinear_masses<T>(T(1), m1, axis<T>(which));
  Data<T> data(model);
  const Eigen::Matrix<T, 2, 1> zero = Eigen::Matrix<T, 2, 1>::Zero();
  const Eigen::Matrix<T, Eigen::Dynamic, 1> qdd = method(model, data, zero, zero, table2_tau<T>());
  return {data.D[0](0, 0), qdd(1), data.aba_status.ok()};
}

template <class T>
Outcome<T> run_aba(T m1, int which) {
  return articulated(m1, which, [](auto&&... a) { return aba(a...); });
}

template <class T>
Outcome<T> run_modified(T m1, int which) {
  return articulated(m1, which, [](auto&&... a) { return modified_aba(a...); });
}

const float masses[] = {1e6f, 1e7f, 1e8f, 1e9f};

}  // namespace

TEST_CASE("Table 2, case 1 (s = e_z), float: the CRBM loses the base pivot from 1e8, both ABMs keep it",
          "[aba][seed004][table2]") {
  for (float m1 : masses) {
    INFO("m1 = " << m1);
    const Outcome<float> crbm = crbm_ldlt(m1, 1);
    if (m1 == 1e7f) {
      REQUIRE(crbm.ok);
      REQUIRE(crbm.pivot == 1.0f);
    }
    if (m1 >= 1e8f) {
      REQUIRE_FALSE(crbm.ok);
      REQUIRE(crbm.pivot == 0.0f);
    }
    for (const Outcome<float>& abm : {run_aba(m1, 1), run_modified(m1, 1)}) {
      REQUIRE(abm.ok);
      REQUIRE(abm.pivot == 1.0f);
      REQUIRE(std::abs(abm.qdd_tip - 971.19f) < 1e-2f);
    }
  }
}

TEST_CASE("Table 2, case 2 (s = (e_y + e_z)/√2), float: only the modified ABM keeps the pivot",
          "[aba][seed004][table2]") {
  for (float m1 : masses) {
    INFO("m1 = " << m1);
    const Outcome<float> modified = run_modified(m1, 2);
    INFO("modified ABA: D = " << modified.pivot << ", q̈_tip = " << modified.qdd_tip);
    REQUIRE(modified.ok);
    REQUIRE(std::abs(modified.pivot - 1.0f) < 1e-3f);
    REQUIRE(std::abs(modified.qdd_tip - 971.19f) < 0.05f);
    const Outcome<float> standard = run_aba(m1, 2);
    const Outcome<float> crbm = crbm_ldlt(m1, 2);
    for (const Outcome<float>& o : {standard, crbm}) {
      INFO("D = " << o.pivot << ", q̈_tip = " << o.qdd_tip << ", ok = " << o.ok);
      if (m1 == 1e6f) REQUIRE(std::abs(o.pivot - 1.0f) >= 1e-2f);
      if (m1 >= 1e8f) REQUIRE((!o.ok || std::abs(o.pivot - 1.0f) > 0.1f));
    }
  }
}

TEST_CASE("Table 2 in double: case 1 exact to 1e-9 for all three; case 2 within the ε·m1 cancellation bound",
          "[aba][seed004][table2]") {
  // The target is that all three methods agree to 1e-9 in double. That holds in case 1 and for the modified
  // ABA in case 2; the CRBM and the standard ABA in case 2 form the base pivot as a difference of O(m1)
  // numbers, whose rounding is ≈ ε·m1 (2e-7 at m1 = 1e9): no double implementation of those two methods can
  // meet 1e-9 there. They are held to 16·ε·m1 on the pivot, and to 16·ε·m1 relative on q̈ (q̈ ∝ 1/D).
  const double eps = std::numeric_limits<double>::epsilon();
  for (int which : {1, 2}) {
    for (float m1f : masses) {
      const double m1 = m1f;
      const double exact_tip = 981.0 / m1 + 971.19;
      const Outcome<double> outcomes[] = {crbm_ldlt(m1, which), run_aba(m1, which), run_modified(m1, which)};
      const char* names[] = {"CRBM (LDLᵀ)", "ABA", "modified ABA"};
      for (int k = 0; k < 3; ++k) {
        const Outcome<double>& o = outcomes[k];
        INFO("case " << which << ", m1 = " << m1 << ", " << names[k] << ": D = " << o.pivot << ", q̈_tip = " << o.qdd_tip);
        REQUIRE(o.ok);
        const bool exact = which == 1 || k == 2;
        const double bound = exact ? 1e-9 : 16 * eps * m1;
        CHECK(std::abs(o.pivot - 1.0) < bound);
        CHECK(std::abs(o.qdd_tip - exact_tip) < bound * exact_tip);
      }
    }
  }
}
