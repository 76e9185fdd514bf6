// The models and states every benchmark program times, in one place, so that the programs measure
// identical inputs and name them alike: Kernel/model/scalar, e.g. CRBA/humanoid30/double, ABA/chain50/float.
//   robots()          humanoid30, chain30, arm7 (the ready-made robots) and freeflyer (one free body)
//   chain(n)          "chain<n>": the random revolute chain on a fixed base robots::random_chain(n, 1)
//   state(model)      q = random_configuration(model, 42), q̇ and τ = LinSpaced(−1, 1), q̈ = LinSpaced(½, −½)
//   for_each_scalar   a registration run once in double and once in the double model rounded to float
// Each kernel is registered in the one program of its family (for example ABA/humanoid30 in bench_dynamics,
// LTDL* in bench_factorization; the whole route from q to H⁻¹τ is MinverseApply* in bench_minverse), so
// no name is registered twice across the programs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "treedyn/model/configuration.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/robots.hpp"

namespace treedyn::bench {

template <class S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;

/// A model and its benchmark name (the middle token of Kernel/model/scalar).
struct NamedModel {
  std::string name;
  Model<double> model;
};

inline NamedModel humanoid30() { return {"humanoid30", robots::humanoid30<double>()}; }

/// "freeflyer": a single rigid body on a free-flyer joint (mass 2.5 kg, CoM off the origin, a full
/// rotational inertia), the floating base of a legged robot alone.
inline NamedModel freeflyer() {
  Matrix3<double> Ic;
  Ic << 0.30, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.20;
  ModelBuilder<double> b;
  b.add_body(no_parent, Joint<double>::free_flyer(), Transform<double>::identity(),
             RigidInertia<double>::from_mass_com_inertia(2.5, Vector3<double>(0.1, -0.2, 0.05), Ic), "body");
  return {"freeflyer", b.build()};
}

/// The ready-made robots the whole-tree algorithms are timed on.
inline std::vector<NamedModel> robots() {
  return {humanoid30(), {"chain30", robots::chain30<double>()}, {"arm7", robots::arm7<double>()}, freeflyer()};
}

/// "chain<n>": the chain of n revolute links on a fixed base every chain benchmark is timed on.
inline NamedModel chain(int n) { return {"chain" + std::to_string(n), robots::random_chain<double>(n, 1)}; }

/// Chain lengths of the mass-matrix inverse routes (Lee, Wang & Chirikjian (2007) Fig. 3 goes to n = 400).
inline const std::vector<int>& minverse_chain_lengths() {
  static const std::vector<int> n = {6, 12, 25, 50, 100, 200, 400, 1000};
  return n;
}

/// Chain lengths of the operational-space kernels.
inline const std::vector<int>& oscm_chain_lengths() {
  static const std::vector<int> n = {10, 20, 50, 100, 200, 500};
  return n;
}

/// The state every kernel is timed at.
template <class S>
struct State {
  VecX<S> q, qd, qdd, tau;
};

template <class S, int N>
State<S> state(const Model<S, N>& model) {
  State<S> s;
  s.q = random_configuration(model, 42);
  s.qd = VecX<S>::LinSpaced(model.nv(), S(-1), S(1));
  s.qdd = VecX<S>::LinSpaced(model.nv(), S(0.5), S(-0.5));
  s.tau = VecX<S>::LinSpaced(model.nv(), S(-1), S(1));
  return s;
}

/// f(model, "double"), then f(model rounded to float, "float").
template <class F>
void for_each_scalar(const Model<double>& model, F&& f) {
  f(model, std::string("double"));
  f(model.cast<float>(), std::string("float"));
}

}  // namespace treedyn::bench
