// The contact description and the operational-space contact LCP (eq. 53 of Jain, n.d.) on problems with
// known answers: a particle resting on a plane, sticking and sliding on a slope (Coulomb's law along a
// friction direction, exact for the polyhedral cone), a bilateral row, and random compliances checked
// for the physical conditions every solution must meet.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "support/random.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/robots/robots.hpp"

namespace {

using namespace treedyn;
using MatrixX = Eigen::MatrixXd;
using VectorX = Eigen::VectorXd;
using Vec3 = Eigen::Vector3d;
constexpr double eps = std::numeric_limits<double>::epsilon();

Contact<double> floor_contact(double mu, const Vec3& tangent = Vec3::Zero()) {
  Contact<double> c;
  c.body_a = 0;
  c.normal = Vec3::UnitZ();
  c.mu = mu;
  c.tangent = tangent;
  return c;
}

/// The conditions of eqs. 10a–c every solution meets (rows β and σ of C3 in contact_lcp.hpp), with a
/// tolerance `tol` on velocities and `tol_f` on impulses: no approach and a normal impulse only at zero
/// normal velocity; w_k = d̂_kᵀv⁺ + σ ≥ 0 with β_k w_k = 0 (friction along the directions that oppose the
/// sliding most); μF_n − Σβ ≥ 0 with σ (μF_n − Σβ) = 0 (on the polyhedron's edge when sliding); and the
/// friction impulse never does positive work on the sliding.
void require_contact_conditions(const ContactLcpWorkspace<double>& ws, const std::vector<Contact<double>>& contacts,
                                double tol, double tol_f) {
  for (int i = 0; i < ws.contacts(); ++i) {
    const Contact<double>& c = contacts[static_cast<std::size_t>(i)];
    MatrixX D(3, c.friction_directions + 1);
    friction_directions(c, D);
    const Vec3 n = D.col(0);
    const Vec3 v = ws.velocity().segment<3>(3 * i);
    const auto beta = ws.beta(i);
    const double Fn = beta(0), sigma = ws.sliding_speed(i);
    const double slack = c.mu * Fn - beta.tail(beta.size() - 1).sum();
    INFO("contact " << i << ": v+ = " << v.transpose() << ", beta = " << beta.transpose() << ", sigma = " << sigma);
    CHECK(beta.minCoeff() >= 0.0);
    CHECK(sigma >= 0.0);
    CHECK(n.dot(v) >= -tol);
    CHECK(std::abs(Fn * n.dot(v)) <= tol * (tol_f + Fn));
    for (int k = 1; k <= c.friction_directions; ++k) {
      const double w = D.col(k).dot(v) + sigma;
      CHECK(w >= -tol);
      CHECK(std::abs(beta(k) * w) <= tol * (tol_f + beta(k)));
    }
    CHECK(slack >= -tol_f);
    CHECK(std::abs(sigma * slack) <= tol_f * (tol + sigma));
    const Vec3 Ft = ws.impulse().segment<3>(3 * i) - n * Fn;
    CHECK(Ft.dot(v) <= tol * (Ft.norm() + tol_f));
  }
}

}  // namespace

TEST_CASE("friction directions: unit, tangent, closed under negation, aligned with a given tangent", "[contact]") {
  for (const int nf : {2, 4, 6, 8}) {
    Contact<double> c = floor_contact(0.5);
    c.normal = Vec3(0.3, -2.0, 0.7);
    c.friction_directions = nf;
    MatrixX D(3, nf + 1);
    friction_directions(c, D);
    const Vec3 n = c.normal.normalized();
    CHECK((D.col(0) - n).norm() <= 4 * eps);
    for (int k = 0; k < nf; ++k) {
      CHECK(D.col(1 + k).norm() == Approx(1.0).epsilon(4 * eps));
      CHECK(std::abs(D.col(1 + k).dot(n)) <= 4 * eps);
      CHECK(D.col(1 + k) == -D.col(1 + (k + nf / 2) % nf));  // exact negatives
    }
    c.tangent = Vec3(1, 1, 1);
    friction_directions(c, D);
    const Vec3 t = (c.tangent - n * n.dot(c.tangent)).normalized();
    CHECK((D.col(1) - t).norm() <= 8 * eps);
  }
}

TEST_CASE("validate_contacts names the contact and the problem", "[contact]") {
  const Model<double> model = robots::arm7<double>();
  std::vector<Contact<double>> contacts(3, floor_contact(0.5));
  CHECK_NOTHROW(validate_contacts(model, contacts));
  auto bad = [&](auto edit, const std::string& message) {
    std::vector<Contact<double>> cs = contacts;
    edit(cs[2]);
    CHECK_THROWS_WITH(validate_contacts(model, cs), Catch::Contains("contact 2") && Catch::Contains(message));
  };
  bad([](Contact<double>& c) { c.mu = -0.1; }, "mu");
  bad([](Contact<double>& c) { c.mu = std::numeric_limits<double>::quiet_NaN(); }, "mu");
  bad([](Contact<double>& c) { c.restitution = 1.5; }, "restitution");
  bad([](Contact<double>& c) { c.normal = Vec3::Zero(); }, "normal");
  bad([](Contact<double>& c) { c.normal(1) = std::numeric_limits<double>::infinity(); }, "normal");
  bad([](Contact<double>& c) { c.point_a(0) = std::numeric_limits<double>::quiet_NaN(); }, "point");
  bad([](Contact<double>& c) { c.body_a = 7; }, "body_a = 7");
  bad([](Contact<double>& c) { c.body_b = -2; }, "body_b = -2");
  bad([](Contact<double>& c) { c.friction_directions = 3; }, "friction_directions = 3");
  bad([](Contact<double>& c) { c.body_b = 0; }, "same body");
}

TEST_CASE("a particle resting on a plane: the normal impulse cancels gravity's, no friction", "[contact]") {
  const double m = 2.5, g = 9.8, dt = 1e-3;
  ContactLcpWorkspace<double> ws(1);
  const std::vector<Contact<double>> contacts{floor_contact(0.5)};
  const MatrixX G = MatrixX::Identity(3, 3) / m;
  const VectorX v = Vec3(0, 0, -g * dt);
  REQUIRE(contact_lcp(ws, contacts, G, v).ok());
  CHECK(ws.lcp_size() == 6);
  CHECK(ws.normal_impulse(0) == Approx(m * g * dt).epsilon(1e3 * eps));
  CHECK(ws.velocity().norm() <= 1e3 * eps * g * dt);
  CHECK(ws.beta(0).tail(4).norm() <= 1e3 * eps * m * g * dt);
  CHECK(ws.sliding_speed(0) == Approx(0.0).margin(1e3 * eps * g * dt));
}

TEST_CASE("a particle on a slope sticks below atan(mu) and slides with g(sin - mu cos) above", "[contact]") {
  // The slope's frame: normal z, downhill +x (a friction direction, where the polyhedral cone is exact).
  const double m = 1.0, g = 9.8, dt = 1e-3, mu = 0.5;
  ContactLcpWorkspace<double> ws(1);
  const std::vector<Contact<double>> contacts{floor_contact(mu, Vec3::UnitX())};
  const MatrixX G = MatrixX::Identity(3, 3) / m;
  for (const double theta : {0.2, 0.4, 0.5, 0.6, 0.9}) {
    INFO("theta = " << theta << ", atan(mu) = " << std::atan(mu));
    const VectorX v = Vec3(g * std::sin(theta) * dt, 0, -g * std::cos(theta) * dt);  // from rest, one step
    REQUIRE(contact_lcp(ws, contacts, G, v).ok());
    const double scale = g * dt;
    CHECK(ws.velocity()(2) == Approx(0.0).margin(1e3 * eps * scale));
    CHECK(ws.normal_impulse(0) == Approx(m * g * std::cos(theta) * dt).epsilon(1e3 * eps));
    if (std::tan(theta) < mu) {
      CHECK(ws.velocity().norm() <= 1e3 * eps * scale);
      CHECK(ws.beta(0)(3) == Approx(m * g * std::sin(theta) * dt).epsilon(1e3 * eps));  // along −x
    } else {
      const double a = g * (std::sin(theta) - mu * std::cos(theta));
      CHECK(ws.velocity()(0) == Approx(a * dt).epsilon(1e3 * eps));
      CHECK(std::abs(ws.velocity()(1)) <= 1e3 * eps * scale);
      CHECK(ws.sliding_speed(0) == Approx(a * dt).epsilon(1e3 * eps));
    }
  }
}

TEST_CASE("random contact problems meet the contact conditions and never gain energy", "[contact]") {
  test::Rng rng(31);
  ContactLcpWorkspace<double> ws(6, 8);
  for (int trial = 0; trial < 60; ++trial) {
    const int n_u = 1 + trial % 6;
    std::vector<Contact<double>> contacts;
    for (int i = 0; i < n_u; ++i) {
      Contact<double> c;
      c.normal = Vec3(rng.uniform(), rng.uniform(), rng.uniform() + 2.0);
      c.mu = rng.uniform(0.0, 1.2);
      c.friction_directions = 2 * (1 + rng.below(4));
      contacts.push_back(c);
    }
    // G = J Jᵀ, J of full row rank (a system with more DoFs than contact rows), well conditioned.
    const MatrixX J = rng.matrix<double>(3 * n_u, 3 * n_u + 4);
    const MatrixX G = J * J.transpose() + 0.1 * MatrixX::Identity(3 * n_u, 3 * n_u);
    const VectorX v = rng.matrix<double>(3 * n_u, 1);
    INFO("trial " << trial << ", n_u = " << n_u);
    REQUIRE(contact_lcp(ws, contacts, G, v).ok());
    int size = 0;
    for (const Contact<double>& c : contacts) size += c.friction_directions + 2;
    CHECK(ws.lcp_size() == size);
    const double tol = 1e4 * eps * (G.norm() + 1.0);
    require_contact_conditions(ws, contacts, tol, tol);
    // The kinetic energy change of an impulse F with compliance G: ½ Fᵀ (v⁻ + v⁺) ≤ 0 (no restitution).
    const VectorX F = ws.impulse();
    CHECK(0.5 * F.dot(v + ws.velocity()) <= tol * (1.0 + F.norm()));
    CHECK((ws.velocity() - (v + G * F)).norm() <= tol);
  }
}

TEST_CASE("bilateral rows are eliminated exactly; a singular G_bb is reported with its row", "[contact]") {
  // A particle held on the line y = 0 by a bilateral row (Q_b = e_yᵀ), pushed into the floor and sideways.
  const double m = 2.0;
  ContactLcpWorkspace<double> ws(1, 4, 2);
  const std::vector<Contact<double>> contacts{floor_contact(0.3, Vec3::UnitX())};
  const MatrixX G = MatrixX::Identity(3, 3) / m;
  const Eigen::RowVector3d Qb(0, 1, 0);
  const MatrixX G_bu = Qb / m, G_bb = MatrixX::Constant(1, 1, 1.0 / m);
  const VectorX v = Vec3(0.4, 0.7, -1.0);
  const VectorX v_b = VectorX::Constant(1, 0.7);  // the row's velocity without impulses: Q_b v
  REQUIRE(contact_lcp(ws, contacts, G, v, G_bu, G_bb, v_b).ok());
  CHECK(ws.lcp_size() == 1 + 6);
  const VectorX w_b = G_bb * ws.bilateral_impulse() + G_bu * ws.impulse() + v_b;
  CHECK(std::abs(w_b(0)) <= 1e3 * eps);
  CHECK(std::abs(ws.velocity()(1)) <= 1e3 * eps);  // the same row seen in the contact velocity
  CHECK(ws.normal_impulse(0) == Approx(m * 1.0).epsilon(1e3 * eps));
  // Sliding along x only: friction μ F_n opposes it.
  CHECK(ws.velocity()(0) == Approx(0.4 - 0.3 * 1.0).epsilon(1e3 * eps));
  require_contact_conditions(ws, contacts, 1e3 * eps, 1e3 * eps);

  MatrixX G_bu2(2, 3);
  G_bu2 << Qb / m, Qb / m;
  const MatrixX G_bb2 = MatrixX::Constant(2, 2, 1.0 / m);  // the same row twice: singular
  const VectorX v_b2 = VectorX::Constant(2, 0.7);
  const ContactLcpStatus<double>& s = contact_lcp(ws, contacts, G, v, G_bu2, G_bb2, v_b2);
  CHECK(s.code == ContactLcpStatus<double>::Code::non_positive_pivot);
  CHECK(s.row == 1);
  CHECK(!s.names_body());
  CHECK(std::string(s.call) == "contact_lcp");
}

TEST_CASE("contact_lcp: sizes are checked", "[contact]") {
  struct Returning {
    static void handler(const CheckFailure&) {}
  };
  ContactLcpWorkspace<double> ws(1, 4);
  std::vector<Contact<double>> contacts{floor_contact(0.5), floor_contact(0.5)};
  const MatrixX G = MatrixX::Identity(6, 6);
  const VectorX v = VectorX::Zero(6);
  const CheckHandler previous = set_check_handler(&Returning::handler);
  using Code = ContactLcpStatus<double>::Code;
  CHECK(contact_lcp(ws, contacts, G, v).code == Code::invalid_argument);  // two contacts, room for one
  contacts.pop_back();
  CHECK(contact_lcp(ws, contacts, G, v).code == Code::invalid_argument);  // G for two
  contacts[0].friction_directions = 6;
  CHECK(contact_lcp(ws, contacts, MatrixX::Identity(3, 3), Vec3(0, 0, -1)).code == Code::invalid_argument);
  set_check_handler(previous);
}
