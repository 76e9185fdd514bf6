// Part 4 of the demo: the operational-space compliance Λ⁻¹ = J M⁻¹ Jᵀ of a robot's frames by oscm,
// against oscm_dense (see main.cpp); print_leaf_compliance also serves the URDF run.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <treedyn/algorithms/algorithms.hpp>
#include <treedyn/model/configuration.hpp>
#include <treedyn/robots/robots.hpp>

#include "demo.hpp"

namespace demo {
namespace {

/// Λ⁻¹ (6 n_c × 6 n_c, local frames) of the frames (body, name) of `model` at a random state, by oscm (the
/// O(N + n_c d + n_c²) recursion) and oscm_dense (J · LTDL-solve(Jᵀ)): the grid of 6×6 block norms, the
/// first frame's diagonal block, and the relative oscm-vs-dense residual against 100 n ε κ(H). Returns
/// true if both kernels succeeded and the residual is within its bound.
bool print_operational_compliance(const treedyn::Model<double>& model, const std::vector<int>& bodies,
                                  const std::vector<std::string>& names, const treedyn::Transform<double>& offset) {
  treedyn::Data<double> data(model);
  treedyn::OperationalFrames<double> frames(model);
  const int nc = static_cast<int>(bodies.size());
  for (int a = 0; a < nc; ++a) frames.add(bodies[a], offset, treedyn::FrameRows::all(), names[a]);
  const Eigen::VectorXd q = treedyn::random_configuration(model, 2024);
  const Eigen::MatrixXd compliance = treedyn::oscm(model, data, frames, q);
  const treedyn::FactorStatus oscm_status = frames.status;  // frames.status is the last kernel's
  const Eigen::MatrixXd& compliance_dense = treedyn::oscm_dense(model, data, frames, q);
  const treedyn::FactorStatus dense_status = frames.status;
  treedyn::crba(model, data, q);
  const Eigen::MatrixXd H = treedyn::dense_H(model, data);
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
  const double bound = 100.0 * model.nv() * std::numeric_limits<double>::epsilon() * eig.maxCoeff() / eig.minCoeff();
  std::printf("Part 4: the operational-space compliance Λ⁻¹ = J H⁻¹ Jᵀ of %d frames (%d×%d, local frames)\n", nc, 6 * nc, 6 * nc);
  std::printf("  ‖(Λ⁻¹)_ab‖_F of the 6×6 blocks:\n  %12s", "");
  for (int b = 0; b < nc; ++b) std::printf("%12.12s", names[b].c_str());
  std::printf("\n");
  for (int a = 0; a < nc; ++a) {
    std::printf("  %12.12s", names[a].c_str());
    for (int b = 0; b < nc; ++b) std::printf("%12.4f", compliance.block(6 * a, 6 * b, 6, 6).norm());
    std::printf("\n");
  }
  std::printf("  diagonal block of %s (rows and columns [ω; v]):\n", names[0].c_str());
  for (int i = 0; i < 6; ++i) {
    std::printf("   ");
    for (int j = 0; j < 6; ++j) std::printf("%11.4f", compliance(i, j));
    std::printf("\n");
  }
  const double residual = (compliance - compliance_dense).norm() / compliance_dense.norm();
  const bool ok = oscm_status.ok() && dense_status.ok() && residual <= bound;
  std::printf("  status oscm %s, dense %s; ‖(Λ⁻¹)_oscm − (Λ⁻¹)_dense‖/‖(Λ⁻¹)_dense‖ = %.2e (bound 100 n eps kappa(H) = %.2e)%s\n",
              oscm_status.ok() ? "ok" : "FAIL", dense_status.ok() ? "ok" : "FAIL", residual, bound,
              ok ? "" : " FAIL");
  return ok;
}

}  // namespace

/// The humanoid's four hands/feet: a frame 8 cm beyond each limb's last link.
bool print_humanoid_compliance() {
  return print_operational_compliance(treedyn::robots::humanoid30<double>(), {6, 12, 18, 24},
                                      {"hand_l", "hand_r", "foot_l", "foot_r"},
                                      treedyn::xlt(Eigen::Vector3d(0.0, 0.0, -0.08)));
}

#ifdef TREEDYN_DEMO_URDF
/// Every leaf body of a model (no children), at its own origin, named after the body.
bool print_leaf_compliance(const treedyn::Model<double>& model) {
  std::vector<bool> has_child(static_cast<std::size_t>(model.nbodies()), false);
  for (int i = 0; i < model.nbodies(); ++i)
    if (model.parent(i) != treedyn::no_parent) has_child[static_cast<std::size_t>(model.parent(i))] = true;
  std::vector<int> bodies;
  std::vector<std::string> names;
  for (int i = 0; i < model.nbodies(); ++i)
    if (!has_child[static_cast<std::size_t>(i)]) {
      bodies.push_back(i);
      names.push_back(model.name(i));
    }
  return print_operational_compliance(model, bodies, names, treedyn::Transform<double>::identity());
}
#endif

}  // namespace demo
