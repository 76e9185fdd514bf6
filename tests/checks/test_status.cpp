// treedyn::Status, the library's one status type (treedyn/status.hpp): every feature status is it or carries
// it, prints as one line naming what failed, where and in which call, and real failures of the kernels, the
// articulated-body methods and the contact layer report the call that found them.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>

#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/contact/contact_step.hpp"
#include "treedyn/kernels/lemke.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/parallel/batch.hpp"
#include "treedyn/status.hpp"
#include "treedyn/status_io.hpp"

namespace {

using namespace treedyn;

static_assert(std::is_same_v<FactorStatus, Status>, "FactorStatus is the one status type");
static_assert(std::is_base_of_v<Status, LcpStatus<double>>, "an LCP status is a Status");
static_assert(std::is_same_v<ContactLcpStatus<float>, LcpStatus<float>>, "contact_lcp reports lemke's status");
static_assert(std::is_base_of_v<Status, ContactStepStatus<double>>, "a contact step status is a Status");
static_assert(std::is_same_v<decltype(BatchStatus{}.first_status), Status>, "a batch carries its first state's Status");
static_assert(!std::is_convertible_v<Status, bool> && std::is_constructible_v<bool, Status>,
              "a status tests as a bool only explicitly");
static_assert(Status::success().ok() && !Status::non_positive_pivot(3).ok(), "constexpr");
static_assert(std::is_trivially_copyable_v<Status>, "a status is a plain value: no allocation, no destructor");
static_assert(Status::non_finite_input("qd", 3).index == Status::Index::entry && Status::success().argument == nullptr,
              "constexpr, and only a non-finite input names an argument");

std::string printed(const Status& s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

TEST_CASE("Status: to_string and operator<< name the code, the row or body and the call", "[status]") {
  CHECK(to_string(Status::success()) == "success");
  CHECK(to_string(Status::non_positive_pivot(4, "ltdl")) == "non_positive_pivot at row 4 (ltdl)");
  CHECK(to_string(Status::non_positive_joint_pivot(6, "aba")) == "non_positive_pivot at body 6 (aba)");
  CHECK(to_string(Status::invalid_configuration(2)) == "invalid_configuration at body 2");
  CHECK(to_string(Status::invalid_argument("lemke")) == "invalid_argument (lemke)");
  CHECK(printed(Status::invalid_parent_array(5, "ltl")) == "invalid_parent_array at row 5 (ltl)");
  CHECK(printed(Status::failed(Status::Code::ray_termination, "lemke")) == "ray_termination (lemke)");
  CHECK(to_string(Status::non_finite_input("qd", 3, Status::Index::entry, "aba")) == "non_finite_input in qd at entry 3 (aba)");
  CHECK(printed(Status::non_finite_input("f_ext", 2, Status::Index::body, "rnea")) == "non_finite_input in f_ext at body 2 (rnea)");
  // Every code has its own name.
  for (int c = 0; c <= static_cast<int>(Status::Code::lcp_failed); ++c)
    for (int d = 0; d < c; ++d)
      CHECK(std::string(code_name(static_cast<Status::Code>(c))) != code_name(static_cast<Status::Code>(d)));
  CHECK(std::string(code_name(Status::Code::lcp_failed)) == "lcp_failed");
}

TEST_CASE("Status: reported_by names a shared step's failure once, and never a success", "[status]") {
  const Status s = Status::non_positive_joint_pivot(3).reported_by("minverse_aba");
  CHECK(std::string(s.call) == "minverse_aba");
  CHECK(std::string(s.reported_by("oscm").call) == "minverse_aba");
  CHECK(Status::success().reported_by("aba").call == nullptr);
}

TEST_CASE("Status: failures of the kernels and the algorithms name their call", "[status]") {
  SECTION("ltdl on an indefinite matrix") {
    Eigen::MatrixXd A(3, 3);
    A << 4, 2, 0, 2, 1, 0, 0, 0, 1;  // LTDL eliminates tips first: rows 2, 1 pivot 1, then row 0 has 4 − 2²/1 = 0
    const std::vector<int> lambda{-1, 0, 1};
    const Status s = ltdl(A, lambda);
    CHECK(to_string(s) == "non_positive_pivot at row 0 (ltdl)");
  }
  SECTION("aba and rnea on a zero quaternion") {
    const Model<double> model = robots::humanoid30<double>();
    Data<double> data(model);
    Eigen::VectorXd q = neutral(model);
    q.segment<4>(model.q_offset(0) + 3).setZero();  // the free flyer's quaternion
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv());
    aba(model, data, q, zero, zero);
    CHECK(to_string(data.aba_status) == "invalid_configuration at body 0 (aba)");
    CHECK(std::isnan(data.qdd(0)));
    rnea(model, data, q, zero, zero);
    CHECK(to_string(data.config_status) == "invalid_configuration at body 0 (rnea)");
  }
  SECTION("lemke on an LCP with no solution") {
    LemkeWorkspace<double> ws(1);
    Eigen::MatrixXd M(1, 1);
    M << -1;
    Eigen::VectorXd q(1);
    q << -1;  // w = −z − 1 ≥ 0 has no z ≥ 0
    const LcpStatus<double>& s = lemke(ws, M, q);
    CHECK(to_string(s) == "ray_termination (lemke)");
    CHECK(s.pivots >= 1);
  }
}

}  // namespace
