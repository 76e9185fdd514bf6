// Every public call checks what it is given (treedyn/detail/check.hpp), in every build: one test per
// misuse, each asserting the documented reaction. The default handler's abort is tested in a child
// process (fork, stderr through a pipe); a replaceable handler that returns is tested in-process, with the
// outputs asserted untouched. double only: this file instantiates each algorithm once.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/check_recorder.hpp"
#include "treedyn/algorithms/aba.hpp"
#include "treedyn/algorithms/forward_dynamics_crba.hpp"
#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/algorithms/frame_jacobian.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/kernels/block_cyclic_reduction.hpp"
#include "treedyn/kernels/ltdl.hpp"
#include "treedyn/kernels/ltl.hpp"
#include "treedyn/kernels/sibling_block_ldlt.hpp"
#include "treedyn/kernels/tree_products.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/topology/parent_array.hpp"

namespace {

using namespace treedyn;
using VectorXd = Eigen::VectorXd;

/// What a child process did: killed by SIGABRT or not, and all it wrote to stderr.
struct ChildResult {
  bool aborted = false;
  std::string err;
};

/// Runs `body` in a child whose stderr goes to a pipe; the child exits 0 if `body` returns.
template <class Body>
ChildResult run_in_child(const Body& body) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    std::signal(SIGABRT, SIG_DFL);  // not Catch's fatal-signal report: the parent checks the signal
    body();
    _exit(0);
  }
  close(fds[1]);
  ChildResult out;
  char buffer[512];
  for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) > 0;) out.err.append(buffer, static_cast<std::size_t>(got));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  out.aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
  return out;
}

/// Asserts that `body` aborts through the default handler with a line naming `function` and `argument`.
template <class Body>
void require_abort(const Body& body, const std::string& function, const std::string& argument) {
  const ChildResult r = run_in_child(body);
  INFO("child stderr: " << r.err);
  CHECK(r.aborted);
  CHECK(r.err.find("treedyn: " + function + ":") != std::string::npos);
  CHECK(r.err.find("'" + argument + "'") != std::string::npos);
}

using test::Recorder;

void require_recorded(const std::string& function, const std::string& argument) {
  REQUIRE(Recorder::seen.size() == 1);
  CHECK(std::string(Recorder::seen[0].function) == function);
  CHECK(std::string(Recorder::seen[0].argument) == argument);
}

VectorXd& tau_of(Data<double>& d) { return d.tau; }
VectorXd& qdd_of(Data<double>& d) { return d.qdd; }

/// The two reactions to one misuse of a call on a Data built for `data_model`: with the default handler
/// `call` aborts, naming `function` and `argument`; with a handler that returns, it reports them once and
/// leaves the output `output(data)` untouched. Recorder::seen keeps the report for further checks.
template <class Call, class Output>
void require_rejected(const Model<double>& data_model, const Call& call, const Output& output,
                      const std::string& function, const std::string& argument) {
  require_abort([&] {
    Data<double> d(data_model);
    call(d);
  }, function, argument);
  Recorder recorder;
  Data<double> d(data_model);
  output(d).setConstant(42.0);
  call(d);
  require_recorded(function, argument);
  CHECK((output(d).array() == 42.0).all());
}

bool all_nan(const VectorXd& x) { return x.array().isNaN().all(); }

}  // namespace

TEST_CASE("set_check_handler returns the previous handler; null restores the default", "[checks]") {
  const CheckHandler original = check_handler();
  CHECK(set_check_handler(&Recorder::record) == original);
  CHECK(set_check_handler(nullptr) == &Recorder::record);
  CHECK(check_handler() == original);
}

TEST_CASE("a Data built for another model", "[checks]") {
  const Model<double> arm = robots::arm7<double>(), puma = robots::puma560<double>();
  const VectorXd q = VectorXd::Zero(arm.nq()), v = VectorXd::Zero(arm.nv());
  require_rejected(puma, [&](Data<double>& d) { rnea(arm, d, q, v, v); }, tau_of, "rnea", "data");
  SECTION("a copy, with_gravity and cast keep the identity") {
    const Model<double> g = arm.with_gravity(Eigen::Vector3d(0.0, 0.0, -1.0));
    CHECK(g.id() == arm.id());
    CHECK(arm.cast<float>().id() == arm.id());
    CHECK(puma.id() != arm.id());
  }
}

TEST_CASE("q of the wrong size to aba", "[checks]") {
  const Model<double> arm = robots::arm7<double>();
  const VectorXd q = VectorXd::Zero(arm.nq() - 1), v = VectorXd::Zero(arm.nv());
  require_rejected(arm, [&](Data<double>& d) { aba(arm, d, q, v, v); }, qdd_of, "aba", "q");
  CHECK(Recorder::seen[0].expected_size == arm.nq());
  CHECK(Recorder::seen[0].actual_size == arm.nq() - 1);
}

TEST_CASE("tau longer than nv to forward_dynamics_crba", "[checks]") {
  const Model<double> arm = robots::arm7<double>();
  const VectorXd q = VectorXd::Zero(arm.nq()), v = VectorXd::Zero(arm.nv()), tau = VectorXd::Ones(arm.nv() + 1);
  require_rejected(arm, [&](Data<double>& d) { forward_dynamics_crba(arm, d, q, v, tau); }, qdd_of,
                   "forward_dynamics_crba", "tau");
  CHECK(Recorder::seen[0].actual_size == arm.nv() + 1);
}

TEST_CASE("external forces of the wrong length", "[checks]") {
  const Model<double> arm = robots::arm7<double>();
  const VectorXd q = VectorXd::Zero(arm.nq()), v = VectorXd::Zero(arm.nv());
  const std::vector<Force<double>> f_ext(static_cast<std::size_t>(arm.nbodies() - 1), Force<double>::Zero());
  require_rejected(arm, [&](Data<double>& d) { rnea(arm, d, q, v, v, f_ext); }, tau_of, "rnea", "f_ext");
}

TEST_CASE("free-flyer and spherical quaternions: zero and NaN fail, non-unit is normalised", "[checks]") {
  ModelBuilder<double> b;
  const RigidInertia<double> I =
      RigidInertia<double>::from_mass_com_inertia(1.0, Eigen::Vector3d(0.1, 0.0, 0.0), Symmetric3<double>::identity() * 0.1);
  const int base = b.add_body(no_parent, Joint<double>::free_flyer(), Transform<double>::identity(), I, "base");
  b.add_body(base, Joint<double>::spherical(), xlt(Eigen::Vector3d(0.0, 0.0, 0.3)), I, "ball");
  const Model<double> model = b.build();
  Data<double> data(model);
  VectorXd q = random_configuration(model, 7);
  const VectorXd v = VectorXd::Constant(model.nv(), 0.3), tau = VectorXd::Constant(model.nv(), 0.2);
  const VectorXd qdd_unit = aba(model, data, q, v, tau);
  const VectorXd tau_unit = rnea(model, data, q, v, qdd_unit);
  REQUIRE(data.aba_status.ok());

  SECTION("a non-unit quaternion gives the result of the normalised one") {
    VectorXd scaled = q;
    scaled.segment<4>(3) *= 3.0;
    scaled.segment<4>(7) *= 0.25;
    CHECK(aba(model, data, scaled, v, tau).isApprox(qdd_unit, 1e-12));
    CHECK(data.aba_status.ok());
    CHECK(rnea(model, data, scaled, v, qdd_unit).isApprox(tau_unit, 1e-12));
    CHECK(data.config_status.ok());
  }
  for (const double bad : {0.0, std::nan("")}) {
    for (const int body : {0, 1}) {
      DYNAMIC_SECTION("quaternion of body " << body << " filled with " << bad) {
        VectorXd wrong = q;
        wrong.segment<4>(body == 0 ? 3 : 7).setConstant(bad);
        // A zero quaternion is an invalid configuration of the body; a NaN one a non-finite input, named by
        // its first coordinate in q (test_finite_inputs.cpp covers every call).
        const bool zero = bad == 0.0;
        const auto code = zero ? FactorStatus::Code::invalid_configuration : FactorStatus::Code::non_finite_input;
        const int row = zero ? body : (body == 0 ? 3 : 7);
        CHECK(all_nan(aba(model, data, wrong, v, tau)));
        CHECK(data.aba_status.code == code);
        CHECK(data.aba_status.row == row);
        CHECK(data.aba_status.names_body() == zero);
        CHECK_FALSE(data.aba_status.ok());
        CHECK(all_nan(rnea(model, data, wrong, v, v)));
        CHECK(data.config_status.code == code);
        CHECK(all_nan(forward_dynamics_crba(model, data, wrong, v, tau)));
        CHECK(data.factor_status.code == code);
        CHECK(data.factor_status.row == row);
      }
    }
  }
}

TEST_CASE("a cyclic or irregular parent array to the kernels fails, never hangs", "[checks]") {
  const Eigen::MatrixXd spd = Eigen::MatrixXd::Identity(3, 3) * 2.0;
  for (const std::vector<int>& lambda : {std::vector<int>{-1, 2, 1}, std::vector<int>{-1, 1, 0}, std::vector<int>{-1, -2, 0}}) {
    const int bad = 1;  // the first irregular entry of each
    Eigen::MatrixXd A = spd;
    const FactorStatus s = ltdl(A, lambda);
    CHECK(s.code == FactorStatus::Code::invalid_parent_array);
    CHECK(s.row == bad);
    CHECK(A == spd);
    CHECK(ltl(A, lambda).code == FactorStatus::Code::invalid_parent_array);
    CHECK(A == spd);
    Recorder recorder;
    VectorXd x = VectorXd::Ones(3);
    ltdl_solve(A, lambda, x);
    require_recorded("ltdl_solve", "lambda");
    CHECK(x == VectorXd::Ones(3));
  }
  require_abort([&] {
    const std::vector<int> cyclic{-1, 2, 1};
    VectorXd x = VectorXd::Ones(3);
    solve_l(spd, cyclic, x);
  }, "solve_l", "lambda");
  SECTION("a matrix of the wrong size") {
    Recorder recorder;
    Eigen::MatrixXd A = spd;
    CHECK(ltdl(A, std::vector<int>{-1, 0}).code == FactorStatus::Code::invalid_argument);
    require_recorded("ltdl", "A");
  }
}

TEST_CASE("block kernels: bad shapes throw at construction, a right-hand side of the wrong size is checked", "[checks]") {
  CHECK_THROWS_WITH((BlockTridiagonal<double>({2, 7})), Catch::Contains("block 1") && Catch::Contains("size 7"));
  CHECK_THROWS_WITH((SiblingBlockMatrix<double>({-1, 0}, {2})), Catch::Contains("one size per block"));
  CHECK_THROWS_WITH((SiblingBlockMatrix<double>({-1, 1}, {2, 2})), Catch::Contains("block 1 has parent 1"));
  CHECK_THROWS_WITH((SiblingBlockMatrix<double>({-1, 0}, {2, -1})), Catch::Contains("block 1 has size -1"));

  BlockTridiagonal<double> A({2, 1});
  A.diag(0) = Eigen::Matrix2d::Identity() * 2.0;
  A.diag(1) = Eigen::Matrix<double, 1, 1>::Constant(3.0);
  BlockCyclicReduction<double> ws(A.sizes());
  BlockCyclicReduction<double> ws_other(std::vector<int>{1, 2});
  REQUIRE(block_tridiagonal_factor(A).ok());
  SiblingBlockMatrix<double> S({-1, 0}, {2, 1});
  S.diag(0) = Eigen::Matrix2d::Identity();
  S.diag(1) = Eigen::Matrix<double, 1, 1>::Constant(1.0);
  REQUIRE(sibling_block_ldlt(S).ok());
  require_abort([&] {
    VectorXd y = VectorXd::Ones(2);
    block_tridiagonal_solve(A, y);
  }, "block_tridiagonal_solve", "X");

  Recorder recorder;
  VectorXd x = VectorXd::Ones(4);  // dim() is 3
  block_tridiagonal_solve(A, x);
  require_recorded("block_tridiagonal_solve", "X");
  CHECK(Recorder::seen[0].expected_size == 3);
  CHECK(Recorder::seen[0].actual_size == 4);
  Recorder::seen.clear();
  block_cyclic_reduction_solve(ws, x);
  require_recorded("block_cyclic_reduction_solve", "X");
  Recorder::seen.clear();
  sibling_block_ldlt_solve(S, x);
  require_recorded("sibling_block_ldlt_solve", "X");
  CHECK(x == VectorXd::Ones(4));  // untouched by all three
  Recorder::seen.clear();
  CHECK(block_cyclic_reduction_factor(A, ws_other).code == FactorStatus::Code::invalid_argument);
  require_recorded("block_cyclic_reduction_factor", "ws");

}

TEST_CASE("tree queries check their node indices", "[checks]") {
  const std::vector<int> lambda{-1, 0, 1, 0};
  CHECK(is_ancestor(lambda, 0, 2));
  CHECK(closest_common_ancestor(lambda, 2, 3) == 0);
  require_abort([&] { static_cast<void>(closest_common_ancestor(lambda, -1, 0)); }, "closest_common_ancestor", "x");
  Recorder recorder;
  CHECK_FALSE(is_ancestor(lambda, 0, 4));
  require_recorded("is_ancestor", "i");
  Recorder::seen.clear();
  CHECK_FALSE(is_ancestor(lambda, -2, 2));
  require_recorded("is_ancestor", "a");
  Recorder::seen.clear();
  CHECK(closest_common_ancestor(lambda, 2, 9) == no_parent);
  require_recorded("closest_common_ancestor", "y");
  Recorder::seen.clear();
  int visited = 0;
  for ([[maybe_unused]] const int a : ancestors(lambda, 7)) ++visited;
  CHECK(visited == 0);
  require_recorded("ancestors", "i");
  Recorder::seen.clear();
  for ([[maybe_unused]] const int a : path_to_root(lambda, -3)) ++visited;
  CHECK(visited == 0);
  require_recorded("path_to_root", "i");
}

TEST_CASE("name lookups throw; find_* probe; by-index calls check the index", "[checks]") {
  const Model<double> arm = robots::arm7<double>();
  CHECK_THROWS_WITH(arm.body_index("typo"), Catch::Contains("typo"));
  CHECK_THROWS_AS(arm.joint_index("typo"), std::invalid_argument);
  CHECK_THROWS_AS(arm.frame("typo"), std::invalid_argument);
  CHECK_FALSE(arm.find_body("typo").has_value());
  CHECK_FALSE(arm.find_joint("typo").has_value());
  CHECK(arm.find_frame("typo") == nullptr);
  CHECK(arm.find_body(arm.name(2)) == 2);
  CHECK(arm.body_index(arm.name(2)) == 2);

  Data<double> data(arm);
  forward_kinematics(arm, data, VectorXd::Zero(arm.nq()));
  require_abort([&] {
    Data<double> d(arm);
    frame_jacobian(arm, d, -1, Transform<double>::identity());
  }, "frame_jacobian", "body");
  require_abort([&] { static_cast<void>(arm.limits(-1)); }, "Model::limits", "i");
  Recorder recorder;
  data.J.setConstant(5.0);
  frame_jacobian(arm, data, arm.nbodies(), Transform<double>::identity());
  require_recorded("frame_jacobian", "body");
  CHECK((data.J.array() == 5.0).all());
  Recorder::seen.clear();
  CHECK(std::isinf(arm.limits(-1).upper));  // the handler returned: default (unbounded) limits
  require_recorded("Model::limits", "i");
  Recorder::seen.clear();
  CHECK(arm.joint_name(99).empty());
  require_recorded("Model::joint_name", "i");
}

TEST_CASE("configuration functions check sizes", "[checks]") {
  const Model<double> arm = robots::arm7<double>();
  Recorder recorder;
  VectorXd q = VectorXd::Zero(arm.nq()), out = VectorXd::Constant(arm.nq(), 3.0);
  const VectorXd v = VectorXd::Zero(arm.nv() + 2);
  integrate(arm, q, v, 0.1, out);
  require_recorded("integrate", "v");
  CHECK((out.array() == 3.0).all());
}
