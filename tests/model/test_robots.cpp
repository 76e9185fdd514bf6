// The ready-made 3-D robots: each builds (float and double), has the documented nq / nv / parent arrays
// and total mass; humanoid30's expanded DoF parent array is the topology generator's and chain30 reuses
// its bodies; the DH robots' frames agree with an independent textbook modified-DH product.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include "model_test_support.hpp"
#include "treedyn/robots/robots.hpp"
#include "treedyn/topology/generators.hpp"
#include "treedyn/topology/parent_array.hpp"

using namespace model_test;
using treedyn::JointType;
using treedyn::Model;

namespace {

/// Homogeneous transform of the modified DH convention: Rx(α) Tx(a) Rz(θ) Tz(d) (Craig, §3.4).
Eigen::Matrix4d mdh(double a, double alpha, double d, double theta) {
  Eigen::Matrix4d Rx = Eigen::Matrix4d::Identity(), Tx = Eigen::Matrix4d::Identity(), Rz = Eigen::Matrix4d::Identity(),
                  Tz = Eigen::Matrix4d::Identity();
  Rx.block<3, 3>(0, 0) = Eigen::AngleAxisd(alpha, Eigen::Vector3d::UnitX()).toRotationMatrix();
  Tx(0, 3) = a;
  Rz.block<3, 3>(0, 0) = Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  Tz(2, 3) = d;
  return Rx * Tx * Rz * Tz;
}

/// Checks every body frame of a serial DH robot against the textbook product of mdh() at q.
void check_against_dh(const Model<double>& model, const std::vector<std::array<double, 3>>& table,
                      const VecX<double>& q) {
  const std::vector<treedyn::Transform<double>> X0 = body_placements(model, q);
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  for (int i = 0; i < model.nbodies(); ++i) {
    const std::array<double, 3>& row = table[static_cast<std::size_t>(i)];  // a_{i−1}, α_{i−1}, d_i
    T = T * mdh(row[0], row[1], row[2], q(i));
    // ^iX_0 = (E, r): E = ^iR_0 = (⁰R_i)ᵀ, r = origin of frame i in base coordinates
    INFO("body " << i);
    CHECK((X0[static_cast<std::size_t>(i)].E - T.block<3, 3>(0, 0).transpose()).cwiseAbs().maxCoeff() <=
          64 * eps<double>());
    CHECK(close_entrywise(X0[static_cast<std::size_t>(i)].r, T.block<3, 1>(0, 3), 64 * eps<double>()));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("humanoid30 and chain30: seed 000 §6 structure", "[model][robots]", float, double) {
  using T = TestType;
  const Model<T> humanoid = treedyn::robots::humanoid30<T>();
  const Model<T> chain = treedyn::robots::chain30<T>();
  for (const Model<T>* m : {&humanoid, &chain}) {
    CHECK(m->nbodies() == 25);
    CHECK(m->nq() == 31);
    CHECK(m->nv() == 30);
    CHECK(m->joint(0).type == JointType::free_flyer);
    for (int i = 1; i < 25; ++i) CHECK(m->joint(i).type == JointType::revolute);
    CHECK(std::abs(total_mass(*m) - T(67.4)) <= T(64 * eps<T>()) * T(67.4));
  }
  const std::vector<int> dofs = treedyn::topologies::humanoid_dofs(4, 6, 6);
  CHECK(to_vector(humanoid.parents()) == treedyn::topologies::humanoid(4, 6));
  CHECK(to_vector(humanoid.dof_parents()) ==
        treedyn::expand_parent_array(treedyn::topologies::humanoid(4, 6), dofs));
  CHECK(to_vector(chain.parents()) == treedyn::topologies::chain(25));
  CHECK(to_vector(chain.dof_parents()) == treedyn::expand_parent_array(treedyn::topologies::chain(25), dofs));
  // the chain reuses the humanoid's bodies and joints exactly
  for (int i = 0; i < 25; ++i) {
    CHECK(chain.inertia(i).matrix() == humanoid.inertia(i).matrix());
    CHECK(chain.joint(i).axis == humanoid.joint(i).axis);
    CHECK(chain.tree_transform(i).E == humanoid.tree_transform(i).E);
    CHECK(chain.tree_transform(i).r == humanoid.tree_transform(i).r);
    CHECK(chain.name(i) == humanoid.name(i));
  }
  // "general geometry and inertia": no limb joint axis or offset along a frame axis, every centre of
  // mass off every axis, every rotational inertia about the centre of mass with nonzero products
  for (int i = 1; i < 25; ++i) {
    INFO("body " << humanoid.name(i));
    const V3<T> a = humanoid.joint(i).axis;
    CHECK(a.cwiseAbs().maxCoeff() < T(0.99));
    CHECK(a.cwiseAbs().minCoeff() > T(0.05));
    CHECK((humanoid.tree_transform(i).r.cwiseAbs().array() > T(0)).all());
    CHECK((humanoid.tree_transform(i).E - treedyn::Matrix3<T>::Identity()).cwiseAbs().maxCoeff() > T(0.01));
    const treedyn::RigidInertia<T>& I = humanoid.inertia(i);
    CHECK((I.h.cwiseAbs().array() > T(0)).all());
    const V3<T> c = I.com();
    const treedyn::Matrix3<T> Ic = I.I.matrix() + treedyn::skew(I.h) * treedyn::skew(c);
    CHECK(std::abs(Ic(1, 0)) > T(1e-5));
    CHECK(std::abs(Ic(2, 0)) > T(1e-5));
    CHECK(std::abs(Ic(2, 1)) > T(1e-5));
  }
}

TEST_CASE("arm7: Franka Emika Panda (Gaz et al. 2019)", "[model][robots]") {
  const Model<double> arm = treedyn::robots::arm7<double>();
  CHECK(arm.nbodies() == 7);
  CHECK(arm.nq() == 7);
  CHECK(arm.nv() == 7);
  CHECK(to_vector(arm.parents()) == treedyn::topologies::chain(7));
  CHECK(std::abs(total_mass(arm) - 16.062132) <= 64 * eps<double>() * 16.062132);
  CHECK(arm.inertia(6).m == 0.735522);  // the massless flange added nothing to link 7
  const double hp = 2 * std::atan(1.0);
  const std::vector<std::array<double, 3>> table = {{0, 0, 0.333},        {0, -hp, 0},  {0, hp, 0.316},
                                                    {0.0825, hp, 0},      {-0.0825, -hp, 0.384},
                                                    {0, hp, 0},           {0.088, hp, 0}};
  check_against_dh(arm, table, VecX<double>::Zero(7));
  check_against_dh(arm, table, treedyn::random_configuration(arm, 17));
  // the flange at q = 0: 0.088 m forward, 0.333 + 0.316 + 0.384 − 0.107 = 0.926 m up, z pointing down
  const treedyn::Frame<double>& flange = arm.frame("flange");
  REQUIRE(flange.body == 6);
  const std::vector<treedyn::Transform<double>> X0 = body_placements(arm, VecX<double>::Zero(7));
  const treedyn::Transform<double> X_flange = flange.placement * X0[6];
  CHECK(close_entrywise(X_flange.r, V3<double>(0.088, 0, 0.926), 64 * eps<double>()));
  CHECK(close_entrywise(X_flange.E.row(2).transpose(), V3<double>(0, 0, -1), 64 * eps<double>()));
  CHECK_NOTHROW(treedyn::robots::arm7<float>());
}

TEST_CASE("puma560: Armstrong, Khatib, Burdick 1986 (Corke mdl_puma560akb)", "[model][robots]") {
  const Model<double> puma = treedyn::robots::puma560<double>();
  CHECK(puma.nbodies() == 6);
  CHECK(puma.nq() == 6);
  CHECK(puma.nv() == 6);
  CHECK(to_vector(puma.parents()) == treedyn::topologies::chain(6));
  CHECK(std::abs(total_mass(puma) - 23.45) <= 64 * eps<double>() * 23.45);
  const double hp = 2 * std::atan(1.0);
  const std::vector<std::array<double, 3>> table = {{0, 0, 0},           {0, -hp, 0.2435}, {0.4318, 0, -0.0934},
                                                    {-0.0203, hp, 0.4331}, {0, -hp, 0},      {0, hp, 0}};
  check_against_dh(puma, table, VecX<double>::Zero(6));
  check_against_dh(puma, table, treedyn::random_configuration(puma, 5));
  // link 2's centre of mass (0.068, 0.006, −0.016) and link 1's axial inertia 0.35 about joint 1
  CHECK(close_entrywise(puma.inertia(1).com(), V3<double>(0.068, 0.006, -0.016), 4 * eps<double>()));
  CHECK(puma.inertia(0).I(2, 2) == 0.35);
  // H(0, 0) of the arm at q = 0 from the definition equals the sum of the bodies' inertias about axis 1
  const MatX<double> H = mass_matrix(puma, VecX<double>::Zero(6));
  CHECK(H.allFinite());
  CHECK(H(0, 0) > 0.35);
  CHECK_NOTHROW(treedyn::robots::puma560<float>());
}
