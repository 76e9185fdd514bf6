// The chains of the Schur OSCM / OSIM tests (test_oscm_schur.cpp, test_osim_schur.cpp): random chains with a
// frame on the tip, the per-case setup, and the dense double reference J·H⁻¹·Jᵀ, which is compiled once in
// schur_chain_cases.cpp rather than in every per-scalar unit.
#pragma once

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "support/random.hpp"
#include "support/robot_cases.hpp"
#include "treedyn/algorithms/operational_frames.hpp"
#include "treedyn/algorithms/oscm_schur_workspace.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/robots/robots.hpp"

namespace treedyn::test {

using JointList = std::initializer_list<JointType>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

/// A random placement ^EX_N (rotation about a random axis, offset up to 0.3 per axis), built in double.
Transform<double> random_placement(Rng& rng);

/// Λ⁻¹ = J H⁻¹ Jᵀ of the frame, in double, from frame_jacobian (local), CRBA's H and a dense Eigen inverse.
struct DenseReference {
  Matrix6d Lambda_inv;
  double kappa_H = 0.0;
  int rank_J = 0;
};

DenseReference dense_reference(const Model<double>& model, const Transform<double>& placement,
                               const Eigen::VectorXd& q);

/// The one-body chain's closed forms, in double: Λ⁻¹ = X_E S (SᵀIS)⁻¹ Sᵀ X_Eᵀ (S constant in body
/// coordinates: no kinematics enters it), κ(SᵀIS), and for a free body Λ = X_E⁻ᵀ I X_E⁻¹ (its inertia at E)
/// with κ(I).
struct SingleJointReference {
  Matrix6d compliance, inertia_at_E;
  double kappa_StIS = 0.0, kappa_I = 0.0;
};

SingleJointReference single_joint_reference(const Model<double>& model, const Transform<double>& placement);

/// Fijany's 𝒴 = 𝒜 − ℰ𝒟⁻¹ℰᵀ formed densely in double from the operators, its smallest eigenvalue, κ(𝒜)
/// and ℛᵀ𝒴⁻¹ℛ (the term whose sign the OSIM's Woodbury form is about).
struct WoodburyReference {
  Eigen::MatrixXd Y;
  double min_eigenvalue_Y = 0.0, kappa_A = 0.0;
  Matrix6d YR;
};

WoodburyReference woodbury_reference(const Eigen::MatrixXd& A, const Eigen::MatrixXd& E, const Eigen::MatrixXd& R,
                                     const Matrix6d& D);

/// One chain case: the model in double (for the reference) and in T, the frame on its tip.
template <class T>
struct ChainCase {
  std::string name;
  Model<double> model_d;
  Model<T> model;
  Transform<double> placement;
};

template <class T>
ChainCase<T> chain_case(const std::string& name, int n, unsigned seed, JointList types, bool offset) {
  Rng rng(seed + 17u);
  ChainCase<T> c{name + " N=" + std::to_string(n), robots::random_chain<double>(n, seed, types), {},
                 offset ? random_placement(rng) : Transform<double>::identity()};
  c.model = c.model_d.template cast<T>();
  return c;
}

/// Random chains N = 1 … 50 for each joint list (every other chain with an offset frame).
template <class T>
std::vector<ChainCase<T>> chain_cases() {
  std::vector<ChainCase<T>> cases;
  const auto add = [&cases](const std::string& name, unsigned salt, JointList types) {
    for (int n = 1; n <= 50; ++n)
      cases.push_back(chain_case<T>(name, n, 6000u + salt * 100u + static_cast<unsigned>(n), types, n % 2 == 0));
  };
  add("revolute", 1, {JointType::revolute});
  add("prismatic", 2, {JointType::prismatic});
  add("helical", 3, {JointType::helical});
  add("1-dof mix", 4, {JointType::revolute, JointType::prismatic, JointType::helical});
  add("multi-dof", 5, {JointType::revolute, JointType::spherical, JointType::planar});
  add("all", 6, {JointType::revolute, JointType::prismatic, JointType::helical, JointType::spherical,
                 JointType::planar, JointType::free_flyer});
  return cases;
}

template <class T>
OperationalFrames<T> tip_frame(const Model<T>& model, const Transform<double>& placement) {
  OperationalFrames<T> frames(model);
  frames.add(model.nbodies() - 1, placement.template cast<T>(), FrameRows::all(), "tip");
  return frames;
}

/// Everything one case needs: the tip frame, Data, the workspace, a random q and the dense reference at q.
template <class T>
struct Setup {
  Setup(const ChainCase<T>& c, unsigned state_seed)
      : frames(tip_frame(c.model, c.placement)),
        data(c.model),
        ws(c.model, frames),
        q(random_state(c.model, state_seed).q),
        ref(dense_reference(c.model_d, c.placement, q.template cast<double>())) {}
  OperationalFrames<T> frames;
  Data<T> data;
  OscmSchurWorkspace<T> ws;
  Eigen::Matrix<T, Eigen::Dynamic, 1> q;
  DenseReference ref;
};

template <class T>
bool all_nan(const Matrix6<T>& m) {
  for (int i = 0; i < 36; ++i)
    if (!std::isnan(static_cast<double>(m.data()[i]))) return false;
  return true;
}

}  // namespace treedyn::test
