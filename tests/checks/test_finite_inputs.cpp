// A NaN or an infinity in an input vector (q, q̇, q̈, τ, b, f_ext, impulses) is reported as
// Status::Code::non_finite_input naming the argument and the entry (treedyn/detail/check.hpp, finite_ok),
// by every hot call, in the status the call reports an invalid configuration in, with NaN outputs; and
// finite inputs give exactly the result they gave before any bad input was seen. Compiled once per scalar.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "support/scalars.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/compute_all_terms.hpp"
#include "treedyn/algorithms/crba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/gravity_torques.hpp"
#include "treedyn/algorithms/impulse_aba.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/algorithms/minverse_ltdl.hpp"
#include "treedyn/algorithms/minverse_schur.hpp"
#include "treedyn/algorithms/modified_aba.hpp"
#include "treedyn/algorithms/oscm.hpp"
#include "treedyn/algorithms/oscm_dense.hpp"
#include "treedyn/algorithms/osim.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/status_io.hpp"

namespace {

using namespace treedyn;

template <class T>
using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;

/// The two values every input is tried with.
template <class T>
std::vector<T> bad_values() {
  return {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
}

/// `s` reports a non-finite entry `entry` of `argument`, found by `call`.
void check_reported(const Status& s, const char* call, const char* argument, int entry,
                    Status::Index kind = Status::Index::entry) {
  INFO(to_string(s));
  CHECK(s.code == Status::Code::non_finite_input);
  REQUIRE(s.argument != nullptr);
  CHECK(std::string(s.argument) == argument);
  CHECK(s.row == entry);
  CHECK(s.index == kind);
  REQUIRE(s.call != nullptr);
  CHECK(std::string(s.call) == call);
}

template <class X>
bool all_nan(const X& x) {
  return x.array().isNaN().all();
}

/// The inputs of a floating-base humanoid: q (a free flyer's quaternion first), q̇, q̈, τ, and the entry
/// each test spoils (inside the quaternion for q, a leg joint for the rest).
template <class T>
struct Inputs {
  Model<T> model = robots::humanoid30<T>();
  VectorX<T> q = neutral(model), qd, qdd, tau;
  int q_entry = 5, v_entry = 9;
  Inputs() {
    qd = VectorX<T>::LinSpaced(model.nv(), T(-0.5), T(0.7));
    qdd = VectorX<T>::LinSpaced(model.nv(), T(0.3), T(-0.4));
    tau = VectorX<T>::LinSpaced(model.nv(), T(2), T(-1));
  }
};

}  // namespace

TEMPLATE_TEST_CASE("rnea, bias, crba, forward_kinematics report a non-finite q, qd, qdd or f_ext", "[checks][finite]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Inputs<T> in;
  Data<T> data(in.model);
  const VectorX<T> tau0 = rnea(in.model, data, in.q, in.qd, in.qdd);
  const VectorX<T> C0 = bias(in.model, data, in.q, in.qd);
  const VectorX<T> H0 = crba(in.model, data, in.q);
  REQUIRE(data.config_status.ok());
  for (const T bad : bad_values<T>()) {
    DYNAMIC_SECTION("bad value " << bad) {
      VectorX<T> q = in.q, qd = in.qd, qdd = in.qdd;
      q(in.q_entry) = bad;
      CHECK(all_nan(rnea(in.model, data, q, in.qd, in.qdd)));
      check_reported(data.config_status, "rnea", "q", in.q_entry);
      CHECK(all_nan(bias(in.model, data, q, in.qd)));
      check_reported(data.config_status, "bias", "q", in.q_entry);
      CHECK(all_nan(crba(in.model, data, q)));
      check_reported(data.config_status, "crba", "q", in.q_entry);
      const auto& X = forward_kinematics(in.model, data, q);
      CHECK(std::isnan(X[0].r(0)));
      check_reported(data.config_status, "forward_kinematics", "q", in.q_entry);
      qd(in.v_entry) = bad;
      CHECK(all_nan(rnea(in.model, data, in.q, qd, in.qdd)));
      check_reported(data.config_status, "rnea", "qd", in.v_entry);
      CHECK(all_nan(bias(in.model, data, in.q, qd)));
      check_reported(data.config_status, "bias", "qd", in.v_entry);
      qdd(in.v_entry + 1) = bad;
      CHECK(all_nan(rnea(in.model, data, in.q, in.qd, qdd)));
      check_reported(data.config_status, "rnea", "qdd", in.v_entry + 1);
      std::vector<Force<T>> f_ext(static_cast<std::size_t>(in.model.nbodies()), Force<T>::Zero());
      f_ext[4](2) = bad;
      CHECK(all_nan(rnea(in.model, data, in.q, in.qd, in.qdd, f_ext)));
      check_reported(data.config_status, "rnea", "f_ext", 4, Status::Index::body);
      // Finite inputs afterwards: the same results, to the bit, and a success.
      CHECK(rnea(in.model, data, in.q, in.qd, in.qdd) == tau0);
      CHECK(data.config_status.ok());
      CHECK(bias(in.model, data, in.q, in.qd) == C0);
      CHECK(crba(in.model, data, in.q) == H0);
      CHECK(data.config_status.ok());
    }
  }
}

TEMPLATE_TEST_CASE("gravity_torques and compute_all_terms report a non-finite q or qd", "[checks][finite]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Inputs<T> in;
  Data<T> data(in.model);
  const VectorX<T> g0 = gravity_torques(in.model, data, in.q);
  REQUIRE(compute_all_terms(in.model, data, in.q, in.qd).ok());
  const VectorX<T> H0 = data.H, C0 = data.C;
  for (const T bad : bad_values<T>()) {
    DYNAMIC_SECTION("bad value " << bad) {
      VectorX<T> q = in.q, qd = in.qd;
      q(in.q_entry) = bad;
      CHECK(all_nan(gravity_torques(in.model, data, q)));
      check_reported(data.config_status, "gravity_torques", "q", in.q_entry);
      check_reported(compute_all_terms(in.model, data, q, in.qd), "crba", "q", in.q_entry);
      CHECK((all_nan(data.H) && all_nan(data.C) && all_nan(data.g)));
      qd(in.v_entry) = bad;
      const Status s = compute_all_terms(in.model, data, in.q, qd);
      check_reported(s, "compute_all_terms", "qd", in.v_entry);
      check_reported(data.factor_status, "compute_all_terms", "qd", in.v_entry);
      CHECK((all_nan(data.H) && all_nan(data.C) && all_nan(data.g)));
      CHECK(std::isnan(data.X_world[0].r(0)));
      // Finite inputs afterwards: the same results, to the bit, and a success.
      CHECK(gravity_torques(in.model, data, in.q) == g0);
      CHECK(compute_all_terms(in.model, data, in.q, in.qd).ok());
      CHECK((data.H == H0 && data.C == C0 && data.g == g0));
    }
  }
}

TEMPLATE_TEST_CASE("aba, modified_aba and forward_dynamics_crba report a non-finite q, qd, tau or f_ext",
                   "[checks][finite]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Inputs<T> in;
  Data<T> data(in.model);
  const VectorX<T> a0 = aba(in.model, data, in.q, in.qd, in.tau);
  const VectorX<T> m0 = modified_aba(in.model, data, in.q, in.qd, in.tau);
  const VectorX<T> c0 = forward_dynamics_crba(in.model, data, in.q, in.qd, in.tau);
  REQUIRE((data.aba_status.ok() && data.factor_status.ok()));
  for (const T bad : bad_values<T>()) {
    for (const int which : {0, 1, 2, 3}) {
      const char* argument = which == 0 ? "q" : which == 1 ? "qd" : which == 2 ? "tau" : "f_ext";
      DYNAMIC_SECTION("bad value " << bad << " in " << argument) {
        VectorX<T> q = in.q, qd = in.qd, tau = in.tau;
        std::vector<Force<T>> f_ext(static_cast<std::size_t>(in.model.nbodies()), Force<T>::Zero());
        int entry = in.v_entry;
        Status::Index kind = Status::Index::entry;
        if (which == 0) q(entry = in.q_entry) = bad;
        if (which == 1) qd(entry) = bad;
        if (which == 2) tau(entry) = bad;
        if (which == 3) {
          f_ext[7](5) = bad;
          entry = 7;
          kind = Status::Index::body;
        }
        CHECK(all_nan(aba(in.model, data, q, qd, tau, f_ext)));
        check_reported(data.aba_status, "aba", argument, entry, kind);
        check_reported(data.config_status, "aba", argument, entry, kind);
        CHECK(all_nan(modified_aba(in.model, data, q, qd, tau, f_ext)));
        check_reported(data.aba_status, "modified_aba", argument, entry, kind);
        CHECK(all_nan(forward_dynamics_crba(in.model, data, q, qd, tau, f_ext)));
        check_reported(data.factor_status, which == 0 ? "crba" : "forward_dynamics_crba", argument, entry, kind);
        CHECK(aba(in.model, data, in.q, in.qd, in.tau) == a0);
        CHECK(data.aba_status.ok());
        CHECK(modified_aba(in.model, data, in.q, in.qd, in.tau) == m0);
        CHECK(forward_dynamics_crba(in.model, data, in.q, in.qd, in.tau) == c0);
        CHECK(data.factor_status.ok());
      }
    }
  }
}

TEMPLATE_TEST_CASE("the mass-matrix inverses and the operational-space routes report a non-finite q",
                   "[checks][finite]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Inputs<T> in;
  Data<T> data(in.model);
  MinverseLtdlWorkspace<T, Dynamic> ltdl_ws(in.model);
  MinverseAbaWorkspace<T, Dynamic> aba_ws(in.model);
  OperationalFrames<T> frames(in.model);
  frames.add(in.model.nbodies() - 1, Transform<T>::identity());
  frames.add(5, Transform<T>::identity());
  const auto M0 = minverse_aba(in.model, data, aba_ws, in.q).eval();
  const auto L0 = oscm(in.model, data, frames, in.q).eval();
  REQUIRE((aba_ws.status.ok() && frames.status.ok()));
  for (const T bad : bad_values<T>()) {
    DYNAMIC_SECTION("bad value " << bad) {
      VectorX<T> q = in.q;
      q(in.q_entry) = bad;
      CHECK(all_nan(minverse_ltdl(in.model, data, ltdl_ws, q)));
      check_reported(data.factor_status, "crba", "q", in.q_entry);
      CHECK(all_nan(minverse_aba(in.model, data, aba_ws, q)));
      check_reported(aba_ws.status, "minverse_aba", "q", in.q_entry);
      CHECK(all_nan(oscm(in.model, data, frames, q)));
      check_reported(frames.status, "oscm", "q", in.q_entry);
      CHECK(all_nan(osim(in.model, data, frames, q)));
      check_reported(frames.status, "oscm", "q", in.q_entry);
      CHECK(all_nan(oscm_dense(in.model, data, frames, q)));
      check_reported(frames.status, "crba", "q", in.q_entry);
      CHECK(minverse_aba(in.model, data, aba_ws, in.q) == M0);
      CHECK(oscm(in.model, data, frames, in.q) == L0);
      CHECK(frames.status.ok());
    }
  }
}

TEMPLATE_TEST_CASE("the Schur inverse reports a non-finite q or tau", "[checks][finite]", TREEDYN_TEST_SCALARS) {
  using T = TestType;
  const Model<T> model = robots::chain30<T>();
  Data<T> data(model);
  SchurWorkspace<T> ws(model);
  const VectorX<T> q = VectorX<T>::LinSpaced(model.nq(), T(-1), T(1));
  const VectorX<T> tau = VectorX<T>::LinSpaced(model.nv(), T(1), T(-2));
  const VectorX<T> x0 = minverse_apply_schur(model, data, ws, q, tau);
  REQUIRE(ws.status.ok());
  for (const T bad : bad_values<T>()) {
    DYNAMIC_SECTION("bad value " << bad) {
      VectorX<T> q_bad = q, tau_bad = tau;
      q_bad(11) = bad;
      tau_bad(17) = bad;
      CHECK(all_nan(minverse_schur(model, data, ws, q_bad)));
      check_reported(ws.status, "schur_operators", "q", 11);
      CHECK(all_nan(minverse_apply_schur(model, data, ws, q, tau_bad)));
      check_reported(ws.status, "minverse_apply_schur", "tau", 17);
      CHECK(minverse_apply_schur(model, data, ws, q, tau) == x0);
      CHECK(ws.status.ok());
    }
  }
}

TEMPLATE_TEST_CASE("impulse_aba and contact_step report non-finite inputs", "[checks][finite][contact]",
                   TREEDYN_TEST_SCALARS) {
  using T = TestType;
  Inputs<T> in;
  Data<T> data(in.model);
  ContactStepWorkspace<T, Dynamic> ws(in.model, 2);
  const std::vector<Contact<T>> no_contacts;
  for (const T bad : bad_values<T>()) {
    DYNAMIC_SECTION("bad value " << bad) {
      aba(in.model, data, in.q, in.qd, in.tau);
      std::vector<Force<T>> p(static_cast<std::size_t>(in.model.nbodies()), Force<T>::Zero());
      p[3](1) = bad;
      VectorX<T> dqd = VectorX<T>::Zero(in.model.nv());
      impulse_aba(in.model, data, p, dqd);
      CHECK(all_nan(dqd));
      check_reported(data.config_status, "impulse_aba", "p", 3, Status::Index::body);
      VectorX<T> qd = in.qd;
      qd(in.v_entry) = bad;
      const ContactStepStatus<T>& s = contact_step(in.model, data, ws, in.q, qd, in.tau, no_contacts, T(0.001));
      check_reported(s, "contact_step", "qd", in.v_entry);
      check_reported(s.dynamics, "aba", "qd", in.v_entry);
      CHECK(contact_step(in.model, data, ws, in.q, in.qd, in.tau, no_contacts, T(0.001)).ok());
    }
  }
}

#if TREEDYN_TEST_UNTEMPLATED
TEST_CASE("finite_ok: one reduction on success, the first bad entry on failure, symbolic scalars pass",
          "[checks][finite]") {
  Status s;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(10, 1.7e308);  // huge but finite: x·0 never overflows
  x(2) = -1.7e308;
  x(4) = std::numeric_limits<double>::denorm_min();
  CHECK(detail::finite_ok("f", "x", x, s));
  CHECK(s.ok());
  x(7) = std::numeric_limits<double>::infinity();
  x(8) = std::nan("");
  CHECK_FALSE(detail::finite_ok("f", "x", x, s));
  check_reported(s, "f", "x", 7);
  CHECK(to_string(s) == "non_finite_input in x at entry 7 (f)");
  const Eigen::VectorXd empty;
  Status t;
  CHECK(detail::finite_ok("f", "x", empty, t));
  CHECK(t.ok());
}
#endif
