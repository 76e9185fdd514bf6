// Cross-check of the contact layer's LCP solutions against an independent solver: Siconos Numerics'
// lexicographic Lemke method (lcp_lexicolemke, Cottle–Pang–Stone 1992, docs/references.md) and its
// enumerative solver (lcp_enum). Built only when Siconos Numerics is installed (a test dependency; the
// header-only core never needs it).
//   1. Positive definite LCPs have one solution: treedyn's z equals Siconos's.
//   2. Stewart–Trinkle friction LCPs (the matrix contact_lcp solves, eq. 53 of Jain (n.d.)) have a zero
//      diagonal block and, in general, several solutions: the LCP is rebuilt here from G and the contacts by
//      the formulas of the paper, contact_lcp's solution is validated by Siconos's error measure
//      (lcp_compute_error), and Siconos's Lemke solution, where it finds one, by complementarity here.
//   3. An infeasible LCP: treedyn reports ray termination and Siconos fails too (never a wrong answer).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>

#include "support/random.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/kernels/lemke.hpp"

namespace {

using namespace treedyn;
using MatrixXd = Eigen::MatrixXd;
using VectorXd = Eigen::VectorXd;

/// One LCP(M, q) handed to Siconos (dense, column-major, as NM_DENSE stores it); owns the C structures.
class SiconosLcp {
 public:
  SiconosLcp(const MatrixXd& M, const VectorXd& q) : q_(q) {
    const int n = static_cast<int>(q.size());
    matrix_ = NM_create(NM_DENSE, n, n);
    Eigen::Map<MatrixXd>(matrix_->matrix0, n, n) = M;
    problem_.size = n;
    problem_.M = matrix_;
    problem_.q = q_.data();
  }
  ~SiconosLcp() { NM_free(matrix_); }
  SiconosLcp(const SiconosLcp&) = delete;
  SiconosLcp& operator=(const SiconosLcp&) = delete;

  /// Solves with the solver `id` (SICONOS_LCP_LEMKE, SICONOS_LCP_ENUM); returns Siconos's info (0: solved).
  int solve(int id, VectorXd& z, VectorXd& w) {
    z = VectorXd::Zero(problem_.size);
    w = VectorXd::Zero(problem_.size);
    SolverOptions* options = solver_options_create(id);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
    const int info = linearComplementarity_driver(&problem_, z.data(), w.data(), options);
    solver_options_delete(options);
    return info;
  }

  /// Siconos's error measure of a candidate z (w recomputed from M and q), relative to ‖q‖.
  double error(const VectorXd& z) {
    VectorXd zc = z;
    VectorXd w = MatrixXd(Eigen::Map<MatrixXd>(matrix_->matrix0, problem_.size, problem_.size)) * z + q_;
    double err = 0;
    lcp_compute_error(&problem_, zc.data(), w.data(), 1e-8, &err);
    return err;
  }

 private:
  VectorXd q_;
  NumericsMatrix* matrix_ = nullptr;
  LinearComplementarityProblem problem_{};
};

/// max_i |min(w_i, z_i)| of w = M z + q, in double.
double complementarity(const MatrixXd& M, const VectorXd& q, const VectorXd& z) {
  return (M * z + q).cwiseMin(z).cwiseAbs().maxCoeff();
}

/// The Stewart–Trinkle LCP of eqs. 12–16 (Jain (n.d.)) written out from G = Q_u Λ⁻¹ Q_uᵀ (Λ⁻¹ the compliance), the contact-free
/// relative velocities v and the contacts, without contact_lcp's code: rows β_i then σ_i, contact by contact
/// in the order of contact_lcp's unknowns (β_1 … β_n, σ_1 … σ_n).
void stewart_trinkle(const std::vector<Contact<double>>& contacts, const MatrixXd& G, const VectorXd& v, MatrixXd& M,
                     VectorXd& q) {
  const int nu = static_cast<int>(contacts.size());
  std::vector<MatrixXd> D(static_cast<std::size_t>(nu));
  std::vector<int> offset(static_cast<std::size_t>(nu) + 1, 0);
  for (int i = 0; i < nu; ++i) {
    const Contact<double>& c = contacts[static_cast<std::size_t>(i)];
    D[static_cast<std::size_t>(i)].resize(3, c.friction_directions + 1);
    friction_directions(c, D[static_cast<std::size_t>(i)]);
    offset[static_cast<std::size_t>(i) + 1] = offset[static_cast<std::size_t>(i)] + c.friction_directions + 1;
  }
  const int nbeta = offset.back(), n = nbeta + nu;
  M = MatrixXd::Zero(n, n);
  q = VectorXd::Zero(n);
  for (int i = 0; i < nu; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const int ri = offset[ui], ni = static_cast<int>(D[ui].cols());
    for (int j = 0; j < nu; ++j) {
      const auto uj = static_cast<std::size_t>(j);
      M.block(ri, offset[uj], ni, D[uj].cols()) = D[ui].transpose() * G.block(3 * i, 3 * j, 3, 3) * D[uj];
    }
    q.segment(ri, ni) = D[ui].transpose() * v.segment(3 * i, 3);
    M.block(ri + 1, nbeta + i, ni - 1, 1).setOnes();                       // Ê_i = [0; e]
    M(nbeta + i, ri) = contacts[ui].mu;                                     // Ē_i = [μ_i, −eᵀ]
    M.block(nbeta + i, ri + 1, 1, ni - 1).setConstant(-1.0);
  }
}

}  // namespace

TEST_CASE("lemke agrees with Siconos on positive definite LCPs (one solution each)", "[siconos][lemke]") {
  test::Rng rng(4242);
  LemkeWorkspace<double> ws(40);
  int nontrivial = 0;
  for (int n = 1; n <= 40; n += 3) {
    for (int trial = 0; trial < 3; ++trial) {
      const MatrixXd A = rng.matrix<double>(n, n);
      const MatrixXd M = A.transpose() * A + 0.1 * MatrixXd::Identity(n, n);
      const VectorXd q = rng.matrix<double>(n, 1);
      INFO("n = " << n << ", trial " << trial);
      REQUIRE(lemke(ws, M, q).ok());
      SiconosLcp reference(M, q);
      VectorXd z, w;
      REQUIRE(reference.solve(SICONOS_LCP_LEMKE, z, w) == 0);
      // Both are the unique solution; they differ by the rounding of two pivot sequences on the final basis,
      // whose condition number is at most that of M.
      const Eigen::JacobiSVD<MatrixXd> svd(M);
      const double kappa = svd.singularValues()(0) / svd.singularValues()(n - 1);
      const double scale = z.cwiseAbs().maxCoeff() + 1.0;
      CHECK((ws.z() - z).cwiseAbs().maxCoeff() <= 100.0 * n * kappa * std::numeric_limits<double>::epsilon() * scale);
      CHECK(reference.error(ws.z()) <= 1e-10);
      if (z.maxCoeff() > 0) ++nontrivial;
    }
  }
  CHECK(nontrivial >= 30);  // of 42 problems, most have a nonzero solution (q has entries of both signs)
}

TEST_CASE("contact_lcp's solution solves the Stewart-Trinkle LCP that Siconos also solves", "[siconos][contact]") {
  test::Rng rng(99);
  int with_impulse = 0, siconos_solved = 0;
  for (int nu = 1; nu <= 6; ++nu) {
    for (const int nf : {4, 8}) {
      // Contacts with random normals, friction and tangents; G = Q_u Λ⁻¹ Q_uᵀ positive semi-definite, of rank
      // below 3n_u from three contacts on (as for a body resting on more than three points).
      std::vector<Contact<double>> contacts(static_cast<std::size_t>(nu));
      for (Contact<double>& c : contacts) {
        c.normal = Vector3<double>(rng.uniform(), rng.uniform(), 1.0 + rng.uniform(0.0, 1.0)).normalized();
        c.mu = rng.uniform(0.1, 1.0);
        c.friction_directions = nf;
      }
      const int rank = std::min(3 * nu, 6);
      const MatrixXd A = rng.matrix<double>(rank, 3 * nu);
      const MatrixXd G = A.transpose() * A;
      // Velocities a motion can have: v = Q_u J θ̇ lies in the range of Q_u J, which is that of G (M ≻ 0).
      // A v outside it can make the LCP infeasible (G = 0 and an approaching contact: no impulse helps).
      const VectorXd v = A.transpose() * rng.matrix<double>(rank, 1);
      INFO("n_u = " << nu << ", n_f = " << nf);

      MatrixXd M;
      VectorXd q;
      stewart_trinkle(contacts, G, v, M, q);
      REQUIRE(M.rows() == nu * (nf + 2));

      ContactLcpWorkspace<double> ws(nu, nf);
      REQUIRE(contact_lcp(ws, contacts, G, v).ok());
      REQUIRE(ws.lcp_size() == M.rows());
      VectorXd z(M.rows());
      int row = 0;
      for (int i = 0; i < nu; ++i) {
        z.segment(row, nf + 1) = ws.beta(i);
        row += nf + 1;
      }
      for (int i = 0; i < nu; ++i) z(row + i) = ws.sliding_speed(i);

      SiconosLcp reference(M, q);
      const double scale = M.cwiseAbs().maxCoeff() * (z.cwiseAbs().maxCoeff() + 1.0) + q.cwiseAbs().maxCoeff();
      CHECK(z.minCoeff() >= 0.0);
      CHECK(complementarity(M, q, z) <= 1e3 * std::numeric_limits<double>::epsilon() * scale);
      CHECK(reference.error(z) <= 1e-10);

      VectorXd zs, ws_;
      // Siconos's own Lemke stops without a solution (info 1) on some of these rank-deficient problems that
      // treedyn solves; where it returns one, it must be a solution too.
      if (reference.solve(SICONOS_LCP_LEMKE, zs, ws_) == 0) {
        ++siconos_solved;
        CHECK(complementarity(M, q, zs) <= 1e-9 * scale);
      }
      if (z.maxCoeff() > 0) ++with_impulse;
      // Both leave every contact with a nonnegative normal velocity (the post-impulse velocities of
      // contact_lcp, computed by it from G and the impulses).
      for (int i = 0; i < nu; ++i) {
        const Vector3<double> n = contacts[static_cast<std::size_t>(i)].normal;
        CHECK(n.dot(ws.velocity().segment<3>(3 * i)) >= -1e-12 * scale);
      }
    }
  }
  CHECK(with_impulse >= 10);   // of 12 problems: the velocities drawn make most of them need an impulse
  CHECK(siconos_solved >= 1);  // the reference ran (its failures are its own; see above)
}

TEST_CASE("an infeasible LCP: treedyn reports ray termination and Siconos does not solve it either", "[siconos][lemke]") {
  // w = −z − 1 ≥ 0 has no z ≥ 0.
  const MatrixXd M = -MatrixXd::Identity(3, 3);
  const VectorXd q = -VectorXd::Ones(3);
  LemkeWorkspace<double> ws(3);
  CHECK(lemke(ws, M, q).code == LcpStatus<double>::Code::ray_termination);
  SiconosLcp reference(M, q);
  VectorXd z, w;
  CHECK(reference.solve(SICONOS_LCP_ENUM, z, w) != 0);
}
