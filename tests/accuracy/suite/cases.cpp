// The models of the accuracy suite (accuracy.hpp), built in double.
#include <cmath>
#include <string>

#include "accuracy/suite/accuracy.hpp"
#include "support/random.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/robots/robots.hpp"

namespace treedyn::accuracy {

namespace {

double to_float(double x) { return static_cast<double>(static_cast<float>(x)); }

/// Ascher, Pai & Cloutier (1996), docs/references.md, Example 1 as in Table 1: l1 + l2 = 1 m, m1 + m2 = 1 kg,
/// l_k = m_k, width 0.1 m, link-length ratio r = l2 / (l1 + l2) (paper link 2 is the base-connected one).
Model<double> table1_chain(double r) { return robots::two_link<double>(1.0 - r, 1.0 - r, r, r, 0.1); }

/// A heavy 10 kg, 1.5 m base link and a light 0.1 kg, 0.02 m tip link whose joint sits at (1.5, 0.3, 0) of
/// the base body, both revolute about z: κ(H) ≈ 1e6, the light link's entries of H far from the root's origin.
/// `offset` places the base joint away from the world origin (the CRBA does not see it; world-frame
/// quantities do).
Model<double> light_link_far_out(const Eigen::Vector3d& offset = Eigen::Vector3d::Zero()) {
  const Joint<double> z = Joint<double>::revolute(Eigen::Vector3d::UnitZ());
  ModelBuilder<double> b;
  const int base = b.add_body(no_parent, z, xlt(offset), robots::detail::rectangle_link(1.5, 10.0, 0.02),
                              "heavy");
  b.add_body(base, z, xlt(Eigen::Vector3d(1.5, 0.3, 0.0)), robots::detail::rectangle_link(0.02, 0.1, 0.02), "light");
  b.set_gravity(Eigen::Vector3d(0.0, -9.81, 0.0));
  return b.build();
}

std::string short_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", x);
  return buffer;
}

}  // namespace

std::vector<State> float_states(const Model<double>& model, int count, unsigned seed) {
  std::vector<State> states;
  for (int k = 0; k < count; ++k) {
    const std::uint64_t s = seed + 7919u * static_cast<unsigned>(k);
    test::Rng rng(s);
    State st;
    st.q = random_configuration(model, s).unaryExpr(&to_float);
    // a quaternion rounded to float is not unit in double: make it unit again (to double precision), so that
    // the double run and the reference see a rotation; the float run rounds it once more
    for (int i = 0; i < model.nbodies(); ++i) {
      const JointType type = model.joint(i).type;
      if (type == JointType::spherical || type == JointType::free_flyer) {
        auto quaternion = st.q.segment<4>(model.q_offset(i) + (type == JointType::free_flyer ? 3 : 0));
        quaternion.normalize();
      }
    }
    st.qd = rng.matrix<double>(model.nv(), 1).unaryExpr(&to_float);
    st.tau = rng.matrix<double>(model.nv(), 1).unaryExpr(&to_float);
    states.push_back(st);
  }
  return states;
}

Case make_case(const std::string& name, const Model<double>& model) {
  Case c{name, "robot", model, float_states(model, 2, 4242u), false};
  c.operational = model.nv() >= 6;
  return c;
}

std::vector<Case> ill_conditioned_cases() {
  std::vector<Case> cases;
  // Example 1 / Fig. 1: l1 = 2 m, m1 = 10 kg distal; l2 = 0.02 m, m2 = 0.1 kg base-connected; width 0.02 m.
  cases.push_back({"seed004-ex1", "ill", robots::two_link<double>(), float_states(robots::two_link<double>(), 2, 11u)});
  // Examples 2 (case 1, s = e_z) and 3 (case 2, s = (e_y + e_z)/√2): collinear prismatic joints, base mass 1,
  // tip mass m1 (Table 2), Φ21 = I, no gravity; κ(H) ≈ 4·m1.
  for (double m1 : {1e2, 1e4, 1e6, 1e7}) {
    for (int which : {1, 2}) {
      const Model<double> m =
          robots::collinear_masses<double>(1.0, m1, which == 1 ? Eigen::Vector3d(0, 0, 1) : Eigen::Vector3d(0, 1, 1));
      cases.push_back({std::string(which == 1 ? "seed004-ex2" : "seed004-ex3") + "-m" + short_number(m1), "ill", m,
                       float_states(m, 1, 12u)});
    }
  }
  const Model<double> far = light_link_far_out();
  cases.push_back({"light-link-far-out", "ill", far, float_states(far, 2, 13u)});
  const Model<double> far100 = light_link_far_out(Eigen::Vector3d(100.0, 0.0, 0.0));
  cases.push_back({"light-link-far-out-at-100m", "ill", far100, float_states(far100, 2, 13u)});
  return cases;
}

std::vector<Case> kappa_family() {
  std::vector<Case> cases;
  for (double r : {0.1, 0.05, 0.01, 0.005, 0.002, 0.001, 5e-4, 2e-4, 1e-4}) {
    const Model<double> m = table1_chain(r);
    cases.push_back({"seed004-table1-r" + short_number(r), "ill", m, float_states(m, 1, 14u)});
  }
  return cases;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  cases.push_back(make_case("humanoid30", robots::humanoid30<double>()));
  // the humanoid with its floating base 100 m from the world origin: H does not change, world-frame
  // quantities are formed from coordinates of size 100
  cases.push_back(make_case("humanoid30-at-100m", robots::humanoid30<double>()));
  for (State& s : cases.back().states) s.q(0) += 100.0;
  cases.push_back(make_case("chain30", robots::chain30<double>()));
  cases.push_back(make_case("arm7", robots::arm7<double>()));
  cases.push_back(make_case("puma560", robots::puma560<double>()));
  cases.push_back(make_case("pendulum6", robots::pendulum<double>(6)));
  cases.back().operational = false;  // planar: J has rank 3
  for (int s = 0; s < 6; ++s) {
    const Model<double> m = robots::random_tree<double>(3 + 2 * s, 300u + static_cast<unsigned>(s));
    Case c = make_case("random_tree-" + std::to_string(s), m);
    c.kind = "random";
    cases.push_back(c);
  }
  Case chain = make_case("random_chain-revolute12", robots::random_chain<double>(12, 77u));
  chain.kind = "random";
  cases.push_back(chain);
  for (Case& c : ill_conditioned_cases()) cases.push_back(c);
  for (Case& c : kappa_family()) cases.push_back(c);
  return cases;
}

Transform<double> end_placement() { return xlt(Eigen::Vector3d(0.01, 0.005, 0.002)); }

}  // namespace treedyn::accuracy
