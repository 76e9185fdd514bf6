// Massless links on moving joints, step P6 of urdf/build_model.hpp: which bodies of a built model have a
// pivot nothing can keep positive, and the inertia the repair policy gives them. No urdfdom dependency.
//
// A body's ABA pivot is D = Sᵀ Iᴬ S (detail/joint_pivot.hpp): its articulated inertia Iᴬ is its own
// inertia (fixed links merged in) plus what its moving descendants pass up, each positive semidefinite.
// So D can vanish whatever the configuration only when Sᵀ I S is singular for the body's own inertia I and
// no moving descendant carries any inertia: a massless leaf link (a gripper jaw, a thumb tip written
// without <inertial>), or a chain of massless links ending in one. Such a body is "pivotless" here. A
// massless link with a massive descendant keeps its pivot from that descendant and is left alone.
//
// M1  the test: D_own = Sᵀ I S (nv × nv) is singular when its smallest eigenvalue is at most
//     64 ε max(|λ|) (zero for the all-zero inertia a missing <inertial> gives); massless: m = 0.
// M2  the repair: a point mass m* at the link origin (where the joint axis passes) with the isotropic
//     rotational inertia m* ρ² 1 about it, added to the link's inertia, where
//       m* = √ε m̄,  m̄ the median mass of the links with mass (1 when there is none),
//       ρ² the robot's typical squared radius of gyration (inertia_repair.hpp R2; 0.01 m² when none).
//     Its own pivot is then m* ρ² (revolute), m* (prismatic), diag(m*, m*, m* ρ²) (planar): positive, and
//     larger than the rounding of pivots computed from a typical link's numbers (a few ε m̄ ρ²) by the
//     factor 1/√ε the floor R2 keeps (6.7e7 in double, 2.9e3 in float): the smallest isotropic point mass
//     that keeps the pivot clear of rounding. Its effect on H is its own term J_iᵀ I* J_i: entry (j, k)
//     moves by at most m* (ρ² + d_j d_k), d the distance from joint j's axis to the link origin (1 for a
//     prismatic joint), that is √ε of a typical link's share of H (1.5e-8 in double, 3.5e-4 in float),
//     and the repaired joint's own diagonal entry becomes m* ρ² (revolute) instead of 0.
// M3  a massless body on a joint of several DoFs can lose its pivot although its descendants carry mass:
//     each passes up Iᴬ projected across its own joint, of rank 6 − n_child, so a massless free-flyer root
//     whose only child hangs on one revolute joint (an arm's base link given a floating base) has a 6×6
//     pivot of rank 5 at every configuration. Found numerically: the articulated-inertia pass of the ABA
//     (algorithms/detail/articulated_body.hpp) at the neutral configuration, with the M1 bodies already
//     repaired; the first massless body whose pivot fails there gets the M2 inertia, and the test repeats.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "treedyn/algorithms/detail/articulated_body.hpp"
#include "treedyn/model/configuration.hpp"
#include "treedyn/model/data.hpp"
#include "treedyn/model/model.hpp"
#include "treedyn/spatial/rigid_inertia.hpp"

namespace treedyn::urdf::detail {

/// M1: whether Sᵀ I S is singular for body i's own inertia.
template <class Scalar>
bool own_pivot_singular(const Model<Scalar>& model, int i) {
  using std::abs;
  using std::max;
  const auto S = model.joint(i).motion_subspace();
  const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> D = S.transpose() * model.inertia(i).matrix() * S;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>> eigen(
      D, Eigen::EigenvaluesOnly);
  const auto& lambda = eigen.eigenvalues();
  const Scalar largest = max(abs(lambda(0)), abs(lambda(lambda.size() - 1)));
  return lambda(0) <= Scalar(64) * std::numeric_limits<Scalar>::epsilon() * largest;
}

/// M1: the massless moving bodies whose pivot nothing keeps positive, in body order.
template <class Scalar>
std::vector<int> pivotless_bodies(const Model<Scalar>& model) {
  const int n = model.nbodies();
  std::vector<char> substance_below(static_cast<std::size_t>(n), 0);  // a descendant carries inertia
  std::vector<int> out;
  for (int i = n - 1; i >= 0; --i) {  // parents[i] < i: children are met first
    const RigidInertia<Scalar>& I = model.inertia(i);
    const bool massless = I.m == Scalar(0);
    const bool substance = !massless || !I.I.matrix().isZero(Scalar(0));
    const std::size_t k = static_cast<std::size_t>(i);
    if (massless && model.joint(i).nv() > 0 && !substance_below[k] && own_pivot_singular(model, i)) out.push_back(i);
    const int parent = model.parent(i);
    if (parent >= 0 && (substance || substance_below[k])) substance_below[static_cast<std::size_t>(parent)] = 1;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// M3: the first massless moving body (inward order) whose ABA pivot fails at the neutral configuration, or
/// −1 when every pivot there is positive or the first that fails belongs to a body with mass (not a missing
/// inertia: left to the dynamics calls' status).
template <class Scalar>
int massless_body_without_pivot_at_neutral(const Model<Scalar>& model) {
  Data<Scalar> data(model);
  const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> q = neutral(model);
  if (!treedyn::detail::aba_inertia_outward_pass(model, data, &q, "urdf::load")) return -1;
  for (const int i : model.inward_order()) {
    if (treedyn::detail::aba_inertia_step(model, data, i)) continue;
    const RigidInertia<Scalar>& I = model.inertia(i);
    return (I.m == Scalar(0) && model.joint(i).nv() > 0) ? i : -1;
  }
  return -1;
}

/// M2: m̄, the median mass of the links with mass (1 when there is none).
template <class Scalar>
Scalar median_mass(std::vector<Scalar> masses) {
  masses.erase(std::remove_if(masses.begin(), masses.end(), [](const Scalar& m) { return !(m > Scalar(0)); }),
               masses.end());
  if (masses.empty()) return Scalar(1);
  const auto middle = masses.begin() + static_cast<std::ptrdiff_t>(masses.size() / 2);
  std::nth_element(masses.begin(), middle, masses.end());
  return *middle;
}

/// M2: the inertia added to a pivotless link, in its own frame: √ε m̄ at the origin, isotropic m* ρ².
template <class Scalar>
RigidInertia<Scalar> massless_repair_inertia(const Scalar& median_link_mass, const Scalar& gyration_squared) {
  using std::sqrt;
  const Scalar rho2 = gyration_squared > Scalar(0) ? gyration_squared : Scalar(0.01);
  const Scalar m = sqrt(std::numeric_limits<Scalar>::epsilon()) * median_link_mass;
  return RigidInertia<Scalar>::from_mass_com_inertia(m, Vector3<Scalar>::Zero(),
                                                     Matrix3<Scalar>(m * rho2 * Matrix3<Scalar>::Identity()));
}

}  // namespace treedyn::urdf::detail
